/**
 * The business owner's console accounts: an email and a human-chosen password, kept as an argon2id hash with
 * OWASP's parameters for interactive logins (19 MiB, 2 passes, 1 lane; OWASP Password Storage Cheat Sheet).
 * Created with `npm run owner:create` (scripts/owner-create.ts).
 */
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { owners } from '../db/schema';
import { endOwnerSessions } from '../sessions/sessions';
import { hashChosenPassword } from '../security/password';
import { normalEmail } from '../signIn';

/** A password shorter than this is refused (NIST SP 800-63B: at least 8; we ask for more of an owner). */
const MIN_OWNER_PASSWORD_LENGTH = 12;

/** Verified against for an unknown email, so a sign-in takes as long whether or not the email exists. */
let decoyHash: Promise<string> | undefined;

/** Why an owner could not be created. */
export class OwnerInputError extends Error {}

/**
 * Creates the owner `email` with `password`, or sets a new password when that owner exists; a new password ends
 * every console session of that owner (whoever knew the old one is signed out).
 * @throws OwnerInputError for an email without '@' or a password shorter than MIN_OWNER_PASSWORD_LENGTH.
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

/** The owner whose email and password these are, or null (same work either way). */
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

/** The email of owner `id`, or undefined when there is no such owner. */
export async function ownerEmail(db: Database, id: string): Promise<string | undefined> {
  const [owner] = await db.select({ email: owners.email }).from(owners).where(eq(owners.id, id));
  return owner?.email;
}
