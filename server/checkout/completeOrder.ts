/**
 * Completes a paid order exactly once, for finalize and for payment events. One transaction with the order row
 * locked, so finalizes, payment events and a seat change's last step serialize; under the lock the order must
 * still be what the caller verified, or nothing is written ('changed'). Credentials are handed out once
 * (docs/decisions/0026, 0008).
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

export interface VerifiedPayment {
  subscriptionId: string;
  quantity: number;
  /** Before tax, in cents (commissions are on it). */
  amountCents: number;
  /** In cents (docs/decisions/0071). */
  taxCents: number;
  invoiceId?: string;
}

/** Prepared before the transaction opens (hashing is slow). */
interface NewCredentials {
  password: string;
  passwordHash: string;
  token: string;
  tokenHash: string;
  /** Counted on the database clock. */
  ttlMinutes: number;
}

interface CompleteOrderInput {
  transactionId: string;
  verified: VerifiedPayment;
  buyer: { email: string; name: string };
  listeners: OrderListeners;
  clock?: SQL;
  /** Present for finalize; absent for a payment event. */
  issue?: { credentials: NewCredentials; cipher: CredentialsCipher };
}

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
      /** Null without `issue`, or once the first hand-off window has passed: nothing is issued twice. */
      credentials: HandedCredentials | null;
    }
  | { kind: 'unknown' }
  | { kind: 'cancelled' }
  | { kind: 'changed' }
  | { kind: 'buyer_mismatch' };

/** @throws database errors (nothing is committed). */
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

/** Null when the window has passed or the kept copies no longer decrypt: nothing is issued twice (docs/decisions/0026). */
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

function decryptKept(cipher: CredentialsCipher, transactionId: string, password: string, token: string): HandedCredentials | null {
  try {
    return { password: cipher.decrypt(password, transactionId), token: cipher.decrypt(token, transactionId) };
  } catch {
    return null;
  }
}

/** Only the password's argon2id hash and the token's SHA-256 stay. @returns how many were wiped. */
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
