/**
 * The edge's routes: GET /healthz, GET /api/openapi.json, GET /api/config, and the built site (the offer page, the
 * join page and the SPA's other pages, server/http/staticSite.ts). The errors, headers and timeouts every route
 * shares are set on the app itself (server/app.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JoinAnswer } from '../../src/domain/joinPage';
import type { OfferContent } from '../../src/domain/offerContent';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { countAgainstApiLimit } from './apiLimit';
import { healthRoute, type WebhookStatus } from './routes/health';
import { openApiRoute } from './routes/openApi';
import { publicConfigRoute } from './routes/publicConfig';
import { registerStaticSite, type SiteReferrals } from './staticSite';

/**
 * What the edge is given (server/app.ts makes each once): what the site shows comes from the referrals, the
 * offer's content and the seats; a checkout page's view goes to the funnel.
 */
interface HttpOptions {
  config: Config;
  db: Database;
  webhookStatus: WebhookStatus;
  /** The referrals' part of the site (server/referrals/index.ts `siteReferrals`). */
  site: SiteReferrals;
  /** Records a view of the checkout page for the request's referrer (server/funnel/index.ts `pageViewRecorder`). */
  recordPageView: (request: FastifyRequest) => Promise<void>;
  /** Folder of the built SPA (dist/); without it only /api and /healthz are served. */
  distDir?: string;
  /** The offer's copy for a request (server/content/offerContent.ts `pageContentOf`). */
  contentOf: (request: FastifyRequest) => Promise<OfferContent>;
  /** What the /join page shows for its link (server/seats/routes.ts `joinPageAnswers`). */
  joinAnswerOf: (request: FastifyRequest) => Promise<JoinAnswer>;
}

/** Registers the edge's routes; /healthz and the site are outside the API's rate limit. */
export async function httpPlugin(app: FastifyInstance, options: HttpOptions): Promise<void> {
  await app.register(healthRoute, options);
  await app.register(async (api) => {
    countAgainstApiLimit(api);
    await api.register(openApiRoute);
    await api.register(publicConfigRoute, options);
  });
  await registerStaticSite(app, options.distDir, options.site, options.contentOf, options.joinAnswerOf, {
    maxSeats: options.config.MAX_SEATS,
  });
}
