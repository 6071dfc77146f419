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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPagePath, PAGE_PATHS } from '../../src/domain/pagePaths';
import type { OfferReferrer } from '../../src/contract/admin';
import type { JoinAnswer } from '../../src/domain/joinPage';
import type { OfferContent } from '../../src/domain/offerContent';

/** What a page shows of the offer: the request's referrer and the owner's content. */
export interface Offer {
  referrer: OfferReferrer;
  content: OfferContent;
}

/**
 * The HTML pages of the built SPA (scripts/prerender.ts): `index` is `/` prerendered, `paymentSuccess` the
 * success page's loading state, `signIn` the sign-in form, `notFound` the 404 page, `partner` the referrer's page's
 * loading state, `newPassword` the new password page's, `shell` the empty page every other route starts from; and
 * the join page's two (`sendJoin`).
 */
export type PageName = 'index' | 'paymentSuccess' | 'signIn' | 'notFound' | 'partner' | 'newPassword' | 'shell';
export interface OfferPages {
  /** Sends `page` with `offer` in it, compressed as the request accepts, with status `status`. */
  send(request: FastifyRequest, reply: FastifyReply, page: PageName, offer: Offer, status?: number): FastifyReply;
  /**
   * Sends the join page filled in with `answer` (the invitation, or why the link cannot be used), never cached: it
   * names the invitee. Without prerendered join pages (an older build), the shell.
   */
  sendJoin(request: FastifyRequest, reply: FastifyReply, offer: Offer, answer: JoinAnswer): FastifyReply;
}

/**
 * What the site is given by the referrals (server/referrals/, made once in server/app.ts): the request's referrer
 * for the page, a referral link followed from `/?ref=`, and the page templates of a build.
 */
export interface SiteReferrals {
  offer(request: FastifyRequest): Promise<OfferReferrer>;
  /** Records the referral of `slug` when it applies and redirects to `/` (302). */
  follow(request: FastifyRequest, reply: FastifyReply, slug: string): Promise<FastifyReply>;
  /**
   * Reads the page templates from `distDir` once, each carrying `limits` (server/referrals/offerPage.ts
   * `loadOfferPages`).
   */
  loadPages(distDir: string, shellFile: string, limits: PageLimits): OfferPages;
}

/** What every page carries of the server's set-up: the checkout's seat limit (MAX_SEATS). */
export interface PageLimits {
  maxSeats: number;
}

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
