/**
 * Completes a paid order, exactly once (architecture.md: finalize "creates the buyer's account exactly once").
 * Shared by finalize (call 3), which also hands out credentials, and by payment events (Stripe `invoice.paid`,
 * the sandbox's accepted confirmation, the reconciliation sweep), which only make sure the order is marked paid
 * and its account exists.
 *
 * Everything happens in one transaction with the order row locked (FOR UPDATE), so finalizes, payment events and
 * the last step of a seat change serialize on the order. The caller verified the payment with the provider before
 * the transaction; under the lock the order must still be on that subscription, with those seats and that
 * amount, or nothing is written ('changed').
 *
 * Credentials are handed out once, to the checkout that paid (docs/decisions/0026, 0008): the first finalize of an
 * account that never had a password stores the password's argon2id hash, the password and the hand-off token
 * encrypted, and the token's hash. A repeat, while that token is unredeemed, unrevoked and unexpired, answers the
 * same password and token. After that window, or once the buyer changed the password on /account, no password is
 * issued or answered again (`credentials: null`). Finalize's email must be the order's buyer's ('buyer_mismatch').
 */
import { and, eq, gt, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client';
import type { OrderListeners } from './orderListeners';
import { accounts, handoffTokens, orders } from '../db/schema';
import type { CredentialsCipher } from '../security/credentialsCipher';
import { recordFunnelEvent } from '../funnel';
import { isPaidOrder, type Order } from './order';
import { sameEmail } from './paymentBuyer';
import { sealClientSecret } from '../security/clientSecretAtRest';

/** What the caller verified with the provider: the first invoice of this subscription paid for these seats. */
export interface VerifiedPayment {
  subscriptionId: string;
  quantity: number;
  /** The amount paid for the seats, before tax, in integer cents (commissions are on it). */
  amountCents: number;
  /** The tax paid with it, in integer cents (0 untaxed): the order's quoted tax (docs/decisions/0071). */
  taxCents: number;
  /** The first invoice's id (its referrer's commission is keyed by it). */
  invoiceId?: string;
}

/** New credentials, prepared before the transaction opens (hashing is slow); used only by an account's first finalize. */
interface NewCredentials {
  password: string;
  /** argon2id hash of `password` (server/security/password.ts). */
  passwordHash: string;
  token: string;
  /** SHA-256 hex of `token` (server/security/handoffToken.ts). */
  tokenHash: string;
  /** The token's lifetime (HANDOFF_TTL_MINUTES), counted on the database clock. */
  ttlMinutes: number;
}

interface CompleteOrderInput {
  transactionId: string;
  verified: VerifiedPayment;
  /** The buyer as first recorded; a repeat keeps the details recorded first. */
  buyer: { email: string; name: string };
  /** Told of the order's activation and its first paid invoice, in the completion's transaction (./orderListeners.ts). */
  listeners: OrderListeners;
  /** The provider's billing clock, for the referrer's commission on the first payment. */
  clock?: SQL;
  /**
   * Present for finalize: hand out credentials (the first ones while their window lasts, else these when the
   * account never had any). Absent for a payment event.
   */
  issue?: { credentials: NewCredentials; cipher: CredentialsCipher };
}

/** The password and hand-off token the buyer is given. */
interface HandedCredentials {
  password: string;
  token: string;
}

type CompleteOrderResult =
  | {
      kind: 'completed';
      order: Order;
      account: { email: string; name: string };
      accountCreated: boolean;
      /**
       * With `issue`: what to hand the buyer (the same on every repeat while the first token is live); null
       * without `issue`, and once the first hand-off window has passed (nothing was issued).
       */
      credentials: HandedCredentials | null;
    }
  | { kind: 'unknown' }
  | { kind: 'cancelled' }
  /** The order moved to another subscription, or its seats or amount differ from what was verified. */
  | { kind: 'changed' }
  /** Credentials were asked for by someone other than the order's buyer (another email): nothing changed. */
  | { kind: 'buyer_mismatch' };

/**
 * Marks the order paid and creates its account if missing; with `issue`, hands out its credentials.
 * @throws database errors (nothing is committed).
 */
export async function completeOrder(db: Database | Transaction, input: CompleteOrderInput): Promise<CompleteOrderResult> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(orders).where(eq(orders.transactionId, input.transactionId)).for('update');
    if (!locked) return { kind: 'unknown' };
    if (locked.status === 'cancelled') return { kind: 'cancelled' };
    if (!matchesVerified(locked, input.verified)) return { kind: 'changed' };
    if (input.issue && locked.email !== null && !sameEmail(locked.email, input.buyer.email)) return { kind: 'buyer_mismatch' };

    const order = isPaidOrder(locked) ? locked : await markPaid(tx, locked, input.buyer);
    if (order !== locked) {
      await input.listeners.announce(tx, 'orderEvent', { kind: 'activated', transactionId: order.transactionId });
      const { verified } = input;
      const invoice = { invoiceId: verified.invoiceId ?? `first:${verified.subscriptionId}`, paymentId: order.paymentIntentId };
      const paid = { ...invoice, amountCents: verified.amountCents, seats: verified.quantity };
      await input.listeners.announce(tx, 'firstPaid', { order, invoice: paid, clock: input.clock });
    }
    const [existing] = await tx.select().from(accounts).where(eq(accounts.transactionId, order.transactionId));
    const account =
      existing ??
      (await insertAccount(tx, {
        transactionId: order.transactionId,
        email: order.email ?? input.buyer.email,
        name: order.name ?? input.buyer.name,
      }));
    const credentials = input.issue ? await handOut(tx, order.transactionId, account, input.issue) : null;
    return {
      kind: 'completed',
      order,
      account: { email: account.email, name: account.name },
      accountCreated: !existing,
      credentials,
    };
  });
}

