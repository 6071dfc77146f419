/**
 * Field schemas the wire contract is built from (TypeBox: each is a JSON Schema and a TypeScript type at once;
 * docs/decisions/0011). The server validates bodies with them through Fastify's Ajv, which runs without coercion
 * or removal (server/app.ts), so "3" is not a number and an unknown field is a 400.
 */
import { Type } from 'typebox';
import { MIN_SEATS } from '../domain/pricing';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../domain/textLimits';

/**
 * Text a client may send: no NUL character (PostgreSQL text and jsonb refuse it) and no unpaired UTF-16
 * surrogate (not valid Unicode; jsonb refuses it too). Ajv compiles patterns with the `u` flag, so the class
 * matches lone surrogates only and characters outside the BMP (emoji in a name) pass.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** A string of `minLength` to `maxLength` characters of plain text (PLAIN_TEXT_PATTERN). */
export function Text(minLength: number, maxLength: number) {
  return Type.String({ minLength, maxLength, pattern: PLAIN_TEXT_PATTERN });
}

/** An id we issued or the provider issued: a non-empty string of at most 255 characters of plain text. */
export const Id = Text(1, 255);

/** A UUID as PostgreSQL writes it (any version, either case): the id of a referrer, a seat or an order. */
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A UUID (UUID_PATTERN), checked before it reaches a `uuid` column, which refuses anything else with an error. */
export const Uuid = Type.String({ minLength: 36, maxLength: 36, pattern: UUID_PATTERN });

/*
 * Path parameters: a path whose id fails its schema names nothing and is answered 404 (server/http/errorHandler.ts).
 */
/** `:transactionId`, an order's id (text: a UUID for orders we opened, any plain id for older rows). */
export const TransactionIdParams = Type.Object({ transactionId: Id }, { additionalProperties: false });
/** `:id` of a `uuid` row: a referrer. */
export const UuidParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/** A seat count: an integer from MIN_SEATS (spec §4) to the server's MAX_SEATS. */
export function Seats(maxSeats: number) {
  return Type.Integer({ minimum: MIN_SEATS, maximum: maxSeats });
}

/** An email address as sent (trimmed and checked against the §5 rule by the server): 1 to 254 characters. */
export const EmailText = Text(1, EMAIL_MAX_LENGTH);

/** A buyer's name as sent (first and last name joined, spec §7): 1 to 200 characters. */
export const NameText = Text(1, NAME_MAX_LENGTH);
