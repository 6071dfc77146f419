/**
 * Referral links (docs/decisions/0017-referral-attribution.md): `/r/{slug}` and `/?ref={slug}` record the
 * referral in the visitor's cookie and redirect to `/`. The first link followed wins for REFERRAL_WINDOW_DAYS;
 * a cookie that names a disabled referrer or has expired is replaced. An unknown or disabled slug is logged and
 * leads to the default offer, never to an error page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { SLUG_PATTERN, type OfferReferrer } from '../../src/contract/admin';
import { readReferral, writeReferral } from './referralCookie';
import { findActiveReferrer, offerReferrerOf, type ReferrerRow } from './referrers';

/** What the offer page and the checkout calls need of referrals. */
export interface ReferralLinks {
  /** Records the referral of `slug` when it applies and redirects to `/` (302). */
  follow(request: FastifyRequest, reply: FastifyReply, slug: string): Promise<FastifyReply>;
  /**
   * The active referrer of the request's referral cookie (the order's attribution), or null: no cookie, expired,
   * forged, the referrer disabled, or the referrers unreadable (logged).
   */
  attributed(request: FastifyRequest): Promise<ReferrerRow | null>;
  /**
   * What the page names: the attributed referrer, else DEFAULT_REFERRER_SLUG's; when that cannot be read (or is
   * missing), the default last read by this process, so a visitor never meets the seeded placeholder once the
   * owner named a real one (docs/decisions/0062); before any, the compiled-in sample. The page never fails for
   * want of a referrer.
   */
  offer(request: FastifyRequest): Promise<OfferReferrer>;
}

const SLUG = new RegExp(SLUG_PATTERN);

/** Whether `slug` has a referral slug's shape (src/contract/admin.ts Slug: 2-40 characters of SLUG_PATTERN). */
const isSlug = (slug: string) => slug.length >= 2 && slug.length <= 40 && SLUG.test(slug);

type ReferralConfig = Pick<Config, 'REFERRAL_WINDOW_DAYS' | 'DEFAULT_REFERRER_SLUG'>;

/** Referral links on `db` with `config`'s window and default referrer. */
export function referralLinks(db: Database, config: ReferralConfig): ReferralLinks {
  const cookieReferrer = async (request: FastifyRequest): Promise<ReferrerRow | null> => {
    const referral = readReferral(request, config.REFERRAL_WINDOW_DAYS);
    return (referral && (await findActiveReferrer(db, referral.slug))) || null;
  };
  /** The default referrer as last read, for the moments it cannot be read. */
  let lastDefault: OfferReferrer | null = null;
  const unreadable = <T>(request: FastifyRequest, error: unknown, fallback: T): T => {
    request.log.error({ err: error }, 'Could not read the referrer; showing the default last read (or the sample) and attributing no one');
    return fallback;
  };
  return {
    async follow(request, reply, slug) {
      // Only a slug's shape reaches the database: anything else (a NUL, 5 KB of text) names no one.
      const referrer = isSlug(slug) ? await findActiveReferrer(db, slug) : undefined;
      if (!referrer) {
        request.log.warn({ slug: slug.slice(0, 64) }, 'Referral link to an unknown or disabled referrer; showing the default offer');
        return reply.redirect('/', 302);
      }
      const current = readReferral(request, config.REFERRAL_WINDOW_DAYS);
      const currentIsActive = current && (current.slug === slug || (await findActiveReferrer(db, current.slug)));
      if (!currentIsActive) writeReferral(reply, referrer.slug, config.REFERRAL_WINDOW_DAYS, request.protocol === 'https');
      return reply.header('Cache-Control', 'no-store').redirect('/', 302);
    },
    attributed: (request) => cookieReferrer(request).catch((error: unknown) => unreadable(request, error, null)),
    async offer(request) {
      try {
        const attributed = await cookieReferrer(request);
        if (attributed) return offerReferrerOf(attributed);
        const fallback = await findActiveReferrer(db, config.DEFAULT_REFERRER_SLUG);
        if (fallback) lastDefault = offerReferrerOf(fallback);
        return lastDefault ?? offerReferrerOf(undefined);
      } catch (error) {
        return unreadable(request, error, lastDefault ?? offerReferrerOf(undefined));
      }
    },
  };
}
