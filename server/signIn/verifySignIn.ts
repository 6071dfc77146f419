/**
 * Checks a sign-in to /sign-in: the person with that email and their argon2id password hash
 * (server/signIn/people.ts). The same work whatever the email: an unknown email, or a person without a password,
 * is verified against a decoy hash made with the same parameters as the buyers' (server/security/password.ts),
 * so the answer's timing does not tell which emails have a login.
 */
import { verify } from '@node-rs/argon2';
import type { Database } from '../db/client';
import { hashPassword } from '../security/password';
import { findPersonByEmail, maySignIn, type Person } from './people';

/** The hash an unknown email's password is verified against. */
let decoyHash: Promise<string> | undefined;

/** What a sign-in comes to: the person, or why not. 'wrong' is the same for an unknown email and a wrong password. */
type SignInCheck = { outcome: 'signed_in'; person: Person } | { outcome: 'no_access'; person: Person } | { outcome: 'wrong' };

/**
 * Verifies `password` for `email`. A right password of a person whose seat was revoked or whose subscription
 * ended (cancelled, refunded) is 'no_access'; past due signs in (the status claim tells the platform).
 */
export async function verifySignIn(db: Database, email: string, password: string): Promise<SignInCheck> {
  const person = await findPersonByEmail(db, email);
  if (!person?.passwordHash) {
    decoyHash ??= hashPassword('decoy password for unknown emails');
    await verify(await decoyHash, password).catch(() => false);
    return { outcome: 'wrong' };
  }
  const valid = await verify(person.passwordHash, password).catch(() => false);
  if (!valid) return { outcome: 'wrong' };
  return maySignIn(person) ? { outcome: 'signed_in', person } : { outcome: 'no_access', person };
}
