/**
 * The one Origin check for the APIs that act on a signed-in session, /api/account, /api/admin and /api/partner,
 * and for the sign-in page's POST /sign-in/password
 * (docs/decisions/0022-one-session-mechanism.md): a state-changing request (anything but GET and HEAD) whose
 * `Origin` names another site is refused with 403 before any route runs. The session cookies' SameSite=Strict is
 * the first guard and JSON-only bodies (a cross-site form cannot send one without a CORS preflight) the second;
 * this one also covers a same-site page on another origin (a sibling subdomain) and the sign-in and link routes,
 * which have no session yet. A request without `Origin` (not a browser's cross-site request) passes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { HttpError } from '../http/httpError';

/** The API paths the check covers. */
const GUARDED = ['/api/account', '/api/admin', '/api/partner', '/sign-in'];

const CROSS_SITE_REFUSED = 'This request must come from this site.';

const isGuardedPath = (path: string) => GUARDED.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * `url`'s path as a router could read it: percent-decoded, lower-cased, runs of slashes made one, dot segments
 * resolved (RFC 3986 §5.2.4). Undecodable escapes stay as sent. Lower case because a check that refuses more
 * spellings than the router accepts is safe, and one that refuses fewer is not.
 */
export function normalisedPath(url: string): string {
  const raw = url.split('?', 1)[0]!;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the router refuses the request itself; the path is judged as sent.
  }
  const segments: string[] = [];
  for (const segment of decoded.toLowerCase().replaceAll('\\', '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * Whether `request` is under a guarded prefix: by the route the router matched (`routeOptions.url`, the path as
 * routed, whatever escapes, case or extra slashes it was sent with) and by its normalised path, so that neither a
 * spelling the router decodes nor one it would resolve differently slips past.
 */
const guarded = (request: FastifyRequest) => {
  const routed = request.routeOptions.url;
  return (routed !== undefined && isGuardedPath(routed)) || isGuardedPath(normalisedPath(request.url));
};

/** The site's origin: PUBLIC_URL's when set, else the request's own (protocol and host follow TRUST_PROXY). */
function siteOrigin(config: Config, request: FastifyRequest): string {
  return new URL(config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).origin;
}

/** Whether `request` may go on: not state-changing, outside the guarded APIs, without Origin, or from this site. */
function isSameOriginOrSafe(config: Config, request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return true;
  if (!guarded(request)) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    // URL() drops default ports on both sides; an unparsable Origin ('null' from a sandboxed frame) is refused.
    return new URL(origin).origin === siteOrigin(config, request);
  } catch {
    return false;
  }
}

/** Adds the check to `app` as an onRequest hook (before the body is read). */
export function refuseCrossSiteRequests(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request) => {
    if (!isSameOriginOrSafe(config, request)) {
      request.log.warn({ origin: request.headers.origin }, 'Cross-site request refused');
      throw new HttpError(403, CROSS_SITE_REFUSED);
    }
  });
}
