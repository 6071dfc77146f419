/**
 * GET /api/openapi.json publishes the wire contract (src/contract/) the routes validate with: every call, the
 * hand-off redemption with its bearer key, the agreement site's signed report, and nothing of the built page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateIntentRequest, FinalizeRequest, FinalizeReturnRequest, UpdateIntentRequest } from '../../../src/contract/checkout';
import { AgreementSignedRequest } from '../../../src/contract/agreement';
import { HandoffRedeemRequest } from '../../../src/contract/handoff';
import { SandboxConfirmRequest } from '../../../src/contract/sandbox';
import { startTestServer, type TestServer } from '../helper';

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content: { 'application/json': { schema: unknown } } }; security?: unknown; responses: Record<string, unknown> }
    >
  >;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
}

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  beforeAll(async () => {
    server = await startTestServer('pglite', { env: { MAX_SEATS: '12' } });
    const response = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    document = response.json();
  });
  afterAll(() => server.close());

  const bodyOf = (path: string) => JSON.parse(JSON.stringify(document.paths[path]?.post?.requestBody?.content['application/json'].schema));
  const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema));

  it('lists every call of the checkout, the return, the hand-off, the sandbox, the manage page and the console, and nothing of the page', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([
      '/api/account',
      '/api/account/cancel',
      '/api/account/card',
      '/api/account/credentials',
      '/api/account/link',
      '/api/account/portal',
      '/api/account/refund-request',
      '/api/account/resume',
      '/api/account/seats',
      '/api/account/seats/preview',
      '/api/account/session',
      '/api/account/sign-out',
      '/api/account/subscription-check',
      '/api/account/team',
      '/api/account/team/invite',
      '/api/account/team/seat-one',
      '/api/account/team/{seatId}/reassign',
      '/api/account/team/{seatId}/resend',
      '/api/account/team/{seatId}/revoke',
      '/api/admin/commissions',
      '/api/admin/commissions/batches',
      '/api/admin/commissions/batches/{id}/paid',
      '/api/admin/commissions/batches/{id}/payout.csv',
      '/api/admin/commissions/batches/{id}/paypal.csv',
      '/api/admin/commissions/batches/{id}/void',
      '/api/admin/commissions/default-rule',
      '/api/admin/commissions/referrers/{id}',
      '/api/admin/content',
      '/api/admin/dashboard',
      '/api/admin/mail',
      '/api/admin/mail/{id}/resend',
      '/api/admin/orders',
      '/api/admin/orders.csv',
      '/api/admin/orders/{transactionId}',
      '/api/admin/orders/{transactionId}/actions',
      '/api/admin/orders/{transactionId}/commissions',
      '/api/admin/orders/{transactionId}/refund',
      '/api/admin/referrers',
      '/api/admin/referrers/report.csv',
      '/api/admin/referrers/{id}',
      '/api/admin/session',
      '/api/admin/sign-in',
      '/api/admin/sign-out',
      '/api/admin/tax',
      '/api/admin/tax.csv',
      '/api/agreement/signed',
      '/api/config',
      '/api/create-anon-subscription-intent',
      '/api/finalize-anon-subscription',
      '/api/finalize-from-payment-intent',
      '/api/handoff/redeem',
      '/api/join/claim',
      '/api/join/invitation',
      '/api/locate-anon-subscription',
      '/api/partner',
      '/api/partner/ledger.csv',
      '/api/partner/link',
      '/api/partner/session',
      '/api/partner/sign-out',
      '/api/sandbox/disputes/{disputeId}/close',
      '/api/sandbox/payment-intents/authenticate',
      '/api/sandbox/payment-intents/confirm',
      '/api/update-anon-subscription-intent',
      '/healthz',
    ]);
  });

  it('gives each body as the route validates it, with the server’s seat limit', () => {
    expect(bodyOf('/api/create-anon-subscription-intent')).toEqual(plain(CreateIntentRequest(12)));
    expect(bodyOf('/api/create-anon-subscription-intent').properties.quantity).toEqual({ type: 'integer', minimum: 1, maximum: 12 });
    expect(bodyOf('/api/update-anon-subscription-intent')).toEqual(plain(UpdateIntentRequest(12)));
    expect(bodyOf('/api/finalize-anon-subscription')).toEqual(plain(FinalizeRequest));
    expect(bodyOf('/api/finalize-from-payment-intent')).toEqual(plain(FinalizeReturnRequest));
    expect(bodyOf('/api/handoff/redeem')).toEqual(plain(HandoffRedeemRequest));
    expect(bodyOf('/api/agreement/signed')).toEqual(plain(AgreementSignedRequest));
    expect(bodyOf('/api/sandbox/payment-intents/confirm')).toEqual(plain(SandboxConfirmRequest));
  });

  it('names the hand-off key as a bearer scheme and the answers of the redemption', () => {
    expect(document.components.securitySchemes.handoffApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const redeem = document.paths['/api/handoff/redeem']!.post!;
    expect(redeem.security).toEqual([{ handoffApiKey: [] }]);
    expect(Object.keys(redeem.responses)).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
  });

  it('names the agreement site’s signed report: the Checkout-Signature header, the scheme of our webhooks', () => {
    expect(document.components.securitySchemes.checkoutSignature).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Checkout-Signature',
    });
    const report = document.paths['/api/agreement/signed']!.post!;
    expect(report.security).toEqual([{ checkoutSignature: [] }]);
    expect(Object.keys(report.responses)).toEqual(expect.arrayContaining(['200', '4XX', '5XX']));
  });
});
