/**
 * The buyer's generated password (spec §6: "a password supplied by the server"): 20 characters over 62 letters
 * and digits (about 119 bits), shown once in the finalize response and stored only as an argon2id hash.
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomAlphanumeric } from './randomText';

/** Length of a generated password; the brief's floor is 16. */
export const PASSWORD_LENGTH = 20;

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolatedModules cannot read). */
const ARGON2ID = 2 as Algorithm;

/** A fresh random password of PASSWORD_LENGTH letters and digits. */
export function generatePassword(): string {
  return randomAlphanumeric(PASSWORD_LENGTH);
}

/** The argon2id PHC string for `password` ("$argon2id$v=19$m=19456,t=2,p=1$…", OWASP's minimum parameters). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
}

/** True when `password` matches the stored argon2 `passwordHash`. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}
