import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { initialTransition, transition, type AnyEventObject } from 'xstate';
import { renderStatechartDoc, STATECHART_DOC_PATH } from '../../scripts/statechart-docs';
import { RAISED_TIMERS } from '../../scripts/statechart/render';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { TIMINGS } from '../../src/machines/checkoutTimings';

const INPUT = { affiliateId: 'dr-sample', affiliateSource: 'http://localhost/', returnUrl: 'http://localhost/payment-success' };

/** What makes each timer-starting action run, from the checkout's first state. */
const TRIGGERS: Record<string, AnyEventObject> = {
  celebrateAtTwoSeats: { type: 'SEAT_ADDED' },
  scheduleFirstNameFocus: { type: 'GET_STARTED_CLICKED' },
};

describe('docs/statechart.md (a diagram that cannot drift)', () => {
  it('is what `npm run docs:statechart` generates from the machines', () => {
    const committed = readFileSync(STATECHART_DOC_PATH, 'utf8');
    expect(committed, 'docs/statechart.md is stale: run `npm run docs:statechart`').toBe(renderStatechartDoc());
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

  it('draws every state of both machines', () => {
    const doc = renderStatechartDoc();
    for (const state of ['init', 'idle', 'pendingSeats', 'updating', 'submitting', 'finalizing', 'success']) {
      expect(doc).toContain(`state "${state}" as checkout_${state}`);
    }
    for (const state of ['loading', 'finalizingReturn', 'noData', 'corrupt', 'returnFailed', 'ready', 'redirecting']) {
      expect(doc).toContain(`state "${state}" as paymentSuccess_${state}`);
    }
  });
});
