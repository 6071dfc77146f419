/**
 * The statecharts are valid XState machines (every file in src/machines) and open where the spec says. They are imported inside the tests:
 * XState refuses an invalid chart while building it, at import, and a file that cannot import fails to load
 * rather than failing a test (which the mutation benchmark, `npm run bench:mutation`, would not count).
 */
import { describe, expect, it } from 'vitest';
import { getInitialSnapshot, type AnyStateMachine } from 'xstate';

/** Every statechart file, loaded only inside its test (a lazy glob imports nothing at collection). */
const CHARTS = import.meta.glob<Record<string, unknown>>('../../src/machines/*Machine.ts');

describe('the statecharts build', () => {
  it("checkout: opens waiting to create the checkout, showing 'Initializing secure checkout...' (spec §4)", async () => {
    const { checkoutMachine } = await import('../../src/machines/checkoutMachine');
    const snapshot = getInitialSnapshot(checkoutMachine, {
      affiliateId: 'dr-sample',
      affiliateSource: 'http://localhost/',
      returnUrl: 'http://localhost/payment-success',
    });
    expect(snapshot.value).toEqual({ init: 'waiting' });
    expect(snapshot.context).toMatchObject({ pendingSeats: 1, confirmedSeats: 1, celebrating: false, session: null });
  });

  it('payment success: opens reading the stored record (spec §4)', async () => {
    const { paymentSuccessMachine } = await import('../../src/machines/paymentSuccessMachine');
    const snapshot = getInitialSnapshot(paymentSuccessMachine, { search: '' });
    expect(snapshot.value).toBe('loading');
    expect(snapshot.hasTag('loading')).toBe(true);
  });

  it('sign-in: opens checking its sign-in, with the form shown, as the page is prerendered', async () => {
    const { signInMachine } = await import('../../src/machines/signInMachine');
    expect(getInitialSnapshot(signInMachine, { interaction: null }).value).toBe('checking');
  });

  it('new password: opens looking at the link’s token, or saying where the link is without one', async () => {
    const { newPasswordMachine } = await import('../../src/machines/newPasswordMachine');
    expect(getInitialSnapshot(newPasswordMachine, { search: '?token=abc' }).value).toBe('checking');
    expect(getInitialSnapshot(newPasswordMachine, { search: '' }).value).toBe('unusable');
  });

  it('manage page: opens asking whether this browser is signed in, or with the link’s token', async () => {
    const { accountMachine } = await import('../../src/machines/accountMachine');
    expect(getInitialSnapshot(accountMachine, { token: null }).value).toBe('loading');
    expect(getInitialSnapshot(accountMachine, { token: 'link' }).value).toBe('openingSession');
  });

  it('the notice before a second purchase: opens idle, with no email', async () => {
    const { existingSubscriptionMachine } = await import('../../src/machines/existingSubscriptionMachine');
    const snapshot = getInitialSnapshot(existingSubscriptionMachine, undefined);
    expect([snapshot.value, snapshot.context]).toEqual(['idle', { email: '' }]);
  });

  it('every statechart in src/machines builds (one machine a file, named after it)', () => {
    // One machine a file: twenty-one charts today; a file added or lost changes the count on purpose.
    expect(Object.keys(CHARTS)).toHaveLength(22);
  });

  it.each(Object.keys(CHARTS).map((path) => [path.split('/').at(-1)!.replace('.ts', ''), path] as const))(
    '%s builds when it loads',
    async (name, path) => {
      const chart = (await CHARTS[path]!())[name] as AnyStateMachine | undefined;
      expect(chart?.root, `${name} is an XState machine`).toBeDefined();
      expect(Object.keys(chart!.root.states).length, `${name} has states`).toBeGreaterThan(0);
    },
  );
});
