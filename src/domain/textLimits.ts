/**
 * The longest text the server takes in the buyer's free-text fields, in characters: the route schemas
 * (src/contract/) are built from these, and the browser's fields hold to the same numbers (src/views/shared/
 * fieldLimits.ts) without loading the schemas.
 */

/** An email address (RFC 5321's 254). */
export const EMAIL_MAX_LENGTH = 254;

/** A person's name as sent (the checkout's first and last name joined, spec §7). */
export const NAME_MAX_LENGTH = 200;

/** Why the buyer cancels (optional). */
export const CANCEL_REASON_MAX_LENGTH = 500;
