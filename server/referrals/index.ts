/** A referrer's link, GET /r/:slug, outside the API's rate limit: it is a page, not a call. */
import type { FastifyInstance } from 'fastify';
import type { SiteReferrals } from '../http/staticSite';
import { loadOfferPages } from './offerPage';
import type { ReferralLinks } from './referralLinks';
import { referralLinkRoute } from './routes';

export { referralLinks, type ReferralLinks } from './referralLinks';
export {
  createReferrer,
  findActiveReferrer,
  listReferrers,
  referrerJson,
  referrerSlugOf,
  seedReferrers,
  updateReferrer,
} from './referrers';

export function siteReferrals(referrals: ReferralLinks): SiteReferrals {
  return {
    offer: (request) => referrals.offer(request),
    follow: (request, reply, slug) => referrals.follow(request, reply, slug),
    loadPages: loadOfferPages,
  };
}

export async function referralsPlugin(app: FastifyInstance, { referrals }: { referrals: ReferralLinks }): Promise<void> {
  await app.register(referralLinkRoute, { links: referrals });
}
