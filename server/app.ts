/**
 * The HTTP server, assembled from small plugins (architecture.md, "The server"): security headers, the /api
 * calls behind a per-IP rate limit, the sandbox's confirmation routes when the sandbox is the provider,
 * the Stripe webhook (raw body, outside the rate limit) when Stripe is, /healthz, and the built SPA. Tests drive
 * it through `inject()`; server/main.ts makes it listen.
 */
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { installErrorHandler } from './http/errorHandler';
import { HttpError } from './http/httpError';
import { registerSecurityHeaders } from './http/securityHeaders';
import { registerStaticSite } from './http/staticSite';
import type { OrderServices } from './orders/orderContext';
import type { PaymentProvider } from './payments/provider';
import { createIntentRoute } from './routes/createIntent';
import { finalizeRoute } from './routes/finalize';
import { finalizeReturnRoute } from './routes/finalizeReturn';
import { handoffRedeemRoute } from './routes/handoffRedeem';
import { healthRoute } from './routes/health';
import { publicConfigRoute } from './routes/publicConfig';
import { sandboxAuthenticateRoute } from './routes/sandboxAuthenticate';
import { sandboxConfirmRoute } from './routes/sandboxConfirm';
import { stripeWebhookRoute } from './routes/stripeWebhook';
import { updateIntentRoute } from './routes/updateIntent';

export interface AppOptions {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  /** Folder of the built SPA (dist/); without it only /api and /healthz are served. */
  distDir?: string;
}

/** Bodies are small JSON objects; anything larger is refused with 413. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** Builds the Fastify app; call `listen()` or `inject()` on it, and `close()` when done. */
export async function buildApp({ config, db, provider, distDir }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      // Request bodies hold emails and are never logged; headers are not logged either, but be explicit.
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    // Strict bodies: no type coercion ("3" stays a string), unknown properties fail instead of being removed.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
  });
  app.removeContentTypeParser('text/plain');
  installErrorHandler(app);
  await registerSecurityHeaders(app, config.PUBLIC_URL);

  const services: OrderServices = { config, db, provider };
  await app.register(healthRoute, services);
  await app.register(async (api) => {
    await api.register(rateLimit, {
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: '1 minute',
      errorResponseBuilder: () => new HttpError(429, 'Too many requests. Please wait a minute and try again.'),
    });
    await api.register(publicConfigRoute, services);
    await api.register(createIntentRoute, services);
    await api.register(updateIntentRoute, services);
    await api.register(finalizeRoute, services);
    await api.register(finalizeReturnRoute, services);
    await api.register(handoffRedeemRoute, services);
    if (provider.name === 'sandbox') {
      await api.register(sandboxConfirmRoute, services);
      await api.register(sandboxAuthenticateRoute, services);
    }
  });
  // Config requires STRIPE_WEBHOOK_SECRET whenever STRIPE_SECRET_KEY selects Stripe (server/config.ts).
  const webhookSecret = provider.name === 'stripe' ? config.STRIPE_WEBHOOK_SECRET : undefined;
  if (webhookSecret) await app.register(stripeWebhookRoute, { ...services, webhookSecret });
  await registerStaticSite(app, distDir);
  return app;
}
