/**
 * Referral links (docs/decisions/0017): `/r/{slug}` and `/?ref={slug}` set the cookie and redirect to `/`. The first
 * link wins for REFERRAL_WINDOW_DAYS; an unknown or disabled slug leads to the default offer, never an error page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { SLUG_PATTERN, type OfferReferrer } from '../../src/contract/admin';
import { readReferral, writeReferral } from './referralCookie';
import { findActiveReferrer, offerReferrerOf, type ReferrerRow } from './referrers';

export interface ReferralLinks {
  follow(request: FastifyRequest, reply: FastifyReply, slug: string): Promise<FastifyReply>;
  /** Null when no cookie, expired, forged, the referrer disabled, or the referrers unreadable (logged). */
  attributed(request: FastifyRequest): Promise<ReferrerRow | null>;
  /**
   * The attributed referrer, else the default; when that cannot be read, the default last read, so a visitor never
   * meets the seeded placeholder once the owner named one (docs/decisions/0062). The page never fails for want of a
   * referrer.
   */
  offer(request: FastifyRequest): Promise<OfferReferrer>;
}

const SLUG = new RegExp(SLUG_PATTERN);

/** src/contract/admin.ts Slug */
const isSlug = (slug: string) => slug.length >= 2 && slug.length <= 40 && SLUG.test(slug);

type ReferralConfig = Pick<Config, 'REFERRAL_WINDOW_DAYS' | 'DEFAULT_REFERRER_SLUG'>;

export function referralLinks(db: Database, config: ReferralConfig): ReferralLinks {
  const cookieReferrer = async (request: FastifyRequest): Promise<ReferrerRow | null> => {
    const referral = readReferral(request, config.REFERRAL_WINDOW_DAYS);
    return (referral && (await findActiveReferrer(db, referral.slug))) || null;
  };
  let lastDefault: OfferReferrer | null = null;
  const unreadable = <T>(request: FastifyRequest, error: unknown, fallback: T): T => {
    request.log.error({ err: error }, 'Could not read the referrer; showing the default last read (or the sample) and attributing no one');
    return fallback;
  };
  return {
    async follow(request, reply, slug) {
      // Only a slug's shape reaches the database: a NUL or 5 KB of text names no one.
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