function matchesVerified(order: Order, verified: VerifiedPayment): boolean {
  return (
    order.subscriptionId === verified.subscriptionId &&
    order.quantity === verified.quantity &&
    order.amountCents === verified.amountCents &&
    order.taxCents === verified.taxCents
  );
}

type Account = typeof accounts.$inferSelect;

async function insertAccount(tx: Transaction, values: { transactionId: string; email: string; name: string }): Promise<Account> {
  const [account] = await tx.insert(accounts).values(values).returning();
  if (!account) throw new Error(`Account insert for ${values.transactionId} returned no row`);
  return account;
}

async function markPaid(tx: Transaction, order: Order, buyer: { email: string; name: string }): Promise<Order> {
  const [paid] = await tx
    .update(orders)
    .set({
      status: 'paid',
      paidAt: new Date(),
      // The payment is made: the secret that confirms it is kept only as its hash from now on.
      clientSecret: sealClientSecret(order.clientSecret),
      email: order.email ?? buyer.email,
      name: order.name ?? buyer.name,
      updatedAt: new Date(),
    })
    .where(eq(orders.transactionId, order.transactionId))
    .returning();
  if (!paid) throw new Error(`Order ${order.transactionId} vanished while locked`);
  await recordFunnelEvent(tx, {
    type: 'paid',
    transactionId: order.transactionId,
    referrerId: order.referrerId,
    // What was charged, tax included, as renewals' and refunds' events say it: money collected adds them up.
    detail: { seats: paid.quantity, amountCents: paid.amountCents + paid.taxCents },
  });
  return paid;
}

/**
 * The credentials to hand the buyer: `issue`'s new ones, stored, when the account never had a password (the first
 * finalize); the first ones again (decrypted) while their hand-off token is unredeemed, unrevoked and unexpired;
 * otherwise null: the window has passed, the buyer changed the password on /account, or the kept copies no longer
 * decrypt (the key was replaced). Nothing is ever issued a second time (docs/decisions/0026).
 */
async function handOut(
  tx: Transaction,
  transactionId: string,
  account: Account,
  { credentials, cipher }: NonNullable<CompleteOrderInput['issue']>,
): Promise<HandedCredentials | null> {
  if (account.passwordHash === null) return issueFirst(tx, transactionId, account, credentials, cipher);
  if (!account.passwordCiphertext) return null;
  const [live] = await tx
    .select({ tokenCiphertext: handoffTokens.tokenCiphertext })
    .from(handoffTokens)
    .where(
      and(
        eq(handoffTokens.transactionId, transactionId),
        isNull(handoffTokens.redeemedAt),
        isNull(handoffTokens.revokedAt),
        isNotNull(handoffTokens.tokenCiphertext),
        gt(handoffTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return live?.tokenCiphertext ? decryptKept(cipher, transactionId, account.passwordCiphertext, live.tokenCiphertext) : null;
}

/** Stores the account's first credentials (hash, encrypted copies, the hand-off token) and answers them. */
async function issueFirst(
  tx: Transaction,
  transactionId: string,
  account: Account,
  credentials: NewCredentials,
  cipher: CredentialsCipher,
): Promise<HandedCredentials> {
  await tx
    .update(accounts)
    .set({
      passwordHash: credentials.passwordHash,
      passwordCiphertext: cipher.encrypt(credentials.password, transactionId),
      credentialsIssuedAt: new Date(),
    })
    .where(eq(accounts.id, account.id));
  await tx.insert(handoffTokens).values({
    tokenHash: credentials.tokenHash,
    tokenCiphertext: cipher.encrypt(credentials.token, transactionId),
    transactionId,
    expiresAt: sql`now() + make_interval(mins => ${credentials.ttlMinutes})`,
  });
  return { password: credentials.password, token: credentials.token };
}

/** The kept credentials, or null when they cannot be decrypted (the key was replaced): none are answered then. */
function decryptKept(cipher: CredentialsCipher, transactionId: string, password: string, token: string): HandedCredentials | null {
  try {
    return { password: cipher.decrypt(password, transactionId), token: cipher.decrypt(token, transactionId) };
  } catch {
    return null;
  }
}

/**
 * Wipes the encrypted copies of credentials whose hand-off token is no longer live (expired, revoked or
 * redeemed); only the password's argon2id hash and the token's SHA-256 stay. Run by the reconciliation sweep.
 * @returns how many tokens and accounts were wiped.
 */
export async function wipeSpentCredentials(db: Database): Promise<{ tokens: number; accounts: number }> {
  const tokens = await db
    .update(handoffTokens)
    .set({ tokenCiphertext: null })
    .where(
      and(
        isNotNull(handoffTokens.tokenCiphertext),
        sql`(${handoffTokens.expiresAt} <= now() or ${handoffTokens.redeemedAt} is not null or ${handoffTokens.revokedAt} is not null)`,
      ),
    )
    .returning({ tokenHash: handoffTokens.tokenHash });
  const wipedAccounts = await db
    .update(accounts)
    .set({ passwordCiphertext: null })
    .where(
      and(
        isNotNull(accounts.passwordCiphertext),
        sql`not exists (select 1 from ${handoffTokens} where ${handoffTokens.transactionId} = ${accounts.transactionId} and ${handoffTokens.tokenCiphertext} is not null)`,
      ),
    )
    .returning({ id: accounts.id });
  return { tokens: tokens.length, accounts: wipedAccounts.length };
}
