/**
 * AES-256-GCM (NIST SP 800-38D; docs/decisions/0008); the transactionId as associated data, so a ciphertext copied
 * onto another order does not decrypt. Stored as `v1.` + base64url(iv ‖ ciphertext ‖ tag).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const CREDENTIALS_KEY_BYTES = 32;

export interface CredentialsCipher {
  encrypt(plaintext: string, transactionId: string): string;
  /** @throws Error when the value is malformed, of another key or of another order. */
  decrypt(stored: string, transactionId: string): string;
}

/** @throws RangeError when the key is not 32 bytes long. */
export function createCredentialsCipher(key: Buffer): CredentialsCipher {
  if (key.length !== CREDENTIALS_KEY_BYTES) {
    throw new RangeError(`The credentials key must be ${CREDENTIALS_KEY_BYTES} bytes, got ${key.length}`);
  }
  return {
    encrypt(plaintext, transactionId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(transactionId, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    decrypt(stored, transactionId) {
      if (!stored.startsWith(VERSION)) throw new Error('Unknown credentials ciphertext format');
      const raw = Buffer.from(stored.slice(VERSION.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Credentials ciphertext is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(transactionId, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

/** CREDENTIALS_KEY: 64 hex digits, or 32 bytes in base64(url); null otherwise. */
export function parseCredentialsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/\+/g, '-').replace(/\//g, '_').replace(/=$/, ''), 'base64url');
    return key.length === CREDENTIALS_KEY_BYTES ? key : null;
  }
  return null;
}
