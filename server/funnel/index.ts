import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { ReferralLinks } from '../referrals';
import { recordFunnelEventSafely } from './funnelEvents';

/** Never throws: the page does not fail for want of a count. */
export function pageViewRecorder(db: Database, referrals: Pick<ReferralLinks, 'attributed'>): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const attributed = await referrals.attributed(request);
    await recordFunnelEventSafely(db, { type: 'page_view', referrerId: attributed?.id }, request.log);
  };
}

export { deleteExpiredFunnelEvents, recordFunnelEvent } from './funnelEvents';
export { recordPaymentAttempt } from './paymentAttempts';
