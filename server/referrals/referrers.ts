/** Referrers as data (docs/decisions/0017), seeded with the sample referrer so a fresh `npm start` shows an offer. */
import { asc, eq, sql } from 'drizzle-orm';
import type { CreateReferrerRequest, OfferReferrer, Referrer, UpdateReferrerRequest } from '../../src/contract/admin';
import { sampleReferrer } from '../../src/domain/offerReferrer';
import type { Database } from '../db/client';
import { referrers } from '../db/schema';

export type ReferrerRow = typeof referrers.$inferSelect;

const SAMPLE_SLUG = 'sample';

/**
 * On first start; processes starting together insert it once (the slug is unique). Referrers are never deleted, so an
 * owner's edits are never undone.
 */
export async function seedReferrers(db: Database): Promise<void> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(referrers);
  if ((row?.n ?? 0) > 0) return;
  await db
    .insert(referrers)
    .values({ slug: SAMPLE_SLUG, displayName: sampleReferrer.name, shortLabel: sampleReferrer.shortLabel, quote: sampleReferrer.quote })
    .onConflictDoNothing();
}

export async function findActiveReferrer(db: Database, slug: string): Promise<ReferrerRow | undefined> {
  const [row] = await db.select().from(referrers).where(eq(referrers.slug, slug));
  return row?.status === 'active' ? row : undefined;
}

/** Provider metadata names referrers by slug. */
export async function referrerSlugOf(db: Database, id: string | null): Promise<string | undefined> {
  if (!id) return undefined;
  const [row] = await db.select({ slug: referrers.slug }).from(referrers).where(eq(referrers.id, id));
  return row?.slug;
}

export function offerReferrerOf(row: ReferrerRow | undefined): OfferReferrer {
  if (!row) return { name: sampleReferrer.name, shortLabel: sampleReferrer.shortLabel, quote: sampleReferrer.quote };
  return { name: row.displayName, shortLabel: row.shortLabel, quote: row.quote };
}

export function listReferrers(db: Database): Promise<ReferrerRow[]> {
  return db.select().from(referrers).orderBy(asc(referrers.createdAt), asc(referrers.slug));
}

export function referrerJson(row: ReferrerRow): Referrer {
  return { ...row, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

/** Undefined when the slug is taken. */
export async function createReferrer(db: Database, values: CreateReferrerRequest): Promise<ReferrerRow | undefined> {
  const [created] = await db.insert(referrers).values(values).onConflictDoNothing({ target: referrers.slug }).returning();
  return created;
}

/** Undefined for no such referrer (or an `id` that is no UUID). */
export async function updateReferrer(db: Database, id: string, changes: UpdateReferrerRequest): Promise<ReferrerRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [updated] = await db
    .update(referrers)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(referrers.id, id))
    .returning();
  return updated;
}
