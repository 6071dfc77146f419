/**
 * The one Origin check (docs/decisions/0022): a state-changing request to /api/account, /api/admin, /api/partner or
 * /sign-in from another site's `Origin` is refused with 403, covering sibling subdomains and routes that have no
 * session yet. Without `Origin` it passes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { HttpError } from '../http/httpError';

const GUARDED = ['/api/account', '/api/admin', '/api/partner', '/sign-in'];

const CROSS_SITE_REFUSED = 'This request must come from this site.';

const isGuardedPath = (path: string) => GUARDED.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * `url`'s path as a router could read it: decoded, lower-cased, slashes collapsed, dot segments resolved (RFC 3986
 * §5.2.4). Lower case because refusing more spellings than the router accepts is safe.
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

/** By the route the router matched and by the normalised path, so no spelling slips past either. */
const guarded = (request: FastifyRequest) => {
  const routed = request.routeOptions.url;
  return (routed !== undefined && isGuardedPath(routed)) || isGuardedPath(normalisedPath(request.url));
};

function siteOrigin(config: Config, request: FastifyRequest): string {
  return new URL(config.PUBLIC_URL ?? `${request.protocol}://${request.host}`).origin;
}

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

export function refuseCrossSiteRequests(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', async (request) => {
    if (!isSameOriginOrSafe(config, request)) {
      request.log.warn({ origin: request.headers.origin }, 'Cross-site request refused');
      throw new HttpError(403, CROSS_SITE_REFUSED);
    }
  });
}
