/**
 * This product as the OpenID Provider of the training platform (docs/decisions/0033), on oidc-provider
 * (panva, OpenID Certified): discovery at `/.well-known/openid-configuration`, its endpoints under `/oidc`
 * (authorization, token, JWKS, userinfo), the authorization code flow with PKCE required, scopes
 * `openid email profile access`, the `access` claims (`order`, `seat`, `role`, `status`, `agreement`) in the id token. The one
 * client is the platform, registered by configuration (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URIS);
 * consent is implicit for it (first party). The login prompt is our page `/sign-in` (server/signIn/routes/signIn.ts);
 * everything the provider keeps is in our database (./oidcStore.ts). oidc-provider is a Koa app: Fastify hands it
 * the raw request under `/oidc`, unparsed.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { escapeHtml } from '../http/escapeHtml';
import { looksLikeLoginHint } from './loginHints';
import { oidcStore } from './oidcStore';
import type { PrivateJwks } from './jwks';
import { findPersonById, maySignIn, type Person } from './people';

/** Where the provider's endpoints are mounted. */
const OIDC_PREFIX = '/oidc';

/** The sign-in page (the provider's login prompt); the interaction's uid goes in its query. */
const SIGN_IN_PAGE = '/sign-in';

/** Where a sign-in carrying a one-time login hint goes instead of the page (server/signIn/routes/signIn.ts). */
export const HINT_ROUTE = '/sign-in/hint';

/** The provider's resume endpoint, `/auth/{interaction uid}` under the mount path. */
const RESUME_PATH = /^\/auth\/[^/]+\/?$/;

/** The scopes the platform may ask for; `access` carries the claims of the person's access. */
const SCOPES = ['openid', 'email', 'profile', 'access'];

/** The claims each scope releases. */
const CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name'],
  access: ['order', 'seat', 'role', 'status', 'agreement'],
};

/** What the id token and userinfo say about `person`. */
function claimsOf(person: Person) {
  return {
    sub: person.personId,
    email: person.email,
    email_verified: true,
    name: person.name,
    order: person.orderId,
    seat: person.seatNumber,
    role: person.role,
    status: person.status,
    // 'pending' until the agreement site reports the signature (docs/decisions/0063): the platform holds the
    // training until then (spec §1: the agreement is signed before the platform is used).
    agreement: person.agreement,
  };
}

