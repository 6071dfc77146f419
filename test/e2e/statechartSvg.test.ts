/**
 * The statecharts as SVG (docs/statechart/*.svg): rendered by Mermaid in Debian's Chromium, and the committed
 * files show every state and every event of the machines (a stale file misses what was added since).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { STATECHART_SVG_DIR } from '../../scripts/statechart-docs';
import { renderStatechartSvgs, svgTexts } from '../../scripts/statechart-svg';
import { DRAWN_MACHINES } from '../../scripts/statechart/machines';

const MACHINES: Record<string, AnyStateMachine> = Object.fromEntries(DRAWN_MACHINES.map(({ machine }) => [machine.id, machine]));

function statesAndEvents(machine: AnyStateMachine): string[] {
  const nodes = (node: AnyStateNode): AnyStateNode[] => [
    node,
    ...Object.values(node.states).flatMap((child) => nodes(child as AnyStateNode)),
  ];
  const all = nodes(machine.root);
  const states = all.filter((node) => node !== machine.root).map((node) => node.key);
  const events = all.flatMap((node) => [...node.transitions.keys()].filter((type) => !type.startsWith('xstate.')));
  return [...new Set([...states, ...events])];
}

/** The chart's words run together, so a label wrapped over two lines still reads whole. */
const wordsOf = (svg: string) => svgTexts(svg).join('').replace(/\s+/g, '');

describe('statechart SVGs', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'statechart-svg-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('render every state and event of the machines, and the committed files are current', async () => {
    const files = await renderStatechartSvgs(outDir);
    expect(files.map((file) => file.slice(outDir.length + 1)).sort()).toEqual(
      Object.keys(MACHINES)
        .map((id) => `${id}.svg`)
        .sort(),
    );
    for (const [name, machine] of Object.entries(MACHINES)) {
      const fresh = wordsOf(readFileSync(join(outDir, `${name}.svg`), 'utf8'));
      const committed = wordsOf(readFileSync(join(STATECHART_SVG_DIR, `${name}.svg`), 'utf8'));
      for (const word of statesAndEvents(machine)) {
        expect(fresh, `${name}.svg shows ${word}`).toContain(word);
        expect(committed, `docs/statechart/${name}.svg is stale (npm run docs:statechart): ${word}`).toContain(word);
      }
    }
  });
});
