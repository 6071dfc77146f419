/**
 * JSON-schema pieces shared by the route bodies. Bodies are closed (`additionalProperties: false`) and Ajv runs
 * without coercion or removal (server/app.ts), so "3" is not a number and an unknown field is a 400.
 */

/**
 * Text a client may send: no NUL character (PostgreSQL text and jsonb refuse it) and no unpaired UTF-16
 * surrogate (not valid Unicode; jsonb refuses it too). Ajv compiles patterns with the `u` flag, so the class
 * matches lone surrogates only and characters outside the BMP (emoji in a name) pass.
 */
export const PLAIN_TEXT_PATTERN = '^[^\\u0000\\uD800-\\uDFFF]*$';

/** A string of `minLength` to `maxLength` characters of plain text (PLAIN_TEXT_PATTERN). */
export function text(minLength: number, maxLength: number) {
  return { type: 'string', minLength, maxLength, pattern: PLAIN_TEXT_PATTERN } as const;
}

/** An id we issued or the provider issued: a non-empty string of at most 255 characters of plain text. */
export const idString = text(1, 255);

/** A closed object schema with every listed property required. */
export function closedObject(properties: Record<string, object>) {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties } as const;
}
