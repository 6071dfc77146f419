/**
 * Spec §4 seat timing, under XState's SimulatedClock with the real Date left alone: a change is committed only
 * 2000 ms after the last edit, never while an update is in progress, and more than 1 s after the last successful
 * update. fast-check draws the buyer's edits (the buttons, or a count typed in the box, refused or not), pauses and
 * the server's latency.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { SubscriptionSession, UpdateIntentResponse } from '../../src/contract/checkout';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { session } from './support/checkoutFixtures';

/** Spec §9, written here from the spec rather than read from the machine. */
const DEBOUNCE_MS = 2000;
const MIN_MS_BETWEEN_UPDATES = 1000;
const INIT_DELAY_MS = 500;
/** The page's limit in these runs (the server's MAX_SEATS): small, so the runs meet it. */
const MAX_SEATS = 5;

type Step = { kind: 'add' } | { kind: 'remove' } | { kind: 'type'; text: string } | { kind: 'wait'; ms: number };

const flush = async () => {
  for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
};

/** Moves `clock` to `target`, stopping at each timeout on the way so every callback runs at its own due time. */
async function advanceTo(clock: SimulatedClock, target: number): Promise<void> {
  for (;;) {
    const timeouts = [...(clock as unknown as { timeouts: Map<number, { start: number; timeout: number }> }).timeouts.values()];
    const next = Math.min(...timeouts.map((timeout) => timeout.start + timeout.timeout));
    if (!(next <= target)) break;
    clock.set(Math.max(next, clock.now()));
    await flush();
  }
  clock.set(target);
  await flush();
}

async function run(steps: Step[], latencyMs: number) {
  const clock = new SimulatedClock();
  const calls: { at: number; quantity: number }[] = [];
  const successes: number[] = [];
  const edits: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let revision = 1;
  const machine = checkoutMachine.provide({
    actors: {
      createSubscriptionIntent: fromPromise(async () => session),
      updateSubscriptionIntent: fromPromise<UpdateIntentResponse, { session: SubscriptionSession; quantity: number }>(
        ({ input }) =>
          new Promise((resolve) => {
            calls.push({ at: clock.now(), quantity: input.quantity });
            inFlight += 1;
            maxInFlight = Math.max(maxInFlight, inFlight);
            clock.setTimeout(() => {
              inFlight -= 1;
              revision += 1;
              resolve({
                clientSecret: `pi_${revision}_secret`,
                subscriptionId: `sub_${revision}`,
                subscriptionItemId: `si_${revision}`,
                taxCents: 0,
              });
            }, latencyMs);
          }),
      ),
    },
    actions: { preloadPublicConfig: () => undefined },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      affiliateId: 'dr-sample',
      affiliateSource: 'http://localhost/',
      returnUrl: 'http://localhost/payment-success',
      maxSeats: MAX_SEATS,
    },
  });
  actor.on('toast', ({ toast }) => {
    if (toast.title === 'Subscription Updated') successes.push(clock.now());
  });
  actor.start();
  await advanceTo(clock, INIT_DELAY_MS);
  for (const step of steps) {
    if (step.kind === 'wait') {
      await advanceTo(clock, clock.now() + step.ms);
      continue;
    }
    const snapshot = actor.getSnapshot();
    const before = snapshot.context.pendingSeats;
    // A count typed in the box while the seats are open is an edit even when it is the same count: it restarts the
    // debounce as a click does.
    const typedCount = step.kind === 'type' && /^\d+$/.test(step.text) && Number(step.text) >= 1 && Number(step.text) <= MAX_SEATS;
    const open = snapshot.matches('idle') || snapshot.matches('pendingSeats');
    actor.send(
      step.kind === 'type' ? { type: 'SEATS_TYPED', text: step.text } : { type: step.kind === 'add' ? 'SEAT_ADDED' : 'SEAT_REMOVED' },
    );
    if (actor.getSnapshot().context.pendingSeats !== before || (typedCount && open)) edits.push(clock.now());
    await flush();
  }
  await advanceTo(clock, clock.now() + DEBOUNCE_MS + latencyMs + 1);
  actor.stop();
  return { calls, successes, edits, maxInFlight, final: actor.getSnapshot() };
}

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'add' }),
  fc.constant<Step>({ kind: 'remove' }),
  fc
    .oneof(fc.integer({ min: 0, max: MAX_SEATS + 2 }).map(String), fc.constantFrom('', 'x', '2.5'))
    .map((text): Step => ({ kind: 'type', text })),
  fc.integer({ min: 0, max: 3000 }).map((ms): Step => ({ kind: 'wait', ms })),
);

describe('seat timing under SimulatedClock (spec §4)', () => {
  it('commits 2000 ms after the last edit, one update at a time, more than 1 s after the last success', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 25 }), fc.integer({ min: 0, max: 2500 }), async (steps, latencyMs) => {
        const { calls, successes, edits, maxInFlight, final } = await run(steps, latencyMs);
        expect(maxInFlight).toBeLessThanOrEqual(1);
        // Neither '+' nor the box ever goes past the limit, so the server is never asked for more.
        for (const call of calls) expect(call.quantity).toBeLessThanOrEqual(MAX_SEATS);
        expect(successes).toHaveLength(calls.length);
        calls.forEach((call, index) => {
          const lastEdit = Math.max(...edits.filter((edit) => edit <= call.at));
          expect(call.at - lastEdit).toBeGreaterThanOrEqual(DEBOUNCE_MS);
          if (index > 0) expect(call.at - successes[index - 1]!).toBeGreaterThan(MIN_MS_BETWEEN_UPDATES);
        });
        // Once everything settled, the server holds what the buyer sees.
        expect(final.matches('idle')).toBe(true);
        expect(final.context.confirmedSeats).toBe(final.context.pendingSeats);
      }),
      { numRuns: 200 },
    );
  });

  it('runs its delays on the simulated clock: nothing is committed until the clock moves', async () => {
    const { calls } = await run([{ kind: 'add' }, { kind: 'wait', ms: DEBOUNCE_MS - 1 }], 0);
    // The final settle in run() moves the clock past the debounce: exactly one commit, of two seats.
    expect(calls.map((call) => call.quantity)).toEqual([2]);
    expect(calls[0]!.at).toBe(INIT_DELAY_MS + DEBOUNCE_MS);
  });
});
