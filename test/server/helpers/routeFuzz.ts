/**
 * Bad input is a 4xx, always, on every route the server registers: the test learns the routes from Fastify's
 * onRoute hook (a route added later is fuzzed without anyone listing it), signs in as the buyer, the owner, a
 * referrer and a team member, and sends each route RUNS requests (500 in `npm test`, new ones each run;
 * `npm run bench:fuzz` sends 10,000 and prints the statuses and the 5xx per route), four at a time, on PGlite and on
 * PostgreSQL, one test file each (`fuzz.pglite.test.ts`, `fuzz.postgres.test.ts`, so vitest runs them side by
 * side): path parameters, query strings and bodies shaped by the route's own schema with plausible values (the fixture's real ids and tokens) and hostile
 * ones (NUL, unpaired surrogates, huge numbers, wrong types, malformed escapes), and arbitrary JSON and text. No
 * answer may be a 5xx, an API's 4xx says why as `{ error }`, and no order may be half-written. The Stripe webhook
 * also gets malformed events signed with the endpoint's secret (null, NUL bytes in ids, `__proto__` keys, wrong
 * types): each is a 4xx or an acknowledged 200, never a 5xx.
 */
import fc from 'fast-check';
import { count, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_ID } from '../../../src/domain/product';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accounts, handoffTokens, orders, partnerLinks, referrers } from '../../../server/db/schema';
import { newHandoffToken } from '../../../server/security/handoffToken';
import { webhookSignature } from '../../../server/security/webhookSignature';
import { mintInvitationLink } from '../../../server/seats/claim';
import type { JoinClaimed, TeamView } from '../../../src/contract/team';
import { STRIPE_API_VERSION } from '../../../server/payments/stripe/client';
import { STRIPE_WEBHOOK_EVENTS } from '../../../server/payments/stripe/webhook';
import { saveOwner } from '../../../server/admin/owners';
import { issueAccountLink } from '../../../server/account/accountLinks';
import { completePurchase, type DATABASES, HANDOFF_KEY, openCheckout, startTestServer, type TestServer } from '../helper';

type DatabaseKind = (typeof DATABASES)[number];
import { startStripeDouble, type StripeDouble } from './stripeDouble';
import { stripeTestEnv, TEST_WEBHOOK_SECRET } from './stripeEvents';

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** The agreement site's reports (decision 0063): the route, and the secret they are signed with. */
const AGREEMENT_ROUTE = '/api/agreement/signed';
const AGREEMENT_SECRET = 'agreement-site-secret-0123456789abcdef';
/**
 * A run's time limit: an hour per 1,000 requests a route bounds a stuck run, not a slow one (1,000 requests to each
 * of 81 routes took 513 s for both databases in one file in a full run of the suite, before the requests were sent
 * four at a time; `npm run bench:fuzz` sends 10,000 a route).
 */
const FUZZ_TIMEOUT_MS = Math.max(1, RUNS / 1000) * 60 * 60_000;
/**
 * Requests to one route in flight at once: while one waits on the database (PostgreSQL is another process) the
 * server parses and checks the others, and requests meet as they do in production.
 */
const IN_FLIGHT = 4;
/** The run's seed: new each run, printed when a check fails; FUZZ_SEED replays that run's requests. */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Calls `send` with each of `items`, `limit` calls at a time, until all have answered. */
async function inFlight<T>(items: T[], limit: number, send: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const sender = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await send(item);
    }
  };
  await Promise.all(Array.from({ length: limit }, sender));
}

/** Strings a careless or hostile client sends. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\uDBFF\uDFFF',
    '😀',
    ' ',
    '',
    'a'.repeat(300),
    '<script>',
    "'; drop table orders; --",
  ),
);
const hostileValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.object({ maxDepth: 1 }),
);
const quantity = fc.oneof(fc.integer({ min: -5, max: 150 }), fc.constantFrom(1e308, -0, 2 ** 53, 1.5), hostileValue);

/** A body of the endpoint's shape, every field either plausible or hostile, sometimes one missing or extra. */
function shaped(fields: Record<string, fc.Arbitrary<unknown>>) {
  return fc.record(fields, { requiredKeys: [] }).chain((body) =>
    fc.oneof(
      fc.constant(body),
      fc.record({ extra: hostileValue }).map((extra) => ({ ...body, ...extra })),
    ),
  );
}

