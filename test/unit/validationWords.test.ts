import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeValidation } from '../../server/http/validationWords';
import { PLAIN_TEXT_PATTERN } from '../../src/contract/fields';

const error = (keyword: string, instancePath: string, params: Record<string, unknown>): FastifySchemaValidationError => ({
  keyword,
  instancePath,
  schemaPath: `#/${keyword}`,
  params,
  message: 'from Ajv, never shown',
});

describe('a refused request in words', () => {
  it.each([
    [error('maximum', '/quantity', { comparison: '<=', limit: 100 }), 'Seats must be at most 100.'],
    [error('maximum', '/card/expMonth', { comparison: '<=', limit: 12 }), 'Expiry month must be at most 12.'],
    [error('maxLength', '/email', { limit: 254 }), 'Email must be at most 254 characters.'],
    [error('minLength', '/name', { limit: 1 }), 'Name is required.'],
    [error('minimum', '/amountCents', { comparison: '>=', limit: 100 }), 'Amount must be at least $1.'],
    [error('maximum', '/rule/percentBasisPoints', { comparison: '<=', limit: 10_000 }), 'Percentage must be at most 100%.'],
    [error('type', '/quantity', { type: 'integer' }), 'Seats must be a whole number.'],
    [error('type', '', { type: 'object' }), 'The request body must be a JSON object.'],
    [error('required', '', { missingProperty: 'postalCode' }), 'ZIP code is required.'],
    [error('additionalProperties', '', { additionalProperty: 'coupon' }), "This request has an unknown field 'coupon'."],
    [error('format', '/email', { format: 'email' }), 'Email must be an email address.'],
    [
      error('pattern', '/testimonials/0/name', { pattern: PLAIN_TEXT_PATTERN }),
      'Name must not contain NUL characters or unpaired surrogates.',
    ],
    [error('enum', '/outcome', { allowedValues: ['won', 'lost'] }), 'Outcome must be one of: won, lost.'],
  ])('%o reads %j', (ajv, words) => {
    expect(describeValidation([ajv])).toBe(words);
  });

  it('says what a union’s branch refused, not that no branch matched, and never a validator path', () => {
    const words = describeValidation([
      error('maximum', '/rule/percentBasisPoints', { comparison: '<=', limit: 10_000 }),
      error('anyOf', '/rule', {}),
    ]);
    expect(words).toBe('Percentage must be at most 100%.');
    expect(words).not.toMatch(/body\/|anyOf|<=/);
  });
});
