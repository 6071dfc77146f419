/** What the Stately inspector may see (src/browser/inspector.ts): no client secret, email, password or token. */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/browser/inspector';

describe('redactSecrets', () => {
  it('replaces secrets at any depth in a context or an event, and keeps the rest', () => {
    const context = {
      pendingSeats: 3,
      session: { clientSecret: 'pi_1_secret_x', subscriptionId: 'sub_1' },
      form: { firstName: 'Ada', lastName: 'Palmer', email: 'ada@example.com' },
      pendingPayment: null,
    };
    expect(redactSecrets(context)).toEqual({
      pendingSeats: 3,
      session: { clientSecret: '[redacted]', subscriptionId: 'sub_1' },
      form: { firstName: 'Ada', lastName: 'Palmer', email: '[redacted]' },
      pendingPayment: null,
    });
    const event = {
      type: 'xstate.done.actor.0.checkout.finalizing',
      output: { success: true, token: 'tok', loginDetails: { email: 'a@b.co', password: 'p' } },
    };
    expect(JSON.stringify(redactSecrets(event))).not.toMatch(/tok"|a@b\.co|"p"/);
    expect(context.session.clientSecret).toBe('pi_1_secret_x');
  });

  it('keeps class instances (a payment gateway, an error) as they are', () => {
    const error = new Error('down');
    expect(redactSecrets({ error }).error).toBe(error);
  });
});