/**
 * Every answer of a run: counts its statuses, and its 5xx per route (keeping the first request of each for the
 * failure message); an API's 4xx must say why, as `{ error }`.
 */
function answerTally() {
  const statuses = new Map<number, number>();
  const counts = new Map<string, { count: number; first?: string }>();
  const unexplained: string[] = [];
  return {
    statuses,
    /** Records the answer to `request` at `route`. */
    record(route: string, request: string, response: { statusCode: number; body: string; headers: Record<string, unknown> }) {
      const status = response.statusCode;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const entry = counts.get(route) ?? { count: 0 };
      if (status >= 500) {
        entry.count += 1;
        entry.first ??= `${route}: ${request.slice(0, 300)} → ${status} ${response.body.slice(0, 300)}`;
      }
      counts.set(route, entry);
      const type = response.headers['content-type'];
      const json = typeof type === 'string' && type.startsWith('application/json');
      if (status >= 400 && status < 500 && (json || isOurApi(route)) && !saysWhy(response.body) && unexplained.length < 10) {
        unexplained.push(`${route}: ${request.slice(0, 300)} → ${status} ${response.body.slice(0, 300)}`);
      }
    },
    /** `{ route: count }`, every route sent to. */
    counts: () => Object.fromEntries([...counts].map(([route, { count }]) => [route, count])),
    firsts: () => [...counts.values()].flatMap(({ first }) => (first ? [first] : [])),
    /** The first 4xx answers (ten at most) that did not say why as `{ error }`. */
    unexplained: () => unexplained,
  };
}

/** Whether `body` is JSON of the shape `{ error: string }`. */
function saysWhy(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof (parsed as { error?: unknown } | null)?.error === 'string';
  } catch {
    return false;
  }
}

/** Our JSON API: `/api/…` (the OpenID Provider's endpoints answer OAuth's own error shape, under /oidc). */
const isOurApi = (route: string) => / \/api\//.test(route);

/** Prints the figures of a `npm run bench:fuzz` run. */
function report(kind: string, errors: ReturnType<typeof answerTally>, extra = '') {
  if (!process.env.FUZZ_RUNS) return;
  console.log(`${kind}: statuses ${JSON.stringify(Object.fromEntries([...errors.statuses].sort()))}${extra}`);
  console.log(`${kind}: 5xx per route ${JSON.stringify(errors.counts())}`);
}

/** A route as registered: its method, its URL pattern and its schema. */
interface Route {
  method: string;
  url: string;
  schema?: { body?: JsonSchema; querystring?: JsonSchema; params?: JsonSchema };
}

/** The parts of JSON Schema (TypeBox's output) the generator reads. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

/** The requests a route takes, as inject() options. */
interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Each byte as a URL writes it: unreserved characters as they are, the others as `%hh` (built once). */
const BYTE_IN_URL = Array.from({ length: 256 }, (_, byte) =>
  /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
);

/** Percent-encodes every UTF-8 byte of `text` that is not unreserved (lone surrogates become U+FFFD, as a browser sends them). */
const percentEncoded = (text: string) => {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) encoded += BYTE_IN_URL[byte];
  return encoded;
};

/** Path segments and query values as a client can write them, escapes included (some malformed). */
const hostileSegment = fc.oneof(
  hostileText.map(percentEncoded),
  fc.constantFrom('%00', '%', '%zz', '%E0%A4%A', '..', '%2e%2e', '%2f', '.', 'a'.repeat(1000), '%C0%80', '%ED%A0%80', '0', '-1', '1e3'),
);

/** A value for a field of `schema`, plausible (`plausible` for its name, a valid value of its type) or hostile. */
function valueFor(schema: JsonSchema | undefined, plausible: fc.Arbitrary<unknown> | undefined, depth = 0): fc.Arbitrary<unknown> {
  const typed = schema && depth < 3 ? ofSchema(schema, depth) : undefined;
  return fc.oneof(...[plausible, typed, hostileValue].filter((each): each is fc.Arbitrary<unknown> => each !== undefined));
}

