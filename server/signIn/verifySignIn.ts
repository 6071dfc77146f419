/**
 * Checks a sign-in to /sign-in with the same work whatever the email: an unknown one is verified against a decoy hash
 * of the buyers' parameters, so timing tells no one which emails have a login.
 */
import { verify } from '@node-rs/argon2';
import type { Database } from '../db/client';
import { hashPassword } from '../security/password';
import { findPersonByEmail, maySignIn, type Person } from './people';

let decoyHash: Promise<string> | undefined;

/** 'wrong' is the same for an unknown email and a wrong password. */
type SignInCheck = { outcome: 'signed_in'; person: Person } | { outcome: 'no_access'; person: Person } | { outcome: 'wrong' };

/** Past due signs in (the status claim tells the platform); a revoked seat or ended subscription is 'no_access'. */
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
