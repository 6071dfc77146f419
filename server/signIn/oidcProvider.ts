/**
 * This product as the training platform's OpenID Provider (docs/decisions/0033), on oidc-provider (OpenID Certified):
 * code flow with PKCE, scopes `openid email profile access`, the access claims in the id token, one first-party
 * client from configuration (implicit consent), `/sign-in` as its login prompt, its records in our database. A Koa
 * app: Fastify hands it the raw request under `/oidc`.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { escapeHtml } from '../http/escapeHtml';
import { looksLikeLoginHint } from './loginHints';
import { oidcStore } from './oidcStore';
import type { PrivateJwks } from '../security/jwks';
import { findPersonById, maySignIn, type Person } from './people';

const OIDC_PREFIX = '/oidc';

/** The interaction's uid goes in its query. */
const SIGN_IN_PAGE = '/sign-in';

export const HINT_ROUTE = '/sign-in/hint';

const RESUME_PATH = /^\/auth\/[^/]+\/?$/;

const SCOPES = ['openid', 'email', 'profile', 'access'];

const CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name'],
  access: ['order', 'seat', 'role', 'status', 'agreement'],
};

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
    // The platform holds the training until the agreement is signed (spec §1; docs/decisions/0063).
    agreement: person.agreement,
  };
}

/** No trailing slash. */
function oidcIssuer(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** No outside fonts or inline script, so it passes our CSP. */
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
  cookieKeys: string[];
}

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
    // Many platforms read only the id token.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx, interaction) =>
        `${looksLikeLoginHint(interaction.params.login_hint) ? HINT_ROUTE : SIGN_IN_PAGE}?interaction=${encodeURIComponent(interaction.uid)}`,
    },
    // Refused people have no account: their tokens stop working (invalid_grant) and their sign-in sends the platform
    // access_denied.
    async findAccount(ctx, sub) {
      const person = await findPersonById(db, sub);
      if (person && maySignIn(person)) return { accountId: sub, claims: () => claimsOf(person) };
      if (ctx.oidc.route === 'authorization' || ctx.oidc.route === 'resume') {
        throw new errors.AccessDenied('This login no longer gives access to the training.');
      }
      return undefined;
    },
    // Consent is implicit for the one first-party client.
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
  // mountOidcProvider writes X-Forwarded-* itself.
  provider.proxy = true;
  // oidc-provider 8's error handler fails on a resume whose query names our client; the resume reads nothing from it.
  provider.use(async (ctx, next) => {
    if (RESUME_PATH.test(ctx.path)) ctx.querystring = '';
    await next();
  });
  return provider;
}

/**
 * The addresses the provider builds are PUBLIC_URL's, else Fastify's under TRUST_PROXY; a client's X-Forwarded-* is
 * replaced, never believed.
 */
export function providerRequest(request: FastifyRequest, config: Pick<Config, 'PUBLIC_URL'>): IncomingMessage {
  const publicUrl = config.PUBLIC_URL ? new URL(config.PUBLIC_URL) : undefined;
  request.raw.headers['x-forwarded-proto'] = publicUrl ? publicUrl.protocol.slice(0, -1) : request.protocol;
  request.raw.headers['x-forwarded-host'] = publicUrl ? publicUrl.host : request.host;
  request.raw.headers['x-forwarded-for'] = request.ip;
  return request.raw;
}

/**
 * The body unread: the provider parses its own forms. Behind a TLS proxy with an https PUBLIC_URL its cookies are
 * Secure whatever TRUST_PROXY says.
 */
export async function mountOidcProvider(app: FastifyInstance, provider: Provider, config: Config): Promise<void> {
  const callback = provider.callback();
  // It answers its own failures and only emits them: ours to log.
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
