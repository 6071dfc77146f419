/**
 * The retention sweep deletes later features' rows only through the part each hands in (docs/decisions/0066): the
 * sweep alone holds none of them, and the app's listeners hand in every part, with the sweep's retention period.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureListeners } from '../../../server/app';
import { accountLinks, outbox, partnerLinks, referrers } from '../../../server/db/schema';
import { deleteExpiredRecords } from '../../../server/checkout/retention';
import { DATABASES, openCheckout, startTestServer, type TestServer } from '../helper';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The parts later features hand in, by the name the sweep's report gives them. */
const LATER_PARTS = ['accountLinks', 'oidcRecords', 'outbox', 'partnerLinks'];

describe.each(DATABASES)("the retention sweep's parts on %s", (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  /** One expired row of each later feature's table that the sweep covers, under `tag`. */
  async function expiredRows(tag: string) {
    const { transactionId } = await openCheckout(server, 1);
    const [referrer] = await server.db.select({ id: referrers.id }).from(referrers).limit(1);
    const longAgo = new Date(Date.now() - 40 * DAY_MS);
    await server.db.insert(outbox).values({
      kind: 'mail',
      topic: 'renewal_receipt',
      dedupeKey: `${tag}:sent`,
      transactionId,
      payload: {},
      status: 'sent',
      createdAt: longAgo,
    });
    await server.db.insert(accountLinks).values({ tokenHash: `${tag}-account`, transactionId, purpose: 'manage', expiresAt: longAgo });
    await server.db.insert(partnerLinks).values({ tokenHash: `${tag}-partner`, referrerId: referrer!.id, expiresAt: longAgo });
  }

  const left = async () => ({
    outbox: (await server.db.select().from(outbox)).length,
    accountLinks: (await server.db.select().from(accountLinks)).length,
    partnerLinks: (await server.db.select().from(partnerLinks)).length,
  });

  it("deletes none of a later feature's rows without its part", async () => {
    await expiredRows('unheld');
    const before = await left();

    const report = await deleteExpiredRecords(server.db, 30);

    expect(Object.keys(report).filter((name) => LATER_PARTS.includes(name))).toEqual([]);
    expect(await left()).toEqual(before);
  });

  it("runs every later feature's part the app hands in, with the sweep's retention period", async () => {
    await expiredRows('held');
    const kept = 41;

    const keptReport = await deleteExpiredRecords(server.db, kept, kept, featureListeners(server.config));
    expect(keptReport.outbox).toBe(0);

    const report = await deleteExpiredRecords(server.db, 30, 30, featureListeners(server.config));

    expect(
      Object.keys(report)
        .filter((name) => LATER_PARTS.includes(name))
        .sort(),
    ).toEqual(LATER_PARTS);
    expect(report.outbox).toBeGreaterThanOrEqual(1);
    expect(await left()).toEqual({ outbox: 0, accountLinks: 0, partnerLinks: 0 });
  });
});
