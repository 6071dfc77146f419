/**
 * The sandbox card form's gateway against the proof-of-work challenge: a 428 with a challenge is solved in the
 * page and the card is sent again with a solution the server's check accepts; anything else is not retried.
 */
import { createChallenge, verifySolution } from 'altcha-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxGateway } from '../../src/payments/sandboxGateway';

const HMAC_KEY = 'test-challenge-key';
const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123', country: 'US', postalCode: '10001' };

function gateway() {
  return createSandboxGateway({
    readCard: () => CARD,
    onInvalidCard: () => undefined,
    authenticate: async () => 'completed',
    focusCard: () => undefined,
  });
}

const reply = (status: number, body: unknown) => ({ ok: status < 300, status, json: async () => body }) as Response;

afterEach(() => vi.unstubAllGlobals());

describe('sandbox gateway and the confirmation challenge', () => {
  it('solves a 428 challenge and confirms again with a valid solution', async () => {
    const challenge = await createChallenge({ hmacKey: HMAC_KEY, maxNumber: 20_000 });
    const bodies: Record<string, unknown>[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(init.body as string) as { challenge?: string };
        bodies.push(body);
        if (!body.challenge) return reply(428, { error: 'Please wait a moment while we verify this payment, then try again.', challenge });
        return (await verifySolution(body.challenge, HMAC_KEY))
          ? reply(200, { status: 'succeeded', paymentIntentId: 'pi_sbx_1' })
          : reply(428, { error: 'x', challenge });
      }),
    );
    const confirmation = await gateway().confirmPayment({
      clientSecret: 'pi_sbx_1_secret_a',
      billingDetails: { name: 'Ada Palmer', email: 'ada@example.com' },
      returnUrl: 'http://localhost/payment-success',
    });
    expect(confirmation).toEqual({ status: 'succeeded', paymentIntentId: 'pi_sbx_1' });
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatchObject({ clientSecret: 'pi_sbx_1_secret_a', card: { number: '4242424242424242' } });
  });

  it('shows a decline as it is, without a second attempt', async () => {
    const fetchMock = vi.fn(async () => reply(402, { error: 'Your card was declined.', code: 'card_declined' }));
    vi.stubGlobal('fetch', fetchMock);
    const confirmation = await gateway().confirmPayment({
      clientSecret: 'pi_sbx_1_secret_a',
      billingDetails: { name: 'Ada Palmer', email: 'ada@example.com' },
      returnUrl: 'http://localhost/payment-success',
    });
    expect(confirmation).toEqual({ status: 'failed', message: 'Your card was declined.' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
