/**
 * JSON-schema pieces shared by the route bodies. Bodies are closed (`additionalProperties: false`) and Ajv runs
 * without coercion or removal (server/app.ts), so "3" is not a number and an unknown field is a 400.
 */

/** An id we issued or the provider issued: a non-empty string of at most 255 characters. */
export const idString = { type: 'string', minLength: 1, maxLength: 255 } as const;

/** A closed object schema with every listed property required. */
export function closedObject(properties: Record<string, object>) {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties), properties } as const;
}
