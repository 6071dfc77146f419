/**
 * The offer page with its referrer (docs/decisions/0017-referral-attribution.md). The build leaves placeholders
 * where the referrer's name and quote go (scripts/prerender.ts); each page the server sends has them replaced,
 * HTML-escaped, and carries the same referrer as JSON in `<script id="offer-referrer">` for the browser to
 * hydrate with, so no other referrer ever flashes. Each (page, referrer) pair is rendered and compressed once.
 */
import { Negotiator } from '@fastify/accept-negotiator';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OfferReferrer } from '../../src/contract/admin';
import { OFFER_REFERRER_ELEMENT_ID, REFERRER_PLACEHOLDERS } from '../../src/domain/offerReferrer';
import { escapeHtml } from '../http/escapeHtml';

/** Where the page's referrer JSON goes: before `</head>`. */
const HEAD_END = '</head>';
/** Rendered pages kept; beyond this the oldest is dropped. */
const CACHE_ENTRIES = 256;

/** JSON safe inside a `<script>` element: `<` never appears raw, so `</script>` cannot end it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The page `template` with `referrer` in it. Every fill is a function replacement: a replacement string would read
 * `$&`, `` $` ``, `$'`, `$1` or `$$` in a referrer's text as patterns and copy parts of the template into the page.
 */
function fillTemplate(template: string, referrer: OfferReferrer): string {
  const json = `<script id="${OFFER_REFERRER_ELEMENT_ID}" type="application/json">${scriptJson(referrer)}</script>`;
  const name = escapeHtml(referrer.name);
  const quote = escapeHtml(referrer.quote);
  const shortLabel = escapeHtml(referrer.shortLabel);
  return template
    .replaceAll(REFERRER_PLACEHOLDERS.name, () => name)
    .replaceAll(REFERRER_PLACEHOLDERS.quote, () => quote)
    .replaceAll(REFERRER_PLACEHOLDERS.shortLabel, () => shortLabel)
    .replace(HEAD_END, () => `${json}${HEAD_END}`);
}

interface RenderedPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The HTML pages of the built SPA (scripts/prerender.ts): `index` is `/` prerendered, `paymentSuccess` the
 * success page's loading state, `join` the join page's, `notFound` the 404 page, `shell` the empty page every other route starts from.
 */
type PageName = 'index' | 'paymentSuccess' | 'join' | 'notFound' | 'shell';
interface OfferPages {
  /** Sends `page` with `referrer` in it, compressed as the request accepts, with status `status`. */
  send(request: FastifyRequest, reply: FastifyReply, page: PageName, referrer: OfferReferrer, status?: number): FastifyReply;
}

/** Reads the page templates from `distDir` once; a page the build did not prerender is the shell. */
export function loadOfferPages(distDir: string, shellFile: string): OfferPages {
  const read = (file: string) => readFileSync(join(distDir, file), 'utf8');
  const shell = read(shellFile);
  const orShell = (file: string) => (existsSync(join(distDir, file)) ? read(file) : shell);
  const templates: Record<PageName, string> = {
    index: read('index.html'),
    paymentSuccess: orShell('payment-success.html'),
    join: orShell('join.html'),
    notFound: orShell('404.html'),
    shell,
  };
  const cache = new Map<string, RenderedPage>();
  const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });
  const render = (page: PageName, referrer: OfferReferrer): RenderedPage => {
    const key = JSON.stringify([page, referrer]);
    const cached = cache.get(key);
    if (cached) return cached;
    const identity = Buffer.from(fillTemplate(templates[page], referrer));
    const rendered = {
      identity,
      br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: gzipSync(identity, { level: 9 }),
    };
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, rendered);
    return rendered;
  };
  return {
    send(request, reply, page, referrer, status = 200) {
      const rendered = render(page, referrer);
      const accepted = request.headers['accept-encoding'];
      const encoding = typeof accepted === 'string' ? encodings.negotiate(accepted) : null;
      reply
        .code(status)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Accept-Encoding, Cookie');
      if (encoding) reply.header('Content-Encoding', encoding);
      return reply.send(encoding ? rendered[encoding] : rendered.identity);
    },
  };
}
