/** The HTTP server: what every request shares, then one plugin per feature, in any order. */
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest, type RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import { accountListener, accountMail, accountPlugin } from './account';
import { adminPlugin } from './admin';
import { checkoutPlugin, orderListeners, paymentEventRunner, type OrderListeners } from './checkout';
import { commissionsListener, commissionsMail } from './commissions';
import type { Config } from './config';
import { pageContentOf } from './content';
import type { Database } from './db/client';
import { handoffPlugin } from './handoff';
import { httpPlugin } from './http';
import { installErrorHandler } from './http/errorHandler';
import { HttpError } from './http/httpError';
import { registerOpenApi } from './http/openApi';
import { inlineScriptHashes, registerSecurityHeaders } from './http/securityHeaders';
import { boundRequestArrival } from './http/slowRequests';
import { outboxListener, type OutboxMailParts } from './outbox';
import { partnerPlugin } from './partner';
import { paymentsPlugin, type PaymentProvider } from './payments';
import type { WebhookStatus } from './http/routes/health';
import { pageViewRecorder } from './funnel';
import { referralLinks, referralsPlugin, siteReferrals } from './referrals';
import { joinPageAnswers, seatsListener, seatsMail, seatsPlugin } from './seats';
import type { CredentialsCipher } from './security/credentialsCipher';
import { refuseCrossSiteRequests } from './sessions/sameOrigin';
import { taxListener } from './tax';
import { endPersonSignIns, signInListener, signInMail, signInPlugin } from './signIn';
import type { PrivateJwks } from './security/jwks';

interface AppOptions {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  cipher: CredentialsCipher;
  listeners?: OrderListeners;
  /** Every process must have the same (server/main.ts derives it). Default: random, for a single process. */
  challengeKey?: string;
  /** As challengeKey. */
  cookieSecret?: string;
  /** Default: a fresh key, for a single process. */
  oidcJwks?: PrivateJwks;
  /** Tests without a worker leave it out. */
  nudgeOutbox?: () => void;
  /** Without it only /api and /healthz are served. */
  distDir?: string;
  /** Tests read them. */
  logStream?: { write(line: string): void };
  /** The fuzz test sends to each. */
  onRoute?: (route: RouteOptions) => void;
}

/** Bodies are not logged at all. */
const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.clientSecret',
  '*.client_secret',
  '*.password',
  '*.token',
];

/** Never the query string: a 3-D Secure return carries `payment_intent_client_secret` in it. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    path: request.url.split('?')[0],
    route: request.routeOptions?.url,
    remoteAddress: request.ip,
  };
}

/** Larger is refused with 413 (the Stripe webhook allows 1 MiB). */
const BODY_LIMIT_BYTES = 16 * 1024;

const CONNECTION_TIMEOUT_MS = 60_000;

/** Node's default, 30 s, would let requests run on. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** A short connect timeout and one retry, so a Redis outage costs a request milliseconds (@fastify/rate-limit's advice). */
function connectRedis(url: string, app: FastifyInstance): Redis {
  const redis = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  redis.on('error', (error) => app.log.error({ err: error }, 'Redis error; rate limits are not shared until it is back'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/** A hop count trusts that many proxies nearest the server, as Fastify does for a number. */
function trustProxyOption(trust: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/** Each runs in the lifecycle's transaction, in this order. */
export function featureListeners(config: Config): OrderListeners {
  return orderListeners([
    outboxListener(config),
    seatsListener(config, endPersonSignIns),
    commissionsListener(),
    taxListener(),
    accountListener(),
    signInListener(),
  ]);
}

export function featureMail(): OutboxMailParts {
  return { ...accountMail(), ...seatsMail(), ...signInMail(), ...commissionsMail() };
}

export async function buildApp({
  config,
  db,
  provider,
  cipher,
  listeners = featureListeners(config),
  challengeKey,
  cookieSecret,
  oidcJwks,
  nudgeOutbox,
  distDir,
  logStream,
  onRoute,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: REDACTED_LOG_PATHS,
      serializers: { req: serializeRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow clients (a body trickled in byte by byte) cannot hold a connection for ever.
    requestTimeout: config.REQUEST_TIMEOUT_SECONDS * 1000,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    http: { connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.removeContentTypeParser('text/plain');
  app.server.headersTimeout = Math.min(app.server.headersTimeout, config.REQUEST_TIMEOUT_SECONDS * 1000);
  boundRequestArrival(app, config.REQUEST_TIMEOUT_SECONDS * 1000);
  installErrorHandler(app);
  await registerOpenApi(app);
  await registerSecurityHeaders(app, {
    publicUrl: config.PUBLIC_URL,
    providerHosts: provider.pageHosts,
    inlineScripts: inlineScriptHashes(distDir),
  });

  // Before the not-found answer, so a spelling no route takes is refused the same way.
  refuseCrossSiteRequests(app, config);
  const secret = cookieSecret ?? randomBytes(32).toString('hex');
  await app.register(fastifyCookie, { secret });
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, app) : undefined;
  // One per-address store for every API call; pages, /healthz and the Stripe webhook are not counted.
  await app.register(rateLimit, {
    global: false,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // With Redis the limit is one for all processes; should Redis fail, requests pass rather than the checkout.
    ...(redis ? { redis, nameSpace: `${config.REDIS_KEY_PREFIX}rate-limit:`, skipOnError: true } : {}),
    errorResponseBuilder: () => new HttpError(429, 'Too many requests. Please wait a minute and try again.'),
  });

  const webhookStatus: WebhookStatus = {};
  const services = { config, db, provider, cipher, listeners };
  const referrals = referralLinks(db, config);
  const house = {
    ...services,
    paymentEvents: paymentEventRunner(services),
    nudgeOutbox: nudgeOutbox ?? (() => undefined),
    webhookStatus,
    challengeKey: challengeKey ?? randomBytes(32).toString('hex'),
    cookieSecret: secret,
    oidcJwks,
    distDir,
    referrals,
    site: siteReferrals(referrals),
    recordPageView: pageViewRecorder(db, referrals),
    contentOf: pageContentOf(db),
    joinAnswerOf: joinPageAnswers(app, db),
    // Handed to the seats, which come before the sign-in in the feature order and so cannot import it.
    endSignIns: endPersonSignIns,
  };
  const features: FastifyPluginAsync<typeof house>[] = [
    httpPlugin,
    checkoutPlugin,
    handoffPlugin,
    paymentsPlugin,
    accountPlugin,
    seatsPlugin,
    adminPlugin,
    signInPlugin,
    partnerPlugin,
    referralsPlugin,
  ];
  for (const feature of features) await app.register(feature, house);
  return app;
}
