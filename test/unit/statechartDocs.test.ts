import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialTransition, StateMachine, transition, type AnyEventObject, type AnyStateNode } from 'xstate';
import { renderStatechartDoc, STATECHART_DOC_PATH, STATECHART_SVG_DIR } from '../../scripts/statechart-docs';
import { DRAWN_MACHINES } from '../../scripts/statechart/machines';
import { RAISED_TIMERS } from '../../scripts/statechart/render';
import { mermaidBlocks, stampOf, svgStamp } from '../../scripts/statechart/svgStamp';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { TIMINGS } from '../../src/machines/checkoutTimings';

const STALE = 'run `npm run docs:statechart`';

const INPUT = { affiliateId: 'dr-sample', affiliateSource: 'http://localhost/', returnUrl: 'http://localhost/payment-success' };

/** What makes each timer-starting action run, from the checkout's first state. */
const TRIGGERS: Record<string, AnyEventObject> = {
  celebrateAtTwoSeats: { type: 'SEAT_ADDED' },
  scheduleFirstNameFocus: { type: 'GET_STARTED_CLICKED' },
};

describe('docs/statechart.md (a diagram that cannot drift)', () => {
  it('is what `npm run docs:statechart` generates from the machines', () => {
    const committed = readFileSync(STATECHART_DOC_PATH, 'utf8');
    expect(committed, `docs/statechart.md is stale: ${STALE}`).toBe(renderStatechartDoc());
  });

  it('draws every machine exported from src/machines', async () => {
    const exported: string[] = [];
    for (const name of readdirSync('src/machines').filter((file) => file.endsWith('.ts'))) {
      const module = (await import(`../../src/machines/${name.slice(0, -'.ts'.length)}.ts`)) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        if (value instanceof StateMachine) exported.push(`src/machines/${name} (${value.id})`);
      }
    }
    const drawn = DRAWN_MACHINES.map(({ source, machine }) => `${source} (${machine.id})`);
    expect(exported.length).toBeGreaterThanOrEqual(20);
    expect([...drawn].sort(), 'add the machine to scripts/statechart/machines.ts, then ' + STALE).toEqual([...exported].sort());
  });

  it('has one SVG per machine, drawn from its current diagram (a stale SVG fails here, no browser needed)', () => {
    const blocks = mermaidBlocks(renderStatechartDoc());
    expect(blocks.map(({ name }) => name)).toEqual(DRAWN_MACHINES.map(({ machine }) => machine.id));
    const svgs = readdirSync(STATECHART_SVG_DIR).filter((file) => file.endsWith('.svg'));
    expect(svgs.sort(), `SVGs without a machine, or machines without an SVG: ${STALE}`).toEqual(
      blocks.map(({ name }) => `${name}.svg`).sort(),
    );
    for (const { name, code } of blocks) {
      const svg = readFileSync(join(STATECHART_SVG_DIR, `${name}.svg`), 'utf8');
      expect(stampOf(svg), `docs/statechart/${name}.svg is stale: ${STALE}`).toBe(svgStamp(code));
    }
  });

  it('stamps a diagram by its source: one changed character is another stamp', () => {
    const [first] = mermaidBlocks(renderStatechartDoc());
    const code = first?.code ?? '';
    expect(svgStamp(code)).toBe(svgStamp(code));
    expect(svgStamp(`${code} `)).not.toBe(svgStamp(code));
    expect(stampOf(`<svg></svg>\n${svgStamp(code)}\n`)).toBe(svgStamp(code));
    expect(stampOf('<svg></svg>\n')).toBeUndefined();
  });

  it('renders the same bytes every time', () => {
    expect(renderStatechartDoc()).toBe(renderStatechartDoc());
  });

  it('names the timers the actions really start, with their events and delays', () => {
    expect(Object.keys(RAISED_TIMERS).sort()).toEqual(Object.keys(TRIGGERS).sort());
    const [start] = initialTransition(checkoutMachine, INPUT);
    for (const [action, documented] of Object.entries(RAISED_TIMERS)) {
      const [, actions] = transition(checkoutMachine, start, TRIGGERS[action] as never);
      const raised = actions
        .filter((item) => item.type === 'xstate.raise')
        .map((item) => item.params as { id?: string; delay?: number; event: AnyEventObject });
      expect(raised, action).toContainEqual(
        expect.objectContaining({
          id: documented.timer,
          delay: TIMINGS[documented.delay as keyof typeof TIMINGS],
          event: { type: documented.event },
        }),
      );
    }
  });

  it('draws every state of every machine, in its own diagram', () => {
    const blocks = new Map(mermaidBlocks(renderStatechartDoc()).map(({ name, code }) => [name, code]));
    const nodes = (node: AnyStateNode): AnyStateNode[] => [
      node,
      ...Object.values(node.states).flatMap((child) => nodes(child as AnyStateNode)),
    ];
    for (const { machine } of DRAWN_MACHINES) {
      const code = blocks.get(machine.id) ?? '';
      for (const node of nodes(machine.root).slice(1)) {
        expect(code, `${machine.id}: ${node.id}`).toContain(`state "${node.key}" as ${node.id.replace(/\./g, '_')}\n`);
      }
    }
    const checkout = blocks.get('checkout') ?? '';
    for (const state of ['init', 'idle', 'pendingSeats', 'updating', 'submitting', 'finalizing', 'success']) {
      expect(checkout).toContain(`state "${state}" as checkout_${state}`);
    }
  });
});
