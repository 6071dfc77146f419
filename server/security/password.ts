/** Generated passwords carry about 119 bits, so a cheap argon2id suffices (spec §6; docs/decisions/0010). */
import { hash, type Algorithm } from '@node-rs/argon2';
import { randomAlphanumeric } from './randomText';

const PASSWORD_LENGTH = 20;

/** A const enum, which isolatedModules cannot read. */
const ARGON2ID = 2 as Algorithm;

/** 1 MiB, one pass. */
const GENERATED_PASSWORD_HASH = { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

export function generatePassword(): string {
  return randomAlphanumeric(PASSWORD_LENGTH);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, GENERATED_PASSWORD_HASH);
}

/** OWASP Password Storage Cheat Sheet: 19 MiB, 2 passes, 1 lane. */
const CHOSEN_PASSWORD_HASH = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashChosenPassword(password: string): Promise<string> {
  return hash(password, CHOSEN_PASSWORD_HASH);
}
