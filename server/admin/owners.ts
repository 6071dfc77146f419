/** The owners' console accounts (`npm run owner:create`): a chosen password as argon2id with OWASP's parameters. */
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { owners } from '../db/schema';
import { endOwnerSessions } from '../sessions/sessions';
import { hashChosenPassword } from '../security/password';
import { normalEmail } from '../signIn';

/** NIST SP 800-63B asks at least 8; we ask more of an owner. */
const MIN_OWNER_PASSWORD_LENGTH = 12;

/** Verified against for an unknown email, so a sign-in takes as long either way. */
let decoyHash: Promise<string> | undefined;

export class OwnerInputError extends Error {}

/**
 * A new password ends the owner's console sessions. @throws OwnerInputError for an email without '@' or a short
 * password.
 */
export async function saveOwner(db: Database, email: string, password: string): Promise<'created' | 'updated'> {
  const address = normalEmail(email);
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) throw new OwnerInputError(`Not an email address: ${email}`);
  if (password.length < MIN_OWNER_PASSWORD_LENGTH) {
    throw new OwnerInputError(`The password must have at least ${MIN_OWNER_PASSWORD_LENGTH} characters`);
  }
  const passwordHash = await hashChosenPassword(password);
  const [existing] = await db.select({ id: owners.id }).from(owners).where(eq(owners.email, address));
  if (existing) {
    await db.transaction(async (tx) => {
      await tx.update(owners).set({ passwordHash }).where(eq(owners.id, existing.id));
      await endOwnerSessions(tx, existing.id);
    });
    return 'updated';
  }
  await db.insert(owners).values({ email: address, passwordHash });
  return 'created';
}

/** Null; the same work either way. */
export async function verifyOwner(db: Database, email: string, password: string): Promise<{ id: string; email: string } | null> {
  const [owner] = await db
    .select()
    .from(owners)
    .where(eq(owners.email, normalEmail(email)));
  if (!owner) {
    decoyHash ??= hashChosenPassword('decoy password for unknown owners');
    await verify(await decoyHash, password).catch(() => false);
    return null;
  }
  const valid = await verify(owner.passwordHash, password).catch(() => false);
  return valid ? { id: owner.id, email: owner.email } : null;
}

export async function ownerEmail(db: Database, id: string): Promise<string | undefined> {
  const [owner] = await db.select({ email: owners.email }).from(owners).where(eq(owners.id, id));
  return owner?.email;
}