/** The public base address: PUBLIC_URL, else this machine on PORT (a local run). No trailing slash. */
function oidcIssuer(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** A plain error page (no outside fonts or inline script, so it passes our Content-Security-Policy). */
function renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in problem</title></head><body><main><h1>This sign-in could not go on</h1><p>${escapeHtml(
    out.error_description ?? out.error ?? 'Something went wrong.',
  )}</p><p>Please go back to the training platform and sign in again.</p></main></body></html>`;
}

interface ProviderOptions {
  config: Config;
  db: Database;
  jwks: PrivateJwks;
  /** Keys the provider signs its cookies with (the same in every process). */
  cookieKeys: string[];
}

/** The provider for `config` (OIDC_CLIENT_ID and its secret and redirect URIs set). */
export function createOidcProvider({ config, db, jwks, cookieKeys }: ProviderOptions): Provider {
  if (!config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET || !config.OIDC_REDIRECT_URIS) {
    throw new Error('OIDC needs OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URIS');
  }
  const clientId = config.OIDC_CLIENT_ID;
  const secure = config.PUBLIC_URL?.startsWith('https:') ?? false;
  const configuration: Configuration = {
    adapter: (model: string) => oidcStore(db, model),
    clients: [
      {
        client_id: clientId,
        client_secret: config.OIDC_CLIENT_SECRET,
        redirect_uris: config.OIDC_REDIRECT_URIS,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks,
    cookies: { keys: cookieKeys, long: { signed: true, secure }, short: { signed: true, secure } },
    scopes: SCOPES,
    claims: CLAIMS,
    // The access claims go in the id token itself, which is all many platforms read.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    // A one-time login hint (./loginHints.ts) goes to the route that uses it; every other sign-in to the page.
    interactions: {
      url: (_ctx, interaction) =>
        `${looksLikeLoginHint(interaction.params.login_hint) ? HINT_ROUTE : SIGN_IN_PAGE}?interaction=${encodeURIComponent(interaction.uid)}`,
    },
    // Refused people (seat revoked, subscription ended) have no account: their codes and tokens stop working
    // (the token endpoint answers invalid_grant), and a sign-in session of theirs sends the platform access_denied.
    async findAccount(ctx, sub) {
      const person = await findPersonById(db, sub);
      if (person && maySignIn(person)) return { accountId: sub, claims: () => claimsOf(person) };
      if (ctx.oidc.route === 'authorization' || ctx.oidc.route === 'resume') {
        throw new errors.AccessDenied('This login no longer gives access to the training.');
      }
      return undefined;
    },
    // Consent is implicit for the one first-party client: the grant covers whatever of our scopes it asks for.
    async loadExistingGrant(ctx) {
      const { client, session, params, provider, result } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = (result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
      const found = grantId ? await provider.Grant.find(grantId) : undefined;
      const grant = found ?? new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      const scope = typeof params?.scope === 'string' ? params.scope : 'openid';
      const asked = scope.split(' ').filter((scope) => SCOPES.includes(scope));
      grant.addOIDCScope(asked.join(' '));
      await grant.save();
      return grant;
    },
    renderError,
    ttl: {
      AuthorizationCode: 60,
      IdToken: 3600,
      AccessToken: 3600,
      Interaction: 3600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
  };
  const provider = new Provider(oidcIssuer(config), configuration);
  // Koa reads the protocol, host and address from X-Forwarded-*, which mountOidcProvider writes itself.
  provider.proxy = true;
  // The resume endpoint reads everything from the stored interaction, nothing from its query; oidc-provider 8's
  // error handler fails (a server_error) on a resume whose query names our client, so the query is dropped.
  provider.use(async (ctx, next) => {
    if (RESUME_PATH.test(ctx.path)) ctx.querystring = '';
    await next();
  });
  return provider;
}

/**
 * `request`'s raw request as the provider must see it: the addresses it builds (its endpoints, its cookies' Secure)
 * are PUBLIC_URL's, else what Fastify made of the request under TRUST_PROXY; whatever X-Forwarded-* the client sent
 * is replaced, never believed (the provider reads them: `provider.proxy`).
 */
export function providerRequest(request: FastifyRequest, config: Pick<Config, 'PUBLIC_URL'>): IncomingMessage {
  const publicUrl = config.PUBLIC_URL ? new URL(config.PUBLIC_URL) : undefined;
  request.raw.headers['x-forwarded-proto'] = publicUrl ? publicUrl.protocol.slice(0, -1) : request.protocol;
  request.raw.headers['x-forwarded-host'] = publicUrl ? publicUrl.host : request.host;
  request.raw.headers['x-forwarded-for'] = request.ip;
  return request.raw;
}

/**
 * Mounts `provider` on `app`: `/oidc/*` and `/.well-known/openid-configuration` go to its Koa callback with the
 * raw request (its body unread: the provider parses its own forms), mount path `/oidc`. Behind a TLS proxy with an
 * https PUBLIC_URL the provider sees https (its cookies are Secure) whether or not TRUST_PROXY is set.
 */
export async function mountOidcProvider(app: FastifyInstance, provider: Provider, config: Config): Promise<void> {
  const callback = provider.callback();
  // oidc-provider answers its own unexpected failures (`server_error`) and only emits them: they are ours to log.
  provider.on('server_error', (ctx: KoaContextWithOIDC, error: Error) => {
    app.log.error({ err: error, route: ctx.oidc?.route }, 'The sign-in provider failed');
  });
  const forward = (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const raw = providerRequest(request, config) as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = `${OIDC_PREFIX}${path}`;
    raw.url = path;
    reply.hijack();
    return callback(raw, reply.raw);
  };
  await app.register(async (oidc) => {
    oidc.removeAllContentTypeParsers();
    oidc.addContentTypeParser('*', (_request, _payload, done) => done(null));
    oidc.get('/.well-known/openid-configuration', { schema: { hide: true } }, (request, reply) => forward(request, reply, request.url));
    oidc.all(`${OIDC_PREFIX}/*`, { schema: { hide: true } }, (request, reply) =>
      forward(request, reply, request.url.slice(OIDC_PREFIX.length) || '/'),
    );
  });
}