/** A value of `schema`'s type and bounds, and just outside them. */
function ofSchema(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> | undefined {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((each) => valueFor(each, undefined, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object' && schema.properties) return shapedBy(schema, {}, depth + 1);
  if (type === 'array') return fc.array(valueFor(schema.items, undefined, depth + 1), { maxLength: 4 });
  if (type === 'integer' || type === 'number') {
    const min = schema.minimum ?? -1_000_000;
    const max = schema.maximum ?? 1_000_000;
    return fc.oneof(
      fc.integer({ min: Math.max(min - 2, -2_147_483_648), max: Math.min(max + 2, 2_147_483_647) }),
      fc.constantFrom(1e308, -0, 2 ** 53, 0.5),
    );
  }
  if (type === 'string') return fc.string({ maxLength: Math.min((schema.maxLength ?? 40) + 1, 300) });
  if (type === 'boolean') return fc.boolean();
  return undefined;
}

/** An object of `schema`'s properties, each plausible or hostile, some left out, sometimes one extra. */
function shapedBy(schema: JsonSchema, plausible: Record<string, fc.Arbitrary<unknown>>, depth = 0) {
  const fields = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, field]) => [name, valueFor(field, plausible[name], depth)]),
  );
  return shaped(fields);
}

/** What the fixture makes real: the ids and tokens a plausible request names. */
interface Fixture {
  /** Plausible values by field or parameter name. */
  plausible: Record<string, fc.Arbitrary<unknown>>;
  /** The sessions' cookies, and the bearer credentials a route may take. */
  cookie: () => Promise<string>;
  bearers: string[];
}

/** Query parameters of the OpenID Provider's endpoints (authorization, token, end session). */
const OIDC_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'nonce',
  'login_hint',
  'ui_locales',
  'acr_values',
  'prompt',
  'code_challenge',
  'code_challenge_method',
  'code',
  'code_verifier',
  'grant_type',
  'max_age',
  'claims',
  'id_token_hint',
  'post_logout_redirect_uri',
];

/** `record` as `a=b&c=d`, every key and value percent-encoded, non-strings as JSON. */
const queryOf = (record: Record<string, unknown>) =>
  Object.entries(record)
    .map(
      ([key, value]) =>
        `${percentEncoded(key)}=${typeof value === 'string' ? percentEncoded(value) : percentEncoded(JSON.stringify(value) ?? '')}`,
    )
    .join('&');

/** The requests of `route`: its path with each parameter filled in, a query string, a body, credentials or none. */
function requestsOf(route: Route, fixture: Fixture): fc.Arbitrary<FuzzRequest & { cookie: boolean }> {
  const { plausible } = fixture;
  const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  const segment = (name: string) =>
    fc.oneof({ weight: 3, arbitrary: (plausible[name] ?? fc.constant('1')).map((value) => percentEncoded(String(value))) }, hostileSegment);
  const path = fc
    .tuple(fc.tuple(...params.map(segment)), fc.array(hostileSegment, { minLength: 1, maxLength: 3 }))
    .map(([values, wildcard]) => {
      let filled = route.url;
      params.forEach((name, index) => {
        filled = filled.replace(`:${name}`, values[index] as string);
      });
      return filled.replace('*', wildcard.join('/'));
    });
  const isProvider = route.url.includes('*') && route.url.startsWith('/oidc');
  const oidcPath = fc.oneof(
    fc.constantFrom('/oidc/auth', '/oidc/token', '/oidc/me', '/oidc/jwks', '/oidc/session/end', '/oidc/session/end/confirm'),
    fc.tuple(fc.constantFrom('/oidc/auth/', '/oidc/'), hostileSegment).map(([head, tail]) => head + tail),
  );
  const oidcRecord = fc.record(
    Object.fromEntries(
      OIDC_PARAMETERS.map((name) => [name, fc.oneof({ weight: 2, arbitrary: plausible[name] ?? hostileText }, hostileText)]),
    ),
    { requiredKeys: [] },
  );
  const query = route.schema?.querystring?.properties
    ? shapedBy(route.schema.querystring, plausible).map((record) => queryOf(record as Record<string, unknown>))
    : isProvider || route.url.startsWith('/.well-known')
      ? oidcRecord.map(queryOf)
      : fc.oneof(
          fc.constant(''),
          fc
            .dictionary(
              fc.oneof(fc.constantFrom('ref', 'token', 'page', 'email', 'referrer'), hostileText),
              fc.oneof(hostileText, plausible.slug ?? hostileText),
            )
            .map(queryOf),
          hostileSegment.map((text) => `${text}=${text}&${text}`),
        );
  const body =
    route.method === 'GET' || route.method === 'HEAD'
      ? fc.constant(undefined)
      : fc.oneof(
          {
            weight: 3,
            arbitrary: (route.schema?.body
              ? shapedBy(route.schema.body, plausible)
              : fc.oneof(fc.constant({}), fc.object({ maxDepth: 1 }))
            ).map((value) => JSON.stringify(value)),
          },
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.string({ unit: 'binary', maxLength: 60 }),
          ...(isProvider ? [oidcRecord.map(queryOf)] : []),
        );
  const authorization = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...fixture.bearers.map((bearer) => `Bearer ${bearer}`)),
    hostileText.map((text) => `Bearer ${text}`),
  );
  return fc
    .record({
      path: isProvider ? oidcPath : path,
      query,
      body,
      form: fc.boolean(),
      authorization,
      cookie: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
      signed: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, fc.constant(false)),
    })
    .map(({ path: filled, query: search, body: payload, form, authorization: bearer, cookie, signed }) => ({
      method: route.method,
      url: search ? `${filled}?${search}` : filled,
      headers: {
        ...(payload !== undefined ? { 'content-type': isProvider && form ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
        ...(bearer !== undefined && /^[\t\x20-\x7e]*$/.test(bearer) ? { authorization: bearer } : {}),
        // A route that takes the agreement site's signed reports gets bodies signed as that site signs them.
        ...(signed && route.url === AGREEMENT_ROUTE && payload !== undefined
          ? { 'checkout-signature': webhookSignature(AGREEMENT_SECRET, Math.floor(Date.now() / 1000), payload) }
          : {}),
      },
      payload,
      cookie,
    }));
}

const OWNER = { email: 'fuzz-owner@example.com', password: 'a long fuzzing owner password' };

/** A built site's page templates, cut to what the offer pages and /join read (the SPA's routes need a dist/). */
async function pageTemplates(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'checkout-fuzz-dist-'));
  const empty = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';
  for (const page of ['index.html', 'shell.html', 'join.html', 'join-problem.html']) await writeFile(join(dir, page), empty);
  await writeFile(join(dir, 'favicon.txt'), 'a file');
  return dir;
}

