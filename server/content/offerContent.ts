/**
 * The offer's content as data (src/domain/offerContent.ts; docs/decisions/0030): the testimonials and the guarantee
 * the owner writes in the console, read for every offer page the server sends (server/referrals/offerPage.ts).
 */
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { OfferContentBody } from '../../src/contract/admin';
import { DEFAULT_OFFER_CONTENT, type OfferContent } from '../../src/domain/offerContent';
import type { Database } from '../db/client';
import { offerContent } from '../db/schema';

/** The offer's content: the saved row, or DEFAULT_OFFER_CONTENT (no testimonials) before the first save. */
export async function readOfferContent(db: Database): Promise<OfferContent> {
  const [row] = await db.select().from(offerContent);
  return row ? { testimonials: row.testimonials, guarantee: row.guarantee } : DEFAULT_OFFER_CONTENT;
}

/** Whether the owner has saved the offer's content at least once (the guarantee then is theirs, not the built-in text). */
export async function offerContentSaved(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: offerContent.id }).from(offerContent);
  return row !== undefined;
}

/**
 * Replaces the offer's content with `body` (validated by OfferContentBody: 0 to 3 testimonials), every text
 * trimmed, in one statement (insert or update the one row). Answers what is now saved.
 */
export async function saveOfferContent(db: Database, body: OfferContentBody): Promise<OfferContent> {
  const content: OfferContent = {
    testimonials: body.testimonials.map(({ name, practice, quote }) => ({
      name: name.trim(),
      practice: practice.trim(),
      quote: quote.trim(),
    })),
    guarantee: body.guarantee.trim(),
  };
  await db
    .insert(offerContent)
    .values({ id: 1, ...content })
    .onConflictDoUpdate({ target: offerContent.id, set: { ...content, updatedAt: sql`now()` } });
  return content;
}

/**
 * The content each offer page shows, read from `db`; when it cannot be read the error is logged and the page shows
 * DEFAULT_OFFER_CONTENT (the page never fails for want of it).
 */
export function pageContentOf(db: Database): (request: FastifyRequest) => Promise<OfferContent> {
  return (request) =>
    readOfferContent(db).catch((error: unknown) => {
      request.log.error({ err: error }, "Could not read the offer's content; showing the default");
      return DEFAULT_OFFER_CONTENT;
    });
}
