/**
 * Serves the built SPA (dist/): `/` prerendered, the SPA's other pages (src/domain/pagePaths.ts) from the shell with
 * 200, any other path the prerendered 404 page (spec §2), each with the request's referrer and the offer's content.
 * Text goes out as the build's brotli or gzip copy; source maps are never served; unknown /api/* is 404 `{ error }`.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPagePath, PAGE_PATHS } from '../../src/domain/pagePaths';
import type { OfferReferrer } from '../../src/contract/admin';
import type { JoinAnswer } from '../../src/domain/joinPage';
import type { OfferContent } from '../../src/domain/offerContent';

export interface Offer {
  referrer: OfferReferrer;
  content: OfferContent;
}

/** The built pages (scripts/prerender.ts): `shell` is the empty page every other route starts from. */
export type PageName = 'index' | 'paymentSuccess' | 'signIn' | 'notFound' | 'partner' | 'newPassword' | 'shell';
export interface OfferPages {
  send(request: FastifyRequest, reply: FastifyReply, page: PageName, offer: Offer, status?: number): FastifyReply;
  /** Never cached: it names the invitee. Without prerendered join pages, the shell. */
  sendJoin(request: FastifyRequest, reply: FastifyReply, offer: Offer, answer: JoinAnswer): FastifyReply;
}

export interface SiteReferrals {
  offer(request: FastifyRequest): Promise<OfferReferrer>;
  follow(request: FastifyRequest, reply: FastifyReply, slug: string): Promise<FastifyReply>;
  loadPages(distDir: string, shellFile: string, limits: PageLimits): OfferPages;
}

export interface PageLimits {
  maxSeats: number;
}

const SHELL = 'shell.html';

/** Only ever sent filled in. */
const TEMPLATES = new Set([
  '/index.html',
  `/${SHELL}`,
  '/404.html',
  '/payment-success.html',
  '/sign-in.html',
  '/partner.html',
  '/join.html',
  '/join-problem.html',
  '/new-password.html',
]);

export async function registerStaticSite(
  app: FastifyInstance,
  distDir: string | undefined,
  referrals: SiteReferrals,
  contentOf: (request: FastifyRequest) => Promise<OfferContent>,
  joinAnswerOf: (request: FastifyRequest) => Promise<JoinAnswer>,
  limits: PageLimits,
): Promise<void> {
  if (distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: false,
      preCompressed: true,
      // Source maps stay on disk (vite builds them 'hidden'); page templates go out only filled in.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !TEMPLATES.has(pathName),
      setHeaders(reply, filePath) {
        // Vite fingerprints everything under assets/.
        const immutable = filePath.includes('/assets/');
        reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Built without prerendering, index.html is the empty page itself.
  const pages = distDir ? referrals.loadPages(distDir, existsSync(join(distDir, SHELL)) ? SHELL : 'index.html', limits) : undefined;
  const offerOf = async (request: FastifyRequest) => {
    const [referrer, content] = await Promise.all([referrals.offer(request), contentOf(request)]);
    return { referrer, content };
  };
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const ref = (request.query as Record<string, unknown>).ref;
    if (typeof ref === 'string') return referrals.follow(request, reply, ref.toLowerCase());
    if (!pages) return reply.code(404).send({ error: 'Not found: GET /' });
    return pages.send(request, reply, 'index', await offerOf(request));
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi = path === '/api' || path.startsWith('/api/');
    const isFile = path.startsWith('/assets/') || path.endsWith('.map');
    if (pages && !isApi && !isFile && (request.method === 'GET' || request.method === 'HEAD')) {
      const offer = await offerOf(request);
      if (!isPagePath(path)) return pages.send(request, reply, 'notFound', offer, 404);
      const page =
        path === PAGE_PATHS.paymentSuccess
          ? 'paymentSuccess'
          : path === PAGE_PATHS.signIn
            ? 'signIn'
            : path === PAGE_PATHS.partner
              ? 'partner'
              : path === PAGE_PATHS.newPassword
                ? 'newPassword'
                : 'shell';
      if (path === PAGE_PATHS.join) return pages.sendJoin(request, reply, offer, await joinAnswerOf(request));
      return pages.send(request, reply, page, offer);
    }
    return reply.code(404).send({ error: `Not found: ${request.method} ${path}` });
  });
}
