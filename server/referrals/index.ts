/** A referrer's link, GET /r/:slug (./routes.ts), outside the API's rate limit: it is a page, not a call. */
import type { FastifyInstance } from 'fastify';
import type { ReferralLinks } from './referralLinks';
import { referralLinkRoute } from './routes';

export { referralLinks } from './referralLinks';

/** Registers /r/:slug; `referrals` reads and remembers the referrer (server/app.ts makes it, for every feature). */
export async function referralsPlugin(app: FastifyInstance, { referrals }: { referrals: ReferralLinks }): Promise<void> {
  await app.register(referralLinkRoute, { links: referrals });
}
