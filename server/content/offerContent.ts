/** The offer's testimonials and guarantee as the owner writes them (docs/decisions/0030). */
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { OfferContentBody } from '../../src/contract/admin';
import { DEFAULT_OFFER_CONTENT, type OfferContent } from '../../src/domain/offerContent';
import type { Database } from '../db/client';
import { offerContent } from '../db/schema';

/** DEFAULT_OFFER_CONTENT before the first save. */
export async function readOfferContent(db: Database): Promise<OfferContent> {
  const [row] = await db.select().from(offerContent);
  return row ? { testimonials: row.testimonials, guarantee: row.guarantee } : DEFAULT_OFFER_CONTENT;
}

/** The guarantee then is the owner's, not the built-in text. */
export async function offerContentSaved(db: Database): Promise<boolean> {
  const [row] = await db.select({ id: offerContent.id }).from(offerContent);
  return row !== undefined;
}

/** Every text trimmed, in one statement. Answers what is now saved. */
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

/** When it cannot be read, logged and DEFAULT_OFFER_CONTENT: the page never fails for want of it. */
export function pageContentOf(db: Database): (request: FastifyRequest) => Promise<OfferContent> {
  return (request) =>
    readOfferContent(db).catch((error: unknown) => {
      request.log.error({ err: error }, "Could not read the offer's content; showing the default");
      return DEFAULT_OFFER_CONTENT;
    });
}
