/** A referrer's link, GET /r/:slug (./routes.ts), outside the API's rate limit: it is a page, not a call. */
import type { FastifyInstance } from 'fastify';
import type { SiteReferrals } from '../http/staticSite';
import { loadOfferPages } from './offerPage';
import type { ReferralLinks } from './referralLinks';
import { referralLinkRoute } from './routes';

export { referralLinks, type ReferralLinks } from './referralLinks';
export { createReferrer, findActiveReferrer, listReferrers, referrerJson, referrerSlugOf, updateReferrer } from './referrers';

/** The referrals' part of the built site (server/http/staticSite.ts): the page's referrer, links, the templates. */
export function siteReferrals(referrals: ReferralLinks): SiteReferrals {
  return {
    offer: (request) => referrals.offer(request),
    follow: (request, reply, slug) => referrals.follow(request, reply, slug),
    loadPages: loadOfferPages,
  };
}

/** Registers /r/:slug; `referrals` reads and remembers the referrer (server/app.ts makes it, for every feature). */
export async function referralsPlugin(app: FastifyInstance, { referrals }: { referrals: ReferralLinks }): Promise<void> {
  await app.register(referralLinkRoute, { links: referrals });
}
