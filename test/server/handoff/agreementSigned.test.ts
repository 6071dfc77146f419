/**
 * POST /api/agreement/signed: the agreement site's signed report of a training agreement (docs/decisions/0063).
 * Refused in words without the shared secret's signature, with a wrong one, with one for another body, and with
 * a replayed (old) one; a person who holds no seat on the order is unknown; a repeat records nothing more.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetail } from '../../../server/admin/reports';
import { accounts, seats } from '../../../server/db/schema';
import { webhookSignature } from '../../../server/security/webhookSignature';
import { mintInvitationLink } from '../../../server/seats/claim';
import type { AgreementSignedResponse } from '../../../src/contract/agreement';
import type { JoinClaimed, TeamView } from '../../../src/contract/team';
import { completePurchase, DATABASES, startTestServer, type TestServer } from '../helper';

const SECRET = 'agreement-secret-0123456789abcdef0123456789';

describe.each(DATABASES)('the agreement site’s report of a signed agreement, on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SUCCESS_SITE_WEBHOOK_SECRET: SECRET, PUBLIC_URL: 'https://checkout.test' } });
  });
  afterAll(() => server.close());

  /** POSTs `body` signed as the agreement site signs it, at `at` (Unix seconds; now by default). */
  const report = (body: unknown, { secret = SECRET, at = Math.floor(Date.now() / 1000) } = {}) => {
    const text = JSON.stringify(body);
    return server.post('/api/agreement/signed', text, { 'checkout-signature': webhookSignature(secret, at, text) });
  };

  it('refuses a report without the shared secret’s signature, in words, and records nothing', async () => {
    const { session, finalized } = await completePurchase(server);
    const body = { transactionId: session.transactionId, email: finalized.loginDetails.email };

    const unsigned = await server.post('/api/agreement/signed', body);
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toEqual({ error: 'A Checkout-Signature header (t=<seconds>,v1=<HMAC-SHA256>) is required.' });

    const wrongSecret = await report(body, { secret: 'another-secret-0123456789abcdef0123456789' });
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json()).toEqual({ error: 'The Checkout-Signature does not match this body.' });

    // A signature of one body does not carry another (here: another order's buyer).
    const at = Math.floor(Date.now() / 1000);
    const swapped = await server.post('/api/agreement/signed', JSON.stringify(body), {
      'checkout-signature': webhookSignature(SECRET, at, JSON.stringify({ ...body, email: 'someone@example.com' })),
    });
    expect(swapped.statusCode).toBe(401);

    const [account] = await server.db.select().from(accounts).where(eq(accounts.transactionId, session.transactionId));
    expect(account!.agreementSignedAt).toBeNull();
  });

  it('refuses a replayed report: a signature more than 5 minutes old (or ahead) is not accepted', async () => {
    const { session, finalized } = await completePurchase(server);
    const body = { transactionId: session.transactionId, email: finalized.loginDetails.email };
    const now = Math.floor(Date.now() / 1000);
    for (const at of [now - 301, now + 301]) {
      const replayed = await report(body, { at });
      expect(replayed.statusCode).toBe(401);
      expect(replayed.json<{ error: string }>().error).toMatch(/more than 5 minutes old or ahead/);
    }
    const [account] = await server.db.select().from(accounts).where(eq(accounts.transactionId, session.transactionId));
    expect(account!.agreementSignedAt).toBeNull();
  });

  it('records the buyer’s signature once: a repeat answers the same time and changes nothing', async () => {
    const { session, finalized } = await completePurchase(server);
    const email = finalized.loginDetails.email;
    const first = await report({ transactionId: session.transactionId, email: email.toUpperCase() });
    expect(first.statusCode, first.body).toBe(200);
    const recorded = first.json<AgreementSignedResponse>();
    expect(recorded).toMatchObject({
      transactionId: session.transactionId,
      email,
      role: 'buyer',
      seatNumber: 1,
      agreement: 'signed',
      alreadySigned: false,
    });

    const repeat = await report({ transactionId: session.transactionId, email });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ ...recorded, alreadySigned: true });
    const [account] = await server.db.select().from(accounts).where(eq(accounts.transactionId, session.transactionId));
    expect(account!.agreementSignedAt?.toISOString()).toBe(recorded.signedAt);
    expect((await orderDetail(server.context(), session.transactionId))!.buyerAgreementSignedAt).toBe(recorded.signedAt);
  });

  it('records a team member’s own signature, not the buyer’s; someone without a seat on the order is unknown', async () => {
    const { session, finalized } = await completePurchase(server, 3);
    const buyer = { authorization: `Bearer ${finalized.token}`, origin: 'https://checkout.test' };
    const invite = async (email: string) => {
      const invited = await server.post('/api/account/team/invite', { email, name: 'Bo Chen' }, buyer);
      expect(invited.statusCode, invited.body).toBe(200);
      return invited.json<TeamView>().members.find((member) => member.email === email)!;
    };
    const seat = await invite(`bo-${kind}@example.com`);
    const invitedOnly = await invite(`cy-${kind}@example.com`);

    // Invited but not yet claimed: no seat held, so no one to record.
    const early = await report({ transactionId: session.transactionId, email: invitedOnly.email });
    expect(early.statusCode).toBe(404);
    expect(early.json()).toEqual({ error: 'No one with this email holds a seat on this order.' });

    const member = (await server.post('/api/join/claim', { token: await mintInvitationLink(server.db, seat.id) })).json<JoinClaimed>();
    const signed = await report({ transactionId: session.transactionId, email: member.email });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toMatchObject({ role: 'member', seatNumber: seat.seatNumber, email: member.email, alreadySigned: false });
    const [row] = await server.db.select().from(seats).where(eq(seats.id, seat.id));
    expect(row!.agreementSignedAt).not.toBeNull();
    const [account] = await server.db.select().from(accounts).where(eq(accounts.transactionId, session.transactionId));
    expect(account!.agreementSignedAt).toBeNull();

    // The console's order page: the member signed, the buyer not yet, the invitee has nothing to sign.
    const detail = (await orderDetail(server.context(), session.transactionId))!;
    expect(detail.buyerAgreementSignedAt).toBeNull();
    expect(detail.seats.find((one) => one.id === seat.id)!.agreementSignedAt).toBe(row!.agreementSignedAt!.toISOString());
    expect(detail.seats.find((one) => one.id === invitedOnly.id)!.agreementSignedAt).toBeNull();

    for (const unknown of [
      { transactionId: session.transactionId, email: 'nobody@example.com' },
      { transactionId: 'no-such-order', email: member.email },
    ]) {
      const refused = await report(unknown);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: 'No one with this email holds a seat on this order.' });
    }
  });

  it('answers a body that is not JSON, or not the report’s shape, with a 400 in words once signed', async () => {
    const at = Math.floor(Date.now() / 1000);
    const text = '{"transactionId":';
    const broken = await server.post('/api/agreement/signed', text, { 'checkout-signature': webhookSignature(SECRET, at, text) });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'The request body must be JSON.' });
    const shapeless = await report({ transactionId: 'x' });
    expect(shapeless.statusCode).toBe(400);
    expect(shapeless.json<{ error: string }>().error).not.toMatch(/body\//);
  });

  it('is off without the shared secret: 503 in words', async () => {
    const without = await server.derive({ env: { SUCCESS_SITE_WEBHOOK_SECRET: '' } });
    try {
      const response = await without.post('/api/agreement/signed', { transactionId: 'x', email: 'a@example.com' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: 'Agreement reports are not configured.' });
    } finally {
      await without.close();
    }
  });
});
