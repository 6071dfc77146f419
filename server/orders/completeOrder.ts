/**
 * Completes a paid order, exactly once (architecture.md: finalize "creates the buyer's account exactly once").
 * Shared by finalize (call 3), which also issues credentials, and by a payment webhook (Stripe `invoice.paid`),
 * which only makes sure the order is marked paid and the account exists. The caller has already verified the
 * payment with the provider. Everything happens in one transaction with the order row locked (FOR UPDATE),
 * so concurrent finalizes and webhooks serialize on the order. Repeat semantics: docs/decisions/0003.
 */
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import { accounts, handoffTokens, orders } from '../db/schema';
import type { Order } from './orderContext';

/** Credentials to hand the buyer with this completion: hashed before the transaction opens. */
export interface IssuedCredentials {
  /** argon2id hash of the new password (server/security/password.ts). */
  passwordHash: string;
  /** SHA-256 hex of the new hand-off token (server/security/handoffToken.ts). */
  handoffTokenHash: string;
  /** The token's lifetime (HANDOFF_TTL_MINUTES), counted on the database clock. */
  handoffTtlMinutes: number;
}

export interface CompleteOrderInput {
  transactionId: string;
  /** The buyer as first recorded; a repeat keeps the details recorded first. */
  buyer: { email: string; name: string };
  /** Present for finalize: replaces the password hash and any unredeemed hand-off token. Absent for a webhook. */
  issue?: IssuedCredentials;
}

export type CompleteOrderResult =
  | { kind: 'completed'; order: Order; account: { email: string; name: string }; accountCreated: boolean }
  | { kind: 'unknown' }
  | { kind: 'cancelled' }
  /** Credentials were asked for, but the order's hand-off token has been redeemed: nothing changed. */
  | { kind: 'already_complete' };

/** Marks the order paid and creates its account if missing; with `issue`, re-issues its credentials. */
export async function completeOrder(db: Database, input: CompleteOrderInput): Promise<CompleteOrderResult> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.transactionId, input.transactionId)).for('update');
    if (!locked) return { kind: 'unknown' };
    if (locked.status === 'cancelled') return { kind: 'cancelled' };
    if (input.issue && (await hasRedeemedToken(tx, locked.transactionId))) return { kind: 'already_complete' };

    const order = locked.status === 'paid' ? locked : await markPaid(tx, locked, input.buyer);
    const [existing] = await tx.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
    const issuedAt = input.issue ? new Date() : null;
    let account = existing;
    if (!account) {
      [account] = await tx
        .insert(accounts)
        .values({
          transactionId: order.transactionId,
          email: order.email ?? input.buyer.email,
          name: order.name ?? input.buyer.name,
          passwordHash: input.issue?.passwordHash ?? null,
          credentialsIssuedAt: issuedAt,
        })
        .returning();
    } else if (input.issue) {
      await tx
        .update(accounts)
        .set({ passwordHash: input.issue.passwordHash, credentialsIssuedAt: issuedAt })
        .where(eq(accounts.id, account.id));
    }
    if (input.issue) await replaceHandoffToken(tx, order.transactionId, input.issue);
    if (!account) throw new Error(`Account insert for ${order.transactionId} returned no row`);
    return { kind: 'completed', order, account: { email: account.email, name: account.name }, accountCreated: !existing };
  });
}

async function markPaid(tx: Transaction, order: Order, buyer: { email: string; name: string }): Promise<Order> {
  const [paid] = await tx
    .update(orders)
    .set({
      status: 'paid',
      paidAt: new Date(),
      email: order.email ?? buyer.email,
      name: order.name ?? buyer.name,
      updatedAt: new Date(),
    })
    .where(eq(orders.transactionId, order.transactionId))
    .returning();
  if (!paid) throw new Error(`Order ${order.transactionId} vanished while locked`);
  return paid;
}

async function hasRedeemedToken(tx: Transaction, transactionId: string): Promise<boolean> {
  const redeemed = await tx
    .select({ tokenHash: handoffTokens.tokenHash })
    .from(handoffTokens)
    .where(and(eq(handoffTokens.transactionId, transactionId), isNotNull(handoffTokens.redeemedAt)))
    .limit(1);
  return redeemed.length > 0;
}

/** Revokes the order's unredeemed tokens and stores the new one, expiring after the TTL on the database clock. */
async function replaceHandoffToken(tx: Transaction, transactionId: string, issue: IssuedCredentials): Promise<void> {
  await tx
    .update(handoffTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(handoffTokens.transactionId, transactionId),
        isNull(handoffTokens.redeemedAt),
        isNull(handoffTokens.revokedAt),
      ),
    );
  await tx.insert(handoffTokens).values({
    tokenHash: issue.handoffTokenHash,
    transactionId,
    expiresAt: sql`now() + make_interval(mins => ${issue.handoffTtlMinutes})`,
  });
}
