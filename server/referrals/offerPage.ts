/**
 * The offer page with its referrer and the owner's content (docs/decisions/0017, 0030): the build's placeholders
 * (scripts/prerender.ts) are replaced, HTML-escaped, an empty testimonial slot `hidden`, and the same data goes in as
 * JSON for the page the browser draws, so nothing else ever flashes. Each (page, referrer, content) is rendered and
 * compressed once.
 */
import { Negotiator } from '@fastify/accept-negotiator';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CONTENT_PLACEHOLDERS,
  OFFER_CONTENT_ELEMENT_ID,
  TESTIMONIAL_SLOT_ATTRIBUTE,
  TESTIMONIALS_SECTION_ATTRIBUTE,
  testimonialPlaceholders,
} from '../../src/domain/offerContent';
import { JOIN_ANSWER_ELEMENT_ID, JOIN_PLACEHOLDERS, type JoinAnswer } from '../../src/domain/joinPage';
import { OFFER_REFERRER_ELEMENT_ID, REFERRER_PLACEHOLDERS } from '../../src/domain/offerReferrer';
import { CHECKOUT_LIMITS_ELEMENT_ID } from '../../src/domain/pricing';
import { escapeHtml } from '../http/escapeHtml';
import type { Offer, OfferPages, PageLimits, PageName } from '../http/staticSite';

const HEAD_END = '</head>';
/** Beyond this the oldest is dropped. */
const CACHE_ENTRIES = 256;

/** `<` never appears raw, so `</script>` cannot end it. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const jsonElement = (id: string, value: unknown) => `<script id="${id}" type="application/json">${scriptJson(value)}</script>`;

/**
 * Every fill is a function replacement: a replacement string would read `$&` or `$1` in a referrer's text as
 * patterns.
 */
function fillTemplate(template: string, { referrer, content }: Offer, limitsElement: string, join?: JoinAnswer): string {
  const json =
    jsonElement(OFFER_REFERRER_ELEMENT_ID, referrer) +
    jsonElement(OFFER_CONTENT_ELEMENT_ID, content) +
    limitsElement +
    (join ? jsonElement(JOIN_ANSWER_ELEMENT_ID, join) : '');
  let page = join ? fillJoinAnswer(template, join) : template;
  page = page
    .replaceAll(REFERRER_PLACEHOLDERS.name, () => escapeHtml(referrer.name))
    .replaceAll(REFERRER_PLACEHOLDERS.quote, () => escapeHtml(referrer.quote))
    .replaceAll(REFERRER_PLACEHOLDERS.shortLabel, () => escapeHtml(referrer.shortLabel))
    .replaceAll(CONTENT_PLACEHOLDERS.guarantee, () => escapeHtml(content.guarantee));
  CONTENT_PLACEHOLDERS.testimonials.forEach((_, index) => {
    const testimonial = content.testimonials[index];
    const placeholders = testimonialPlaceholders(index);
    for (const field of ['name', 'practice', 'quote'] as const)
      page = page.replaceAll(placeholders[field], () => (testimonial ? escapeHtml(testimonial[field]) : ''));
    if (!testimonial)
      page = page.replaceAll(`${TESTIMONIAL_SLOT_ATTRIBUTE}="${index}"`, () => `${TESTIMONIAL_SLOT_ATTRIBUTE}="${index}" hidden`);
  });
  if (content.testimonials.length === 0)
    page = page.replaceAll(`${TESTIMONIALS_SECTION_ATTRIBUTE}=""`, () => `${TESTIMONIALS_SECTION_ATTRIBUTE}="" hidden`);
  return page.replace(HEAD_END, () => `${json}${HEAD_END}`);
}

function fillJoinAnswer(template: string, join: JoinAnswer): string {
  if ('problem' in join) return template.replaceAll(JOIN_PLACEHOLDERS.problem, () => escapeHtml(join.problem));
  let page = template;
  for (const field of ['email', 'name', 'invitedBy', 'practiceName', 'productName', 'expiresAt'] as const)
    page = page.replaceAll(JOIN_PLACEHOLDERS[field], () => escapeHtml(join.invitation[field]));
  return page;
}

type Encoding = 'br' | 'gzip';

interface RenderedPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export function loadOfferPages(distDir: string, shellFile: string, limits: PageLimits): OfferPages {
  const limitsElement = jsonElement(CHECKOUT_LIMITS_ELEMENT_ID, limits);
  const read = (file: string) => readFileSync(join(distDir, file), 'utf8');
  const shell = read(shellFile);
  const orShell = (file: string) => (existsSync(join(distDir, file)) ? read(file) : shell);
  const templates: Record<PageName, string> = {
    index: read('index.html'),
    paymentSuccess: orShell('payment-success.html'),
    signIn: orShell('sign-in.html'),
    newPassword: orShell('new-password.html'),
    notFound: orShell('404.html'),
    partner: orShell('partner.html'),
    shell,
  };
  const joinPages = existsSync(join(distDir, 'join-problem.html'))
    ? { invitation: read('join.html'), problem: read('join-problem.html') }
    : undefined;
  const cache = new Map<string, RenderedPage>();
  const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });
  const encode = (identity: Buffer, encoding: Encoding | null): Buffer =>
    encoding === 'br'
      ? brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
      : encoding === 'gzip'
        ? gzipSync(identity, { level: 9 })
        : identity;
  const compress = (html: string): RenderedPage => {
    const identity = Buffer.from(html);
    return { identity, br: encode(identity, 'br'), gzip: encode(identity, 'gzip') };
  };
  const render = (page: PageName, offer: Offer): RenderedPage => {
    const key = JSON.stringify([page, offer]);
    const cached = cache.get(key);
    if (cached) return cached;
    const rendered = compress(fillTemplate(templates[page], offer, limitsElement));
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, rendered);
    return rendered;
  };
  const cached = (rendered: RenderedPage) => (encoding: Encoding | null) => (encoding ? rendered[encoding] : rendered.identity);
  const sendPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    body: (encoding: Encoding | null) => Buffer,
    status: number,
    cacheControl: string,
  ) => {
    const accepted = request.headers['accept-encoding'];
    const encoding = typeof accepted === 'string' ? encodings.negotiate(accepted) : null;
    reply
      .code(status)
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', cacheControl)
      .header('Vary', 'Accept-Encoding, Cookie');
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(body(encoding));
  };
  return {
    send(request, reply, page, offer, status = 200) {
      return sendPage(request, reply, cached(render(page, offer)), status, 'no-cache');
    },
    sendJoin(request, reply, offer, answer) {
      if (!joinPages) return sendPage(request, reply, cached(render('shell', offer)), 200, 'no-store');
      // Never cached, so only the encoding this request takes is made.
      const identity = Buffer.from(
        fillTemplate('problem' in answer ? joinPages.problem : joinPages.invitation, offer, limitsElement, answer),
      );
      return sendPage(request, reply, (encoding) => encode(identity, encoding), 200, 'no-store');
    },
  };
}
