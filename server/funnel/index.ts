/**
 * The funnel: what visitors and buyers did, as events (./funnelEvents.ts), read by the console and the partner page.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import type { ReferralLinks } from '../referrals';
import { recordFunnelEventSafely } from './funnelEvents';

/**
 * Records a view of the checkout page (the funnel's 'page_view') for the request's referrer; never throws (a failure
 * is logged: the page does not fail for want of a count).
 */
export function pageViewRecorder(db: Database, referrals: Pick<ReferralLinks, 'attributed'>): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const attributed = await referrals.attributed(request);
    await recordFunnelEventSafely(db, { type: 'page_view', referrerId: attributed?.id }, request.log);
  };
}

export { deleteExpiredFunnelEvents, recordFunnelEvent } from './funnelEvents';
export { recordPaymentAttempt } from './paymentAttempts';
