/**
 * Serves the built SPA (`npm run build` → dist/): `/` is dist/index.html, the checkout already rendered; a GET of
 * another of the SPA's pages (src/domain/pagePaths.ts) answers the empty page (dist/shell.html; for /payment-success its
 * prerendered loading state) with 200, and any other path that is not /api/* and not a file answers the prerendered
 * 404 page with 404 (spec §2). Both
 * pages carry the request's referrer and the offer's content (server/referrals/offerPage.ts); `/?ref={slug}` records a referral first. Text files go out as the
 * brotli or gzip copy the build made when the browser accepts it (`Vary: Accept-Encoding`). Source maps
 * (`*.map`) are not served.
 * Unknown /api/* paths, and everything else when no SPA is served, answer 404 `{ error }`.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPagePath, PAGE_PATHS } from '../../src/domain/pagePaths';
import { loadOfferPages, type PageLimits } from '../referrals/offerPage';
import type { ReferralLinks } from '../referrals/referralLinks';
import type { JoinAnswer } from '../../src/domain/joinPage';
import type { OfferContent } from '../../src/domain/offerContent';

/** The page before prerendering (scripts/prerender.ts): every route but `/` renders in the browser from it. */
const SHELL = 'shell.html';

/** The page templates (scripts/prerender.ts): only ever sent filled in. */
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

/**
 * Registers the static files of `distDir` (or none), the offer page and the not-found handler; every page carries
 * the request's referrer and the offer's content (`contentOf`, server/content/offerContent.ts), and /join what
 * its link stands for (`joinAnswerOf`, server/seats/routes.ts `joinPageAnswers`), and the checkout's seat limit
 * (`limits`).
 */
export async function registerStaticSite(
  app: FastifyInstance,
  distDir: string | undefined,
  referrals: ReferralLinks,
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
      // Source maps stay on disk for debugging (vite builds them 'hidden'); they are never served. Nor are the
      // page templates as they are.
      allowedPath: (pathName) => !pathName.endsWith('.map') && !TEMPLATES.has(pathName),
      setHeaders(reply, filePath) {
        // Vite fingerprints everything under assets/; index.html must be re-read on each visit.
        const immutable = filePath.includes('/assets/');
        reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Built without prerendering (an older build), index.html is the empty page itself.
  const pages = distDir ? loadOfferPages(distDir, existsSync(join(distDir, SHELL)) ? SHELL : 'index.html', limits) : undefined;
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
    // A missing asset or a source map is a missing file, not a page of the SPA.
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