/** The route fuzz on `kind`'s database (one describe), then the signed webhook's (another). */
export function fuzzEveryRoute(kind: DatabaseKind): void {
  describeRoutes(kind);
  describeWebhook(kind);
}

function describeRoutes(kind: DatabaseKind) {
  describe(`every route the server registers, fuzzed, on ${kind}`, () => {
    let server: TestServer;
    let fixture: Fixture;
    let distDir: string;
    const routes: Route[] = [];
    const errors = answerTally();
    let started = 0;

    beforeAll(async () => {
      distDir = await pageTemplates();
      server = await startTestServer(kind, {
        distDir,
        env: {
          ACCOUNT_LINKS_PER_15_MINUTES: '1000000',
          SIGN_INS_PER_15_MINUTES: '1000000',
          OIDC_CLIENT_ID: 'training-platform',
          OIDC_CLIENT_SECRET: 'platform-secret-0123456789abcdef0123456789',
          OIDC_REDIRECT_URIS: 'http://127.0.0.1:9/callback',
          // The agreement site's reports are signed with it (decision 0063): without it the route only says 503.
          SUCCESS_SITE_WEBHOOK_SECRET: AGREEMENT_SECRET,
        },
        onRoute: (route) => {
          for (const method of [route.method].flat()) {
            // Fastify's HEAD twin of a GET runs the GET's handler and hooks: fuzzing the GET covers it.
            if (method === 'HEAD') continue;
            routes.push({ method, url: route.url, schema: route.schema as Route['schema'] });
          }
        },
      });
      fixture = await signedInFixture(server);
      started = Date.now();
    });
    afterAll(async () => {
      report(kind, errors, ` (${routes.length} routes, ${RUNS} requests each, ${Math.round((Date.now() - started) / 1000)} s)`);
      await server.close();
      await rm(distDir, { recursive: true, force: true });
    });

    it(
      `answers ${RUNS} requests per route, signed in or not, without a 5xx, and writes no half order`,
      { timeout: FUZZ_TIMEOUT_MS },
      async () => {
        const methods = new Set(routes.map((route) => `${route.method} ${route.url}`));
        // The enumeration is real: the checkout, the console, the team, the partner page and the sign-in are all in it.
        for (const known of [
          'POST /api/create-anon-subscription-intent',
          'GET /api/admin/orders/:transactionId',
          'POST /api/account/team/:seatId/revoke',
          'GET /api/partner',
          'POST /sign-in/password',
          'GET /r/:slug',
          'GET /oidc/*',
        ]) {
          expect(methods, known).toContain(known);
        }
        const [{ n: ordersBefore }] = (await server.db.select({ n: count() }).from(orders)) as [{ n: number }];
        let created = 0;
        const took: Record<string, number> = {};
        for (const [index, route] of routes.entries()) {
          const name = `${route.method} ${route.url}`;
          const routeStarted = Date.now();
          const requests = fc.sample(requestsOf(route, fixture), { numRuns: RUNS, seed: SEED + index });
          await inFlight(requests, IN_FLIGHT, async ({ cookie, ...request }) => {
            const headers = cookie ? { ...request.headers, cookie: await fixture.cookie() } : request.headers;
            const response = await server.app.inject({ ...request, headers } as never);
            errors.record(name, `${request.method} ${request.url} ${request.payload ?? ''}`, response);
            if (name === 'POST /api/create-anon-subscription-intent' && response.statusCode === 200) created += 1;
          });
          took[name] = Date.now() - routeStarted;
        }
        if (process.env.FUZZ_RUNS) console.log(`${kind}: ms per route ${JSON.stringify(took)}`);
        expect(errors.firsts(), `FUZZ_SEED=${SEED} replays this run`).toEqual([]);
        expect(errors.unexplained(), `FUZZ_SEED=${SEED} replays this run`).toEqual([]);
        expect(Object.values(errors.counts()).filter((n) => n > 0)).toEqual([]);
        const [{ n: ordersAfter }] = (await server.db.select({ n: count() }).from(orders)) as [{ n: number }];
        expect(ordersAfter - ordersBefore).toBe(created);
        // Accounts only for orders that were paid (the console may have refunded one since); tokens only for orders
        // with an account.
        const accountsOfUnpaid = await server.db
          .select({ id: accounts.id })
          .from(accounts)
          .innerJoin(orders, eq(orders.transactionId, accounts.transactionId))
          .where(isNull(orders.paidAt));
        expect(accountsOfUnpaid).toEqual([]);
        const tokensWithoutAccount = await server.db
          .select({ hash: handoffTokens.tokenHash })
          .from(handoffTokens)
          .leftJoin(accounts, eq(accounts.transactionId, handoffTokens.transactionId))
          .where(isNull(accounts.id));
        expect(tokensWithoutAccount).toEqual([]);
      },
    );
  });
}

