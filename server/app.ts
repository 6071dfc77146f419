/**
 * The HTTP server (architecture.md, "Layout"): what every request shares (logs, limits on bodies and time, errors,
 * security headers, the cross-site refusal, cookies, the API's per-address rate limit), then one plugin per
 * feature, each exported from its folder's index.ts and registered in one list, in any order. Tests drive it
 * through `inject()`; server/main.ts makes it listen.
 */
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
import { paymentsPlugin } from './payments';
import type { PaymentProvider } from './payments/provider';
import type { WebhookStatus } from './http/routes/health';
import { pageViewRecorder } from './funnel';
import { referralLinks, referralsPlugin, siteReferrals } from './referrals';
import { joinPageAnswers, seatsListener, seatsMail, seatsPlugin } from './seats';
import type { CredentialsCipher } from './security/credentialsCipher';
import { refuseCrossSiteRequests } from './sessions/sameOrigin';
import { taxListener } from './tax';
import { endPersonSignIns, signInListener, signInMail, signInPlugin } from './signIn';
import type { PrivateJwks } from './signIn/jwks';

interface AppOptions {
  config: Config;
  db: Database;
  provider: PaymentProvider;
  /** Encrypts issued credentials until the hand-off (server/security/credentialsKey.ts makes its key). */
  cipher: CredentialsCipher;
  /** Hear what the subscription lifecycle changes (featureListeners, the default). */
  listeners?: OrderListeners;
  /**
   * Signs the sandbox's proof-of-work challenges; every process must have the same (server/main.ts derives it
   * from CREDENTIALS_KEY). Default: a random key, for a single process.
   */
  challengeKey?: string;
  /**
   * Signs the referral cookie; every process must have the same (server/main.ts derives it from CREDENTIALS_KEY).
   * Default: a random key, for a single process.
   */
  cookieSecret?: string;
  /**
   * The OpenID Provider's signing keys when OIDC is on (server/signIn/oidcKeys.ts loads them; server/main.ts).
   * Default: a fresh key, for a single process.
   */
  oidcJwks?: PrivateJwks;
  /** Sends the outbox now (server/outbox/outboxWorker.ts); tests without a worker leave it out. */
  nudgeOutbox?: () => void;
  /** Folder of the built SPA (dist/); without it only /api and /healthz are served. */
  distDir?: string;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: { write(line: string): void };
  /** Told of every route as it is registered (Fastify's onRoute hook): the fuzz test sends to each. */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Fields whose values never reach a log line, wherever a log object carries them: client secrets, passwords,
 * hand-off tokens, credentials headers (pino `redact`). Bodies are not logged at all.
 */
const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.clientSecret',
  '*.client_secret',
  '*.password',
  '*.token',
];

/**
 * What a request looks like in the logs: method, path and route, never the query string (a 3-D Secure return
 * carries `payment_intent_client_secret` in it, and query strings may carry names and emails), nor headers.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    path: request.url.split('?')[0],
    route: request.routeOptions?.url,
    remoteAddress: request.ip,
  };
}

/** Bodies are small JSON objects; anything larger is refused with 413 (the Stripe webhook allows 1 MiB). */
const BODY_LIMIT_BYTES = 16 * 1024;

/** A socket with no traffic for this long is closed (Node's `server.timeout`), whatever it is doing. */
const CONNECTION_TIMEOUT_MS = 60_000;

/** How often Node checks requests against REQUEST_TIMEOUT_SECONDS (its default, 30 s, would let them run on). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * A Redis client for shared limits (ioredis), closed with the app. Settings per @fastify/rate-limit's advice: a
 * short connect timeout and one retry, so a Redis outage costs a request milliseconds, not seconds.
 */
function connectRedis(url: string, app: FastifyInstance): Redis {
  const redis = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  redis.on('error', (error) => app.log.error({ err: error }, 'Redis error; rate limits are not shared until it is back'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY: a hop count trusts that many proxies nearest to the server (proxy-addr's
 * `(address, hop) => hop < count`, what Fastify does for a number), an address list trusts those proxies only.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

/**
 * What the later features hear of the lifecycle's changes (server/checkout/orderListeners.ts), each in the
 * lifecycle's transaction, in this order: the outbox's mail and webhooks, the team (a revoked seat's sign-ins
 * ended by the sign-in's step), the referrer's commission, the buyer's sign-in link; and each one's part of the
 * retention sweep. Given to the app and to whatever runs the lifecycle outside it (the reconciliation script).
 */
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

/**
 * What the outbox's mail reads of the features it writes about (server/outbox/mailParts.ts): the account's links, the
 * team's invitations, the sign-in's password links, the referrer's mail. Given to the outbox worker (server/main.ts).
 */
export function featureMail(): OutboxMailParts {
  return { ...accountMail(), ...seatsMail(), ...signInMail(), ...commissionsMail() };
}

/** Builds the Fastify app; call `listen()` or `inject()` on it, and `close()` when done. */
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
      // Request bodies hold emails and are never logged; the request serializer drops query strings and headers.
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
    // Strict bodies: no type coercion ("3" stays a string), unknown properties fail instead of being removed.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
  });
  if (onRoute) app.addHook('onRoute', onRoute);
  app.removeContentTypeParser('text/plain');
  // Node bounds the headers; the body's arrival is bounded by our own hook.
  app.server.headersTimeout = Math.min(app.server.headersTimeout, config.REQUEST_TIMEOUT_SECONDS * 1000);
  boundRequestArrival(app, config.REQUEST_TIMEOUT_SECONDS * 1000);
  installErrorHandler(app);
  await registerOpenApi(app);
  await registerSecurityHeaders(app, {
    publicUrl: config.PUBLIC_URL,
    providerHosts: provider.pageHosts,
    inlineScripts: inlineScriptHashes(distDir),
  });

  // Before any route, and before the not-found answer (a spelling no route takes is refused the same way): a
  // state-changing request from another site to a signed-in API or the sign-in page is refused.
  refuseCrossSiteRequests(app, config);
  const secret = cookieSecret ?? randomBytes(32).toString('hex');
  await app.register(fastifyCookie, { secret });
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL, app) : undefined;
  // One per-address limit for every API call, whichever feature answers it: each feature counts its API routes
  // against this one store (server/http/apiLimit.ts); pages, /healthz and the Stripe webhook are not counted.
  await app.register(rateLimit, {
    global: false,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // With Redis the limit is one for all processes; should Redis fail, requests pass rather than the checkout.
    ...(redis ? { redis, nameSpace: `${config.REDIS_KEY_PREFIX}rate-limit:`, skipOnError: true } : {}),
    errorResponseBuilder: () => new HttpError(429, 'Too many requests. Please wait a minute and try again.'),
  });

  const webhookStatus: WebhookStatus = {};
  // What features give each other, made once and handed to every feature's plugin: no plugin waits for another.
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
    // The team ends a person's sign-ins through the sign-in's own step (it comes later in the feature order).
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
