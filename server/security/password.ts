/**
 * The buyer's generated password (spec §6: "a password supplied by the server"): 20 characters drawn uniformly
 * from 62 letters and digits by the CSPRNG, about 119 bits, shown in the finalize response and stored as an
 * argon2id hash (plus, until the hand-off, encrypted: docs/decisions/0008).
 *
 * The hash's cost is low on purpose (docs/decisions/0010): a KDF's work factor protects guessable, human-chosen
 * passwords; against a uniformly random 119-bit secret no work factor adds anything an attacker could notice,
 * while OWASP's interactive parameters (19 MiB, 2 passes: 27 ms here) were most of a purchase's CPU. A password
 * a person chooses (the owner's, a member's new one: docs/decisions/0039) is hashed with OWASP's parameters.
 */
import { hash, type Algorithm } from '@node-rs/argon2';
import { randomAlphanumeric } from './randomText';

/** Length of a generated password: 20 × log2(62) ≈ 119 bits. */
const PASSWORD_LENGTH = 20;

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, which isolatedModules cannot read). */
const ARGON2ID = 2 as Algorithm;

/** argon2id parameters for high-entropy generated secrets: 1 MiB, one pass (0.8 ms on this machine). */
const GENERATED_PASSWORD_HASH = { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

/** A fresh random password of PASSWORD_LENGTH letters and digits. */
export function generatePassword(): string {
  return randomAlphanumeric(PASSWORD_LENGTH);
}

/** The argon2id PHC string for a generated `password` ("$argon2id$v=19$m=1024,t=1,p=1$…"). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, GENERATED_PASSWORD_HASH);
}

/** OWASP Password Storage Cheat Sheet's argon2id parameters for human-chosen passwords: 19 MiB, 2 passes, 1 lane. */
const CHOSEN_PASSWORD_HASH = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The argon2id PHC string for a `password` a person chose ("$argon2id$v=19$m=19456,t=2,p=1$…"), decision 0010. */
export function hashChosenPassword(password: string): Promise<string> {
  return hash(password, CHOSEN_PASSWORD_HASH);
}
