/**
 * The edge's routes: GET /healthz, GET /api/openapi.json, GET /api/config, and the built site (the offer page, the
 * join page and the SPA's other pages, server/http/staticSite.ts). The errors, headers and timeouts every route
 * shares are set on the app itself (server/app.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JoinAnswer } from '../../src/domain/joinPage';
import type { OfferContent } from '../../src/domain/offerContent';
import type { OrderServices } from '../checkout';
import type { WebhookStatus } from '../payments/provider';
import type { ReferralLinks } from '../referrals/referralLinks';
import { countAgainstApiLimit } from './apiLimit';
import { healthRoute } from './routes/health';
import { openApiRoute } from './routes/openApi';
import { publicConfigRoute } from './routes/publicConfig';
import { registerStaticSite } from './staticSite';

/** What the edge is given: what the site shows comes from the referrals, the offer's content and the seats. */
interface HttpOptions extends OrderServices {
  webhookStatus: WebhookStatus;
  referrals: ReferralLinks;
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
  await registerStaticSite(app, options.distDir, options.referrals, options.contentOf, options.joinAnswerOf, {
    maxSeats: options.config.MAX_SEATS,
  });
}