/**
 * The buyer (three seats: one invited, one claimed), a second paid order the console acts on (refunds and
 * cancellations end it, not the buyer’s), an open checkout, the owner, a referrer signed in to /partner, a member
 * signed in to the training platform; each session but the member’s opened again when a fuzzed request (a sign-out,
 * new credentials) ended it.
 */
async function signedInFixture(server: TestServer): Promise<Fixture> {
  const buyer = await completePurchase(server, 3);
  const consoleOrder = await completePurchase(server, 2);
  const open = await openCheckout(server, 1);
  await saveOwner(server.db, OWNER.email, OWNER.password);
  const [referrer] = await server.db.select({ id: referrers.id, slug: referrers.slug }).from(referrers).limit(1);
  const cookieOf = (response: { cookies: { name: string; value: string }[] }, name: string) =>
    `${name}=${response.cookies.find((each) => each.name === name)?.value ?? ''}`;
  const sessions = {
    account_session: {
      check: '/api/account',
      async open() {
        const token = await issueAccountLink(server.db, buyer.session.transactionId, 'manage', 60);
        return cookieOf(await server.post('/api/account/session', { token }), 'account_session');
      },
    },
    owner_session: {
      check: '/api/admin/session',
      open: async () => cookieOf(await server.post('/api/admin/sign-in', OWNER), 'owner_session'),
    },
    partner_session: {
      check: '/api/partner',
      async open() {
        const { token, tokenHash } = newHandoffToken();
        await server.db.insert(partnerLinks).values({ tokenHash, referrerId: referrer!.id, expiresAt: new Date(Date.now() + 3_600_000) });
        return cookieOf(await server.post('/api/partner/session', { token }), 'partner_session');
      },
    },
  };
  const cookies = new Map<string, string>();
  for (const [name, session] of Object.entries(sessions)) cookies.set(name, await session.open());
  const invited = await server.post(
    '/api/account/team/invite',
    { email: 'bo@example.com', name: 'Bo Chen' },
    { cookie: cookies.get('account_session')! },
  );
  expect(invited.statusCode, invited.body).toBe(200);
  const seatId = invited.json<TeamView>().members[0]!.id;
  const member = await signedInMember(server, cookies.get('account_session')!);
  let checked = 0;
  /** The sessions' cookie; every 50 requests each is checked and opened again if a fuzzed request ended it. */
  const cookie = async () => {
    checked += 1;
    if (checked % 50 === 0) {
      for (const [name, session] of Object.entries(sessions)) {
        const alive = await server.app.inject({ method: 'GET', url: session.check, headers: { cookie: cookies.get(name)! } });
        if (alive.statusCode === 401) cookies.set(name, await session.open());
      }
    }
    return [...cookies.values(), member.cookie].join('; ');
  };
  const ids = (...values: string[]) => fc.constantFrom(...values);
  return {
    cookie,
    bearers: [HANDOFF_KEY, buyer.finalized.token, member.handoffToken],
    plausible: {
      transactionId: ids(consoleOrder.session.transactionId, buyer.session.transactionId, open.transactionId),
      subscriptionId: ids(open.subscriptionId, buyer.session.subscriptionId),
      subscriptionItemId: ids(open.subscriptionItemId),
      customerId: ids(open.customerId, buyer.session.customerId),
      clientSecret: ids(open.clientSecret),
      paymentIntentId: ids(open.clientSecret.split('_secret_')[0]!),
      productId: ids(PRODUCT_ID),
      quantity,
      seatId: ids(seatId),
      id: ids(referrer!.id, '1', '2'),
      slug: ids(referrer!.slug, 'dr-sample', 'DR-SAMPLE'),
      referrer: ids(referrer!.id, 'none'),
      affiliate_id: ids(referrer!.slug),
      email: ids('ada@example.com', 'someone@example.com', 'bo@example.com', member.email),
      name: ids('Ada Palmer', 'Bo Chen'),
      password: ids('a long password of someone', 'correct horse battery staple'),
      token: ids('a'.repeat(43), buyer.finalized.token, member.handoffToken),
      amountCents: fc.integer({ min: -5, max: 200_000 }),
      action: ids('resend_confirmation', 'send_sign_in_link', 'cancel_at_period_end', 'cancel_now'),
      client_id: ids('training-platform'),
      redirect_uri: ids('http://127.0.0.1:9/callback'),
      response_type: ids('code'),
      scope: ids('openid email profile access', 'openid'),
      code_challenge: ids('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
      code_challenge_method: ids('S256'),
      grant_type: ids('authorization_code'),
      login_hint: ids('a'.repeat(43), 'ada@example.com'),
      from: ids('2026-01-01'),
      to: ids('2026-12-31'),
    },
  };
}

const WEBHOOK = '/api/stripe/webhook';

/** Texts written by hand where generated JSON cannot reach: `__proto__` keys, objects posing as strings. */
const handWrittenEvents = fc.constantFrom(
  'null',
  '{"__proto__":{"id":"evt_proto","type":"invoice.paid","data":{"object":{}}}}',
  '{"id":"evt_proto","type":"invoice.paid","data":{"object":{"__proto__":{"toString":1}}}}',
  '{"id":"evt_proto","type":"invoice.paid","data":{"__proto__":{"object":{}}}}',
  '{"id":"evt_proto","type":{"toString":1},"data":{"object":{}}}',
  '{"id":{"toString":1},"type":"invoice.paid","data":{"object":{}}}',
  '{"id":"evt_\\u0000","type":"invoice.paid","data":{"object":{}}}',
  '{"id":"evt_proto","type":"invoice.paid","api_version":{"toString":1},"data":{"object":{}}}',
  '{"id":"evt_proto","type":"__proto__","data":{"object":{}}}',
  '{"id":"evt_proto","type":"constructor","data":{"object":{}}}',
);

/** Signed events of Stripe's shape with hostile parts, arbitrary JSON, and the hand-written texts. */
function malformedEvents(): fc.Arbitrary<string> {
  const id = (valid: string) => fc.oneof(fc.constant(valid), hostileText, hostileValue);
  const metadata = fc.oneof(shaped({ transactionId: id('00000000-0000-4000-8000-000000000000') }), hostileValue);
  const object = fc.oneof(
    shaped({
      id: id('sub_fuzz'),
      customer: id('cus_fuzz'),
      payment_intent: id('pi_fuzz'),
      metadata,
      subscription: id('sub_fuzz'),
      parent: fc.oneof(
        shaped({ subscription_details: fc.oneof(shaped({ subscription: id('sub_fuzz'), metadata }), hostileValue) }),
        hostileValue,
      ),
    }),
    hostileValue,
  );
  const event = shaped({
    id: id('evt_fuzz'),
    object: id('event'),
    type: fc.oneof(fc.constantFrom(...STRIPE_WEBHOOK_EVENTS, 'customer.created', 'toString', 'hasOwnProperty'), hostileValue),
    api_version: fc.oneof(fc.constant(STRIPE_API_VERSION), hostileValue),
    data: fc.oneof(shaped({ object, previous_attributes: hostileValue }), hostileValue),
  });
  return fc.oneof(
    event.map((value) => JSON.stringify(value)),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    handWrittenEvents,
  );
}

function describeWebhook(kind: DatabaseKind) {
  describe(`fuzzed signed webhook bodies on ${kind}`, () => {
    let stripe: StripeDouble;
    let server: TestServer;
    const errors = answerTally();
    beforeAll(async () => {
      stripe = await startStripeDouble();
      server = await startTestServer(kind, { env: stripeTestEnv(stripe.url) });
    });
    afterAll(async () => {
      report(`${kind} webhook`, errors);
      await server.close();
      await stripe.close();
    });

    it(`answers ${RUNS} malformed events signed with the endpoint's secret without a 5xx`, { timeout: FUZZ_TIMEOUT_MS }, async () => {
      await fc.assert(
        fc.asyncProperty(malformedEvents(), async (payload) => {
          const response = await server.app.inject({
            method: 'POST',
            url: WEBHOOK,
            headers: {
              'content-type': 'application/json',
              'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: TEST_WEBHOOK_SECRET }),
            },
            payload,
          });
          errors.record(WEBHOOK, payload, response);
        }),
        { numRuns: RUNS },
      );
      expect(errors.firsts()).toEqual([]);
      expect(errors.counts()).toEqual({ [WEBHOOK]: 0 });
      // Nothing malformed reached Stripe.
      expect(stripe.unexpected).toEqual([]);
    });
  });
}

/**
 * A team member of the buyer's order, claimed through the invitation link, signed in to the training platform
 * through our OpenID Provider: the provider's session cookies (for /oidc) and the member's own hand-off token.
 */
async function signedInMember(server: TestServer, buyerCookie: string) {
  const invited = await server.post('/api/account/team/invite', { email: 'cy@example.com', name: 'Cy Diaz' }, { cookie: buyerCookie });
  const seat = invited.json<TeamView>().members.find((each) => each.email === 'cy@example.com')!;
  const claimed = (await server.post('/api/join/claim', { token: await mintInvitationLink(server.db, seat.id) })).json<JoinClaimed>();
  const jar = new Map<string, string>();
  const take = (response: { cookies: { name: string; value: string }[] }) => {
    for (const { name, value } of response.cookies) jar.set(name, value);
  };
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const authorization = await server.app.inject({
    method: 'GET',
    url: `/oidc/auth?${new URLSearchParams({
      client_id: 'training-platform',
      redirect_uri: 'http://127.0.0.1:9/callback',
      response_type: 'code',
      scope: 'openid email profile access',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`,
  });
  take(authorization);
  const signedIn = await server.post('/sign-in/password', { email: claimed.email, password: claimed.password }, { cookie: header() });
  take(signedIn);
  const resumed = await server.app.inject({
    method: 'GET',
    url: new URL(signedIn.json<{ redirectTo: string }>().redirectTo, 'http://x').pathname,
    headers: { cookie: header() },
  });
  take(resumed);
  expect(resumed.headers.location, resumed.body).toMatch(/^http:\/\/127\.0\.0\.1:9\/callback\?code=/);
  const session = [...jar].filter(([name]) => name.startsWith('_session'));
  expect(session.length).toBeGreaterThan(0);
  return {
    email: claimed.email,
    cookie: session.map(([name, value]) => `${name}=${value}`).join('; '),
    handoffToken: new URL(claimed.agreementUrl).searchParams.get('token')!,
  };
}
