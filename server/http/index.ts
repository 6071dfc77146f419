/** The edge's routes: GET /healthz, /api/openapi.json, /api/config and the built site. */
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

interface HttpOptions {
  config: Config;
  db: Database;
  webhookStatus: WebhookStatus;
  site: SiteReferrals;
  recordPageView: (request: FastifyRequest) => Promise<void>;
  /** Without it only /api and /healthz are served. */
  distDir?: string;
  contentOf: (request: FastifyRequest) => Promise<OfferContent>;
  joinAnswerOf: (request: FastifyRequest) => Promise<JoinAnswer>;
}

/** /healthz and the site are outside the API's rate limit. */
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
