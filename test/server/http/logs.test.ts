/**
 * What the logs may not hold: a full checkout with a 3-D Secure return, logged at debug level, leaves no client
 * secret, password, hand-off token or /payment-success query parameter in any line (pino `redact` and the
 * request serializer in server/app.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FinalizeResponse, FinalizeReturnResponse } from '../../../src/contract/checkout';
import { HANDOFF_KEY, handedOut, openCheckout, payWithCard, startTestServer, TEST_CARDS, updateBody, type TestServer } from '../helper';

describe('logs of a full checkout at debug level', () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', {
      env: { LOG_LEVEL: 'debug' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => server.close());

  it('carry no client secret, password, token or return query, and still say what happened', async () => {
    const session = await openCheckout(server, 1);
    const update = await server.post('/api/update-anon-subscription-intent', updateBody(session, 3));
    const { clientSecret } = update.json<{ clientSecret: string }>();
    await payWithCard(server, clientSecret, TEST_CARDS.authentication);
    await server.post('/api/sandbox/payment-intents/authenticate', { clientSecret, outcome: 'completed' });
    const paymentIntentId = clientSecret.split('_secret_')[0]!;
    const returnUrl = `/payment-success?payment_intent=${paymentIntentId}&payment_intent_client_secret=${clientSecret}&redirect_status=succeeded`;
    await server.app.inject({ method: 'GET', url: returnUrl });
    const returned = (
      await server.post('/api/finalize-from-payment-intent', { paymentIntentId, clientSecret, email: 'ada@example.com' })
    ).json<FinalizeReturnResponse>();
    const finalized = handedOut(
      (
        await server.post('/api/finalize-anon-subscription', {
          subscriptionId: update.json<{ subscriptionId: string }>().subscriptionId,
          customerId: session.customerId,
          transactionId: session.transactionId,
          email: 'ada@example.com',
          name: 'Ada Palmer',
        })
      ).json<FinalizeResponse>(),
    );
    expect(finalized.token).toBe(returned.token);
    await server.post('/api/handoff/redeem', { token: finalized.token }, { authorization: `Bearer ${HANDOFF_KEY}` });
    await server.post('/api/finalize-anon-subscription', { transactionId: session.transactionId, clientSecret });

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(log).toContain('/payment-success');
    expect(log).toContain('Checkout finalized');
    for (const secret of [session.clientSecret, clientSecret, finalized.loginDetails.password, finalized.token, HANDOFF_KEY]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toContain('_secret_');
    expect(log).not.toContain('payment_intent=');
    expect(log).not.toContain('redirect_status');
  });
});
