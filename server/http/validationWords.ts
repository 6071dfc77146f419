/**
 * A refused request's schema error in words a person understands: the field by the page's name for it, the rule as a
 * sentence ("Seats must be at most 100."), money in dollars, basis points as a percentage.
 */
import type { FastifySchemaValidationError } from 'fastify';
import { formatDollars } from '../../src/domain/pricing';
import { PLAIN_TEXT_PATTERN } from '../../src/contract/fields';

const FIELD_LABELS: Readonly<Record<string, string>> = {
  quantity: 'Seats',
  seats: 'Seats',
  number: 'Card number',
  expMonth: 'Expiry month',
  expYear: 'Expiry year',
  cvc: 'Security code',
  postalCode: 'ZIP code',
  percentBasisPoints: 'Percentage',
  affiliate_id: 'Referral',
  displayName: 'Name',
  slug: 'Link name',
  days: 'Days',
  unpaid: 'Unpaid checkouts',
};

function inWords(field: string): string {
  const words = field
    .replace(/(.)(Cents|BasisPoints)$/, '$1')
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This field';
}

/** `/testimonials/0/name` → `name` */
function fieldOf(instancePath: string): string | null {
  const named = instancePath.split('/').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
  return named.at(-1) ?? null;
}

const labelOf = (field: string | null) => (field ? (FIELD_LABELS[field] ?? inWords(field)) : 'The request');

function limitOf(field: string | null, limit: unknown): string {
  if (typeof limit !== 'number') return String(limit);
  if (field?.endsWith('Cents') && Number.isInteger(limit)) return formatDollars(limit);
  if (field?.endsWith('BasisPoints')) return `${limit / 100}%`;
  return limit.toLocaleString('en-US');
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a set of fields',
};

function sentenceOf(error: FastifySchemaValidationError): string {
  const params = error.params;
  if (error.keyword === 'required') {
    const missing = typeof params.missingProperty === 'string' ? params.missingProperty : null;
    return `${labelOf(missing)} is required.`;
  }
  if (error.keyword === 'additionalProperties') {
    const where = error.instancePath ? ` in ${labelOf(fieldOf(error.instancePath)).toLowerCase()}` : '';
    return `This request has an unknown field '${String(params.additionalProperty)}'${where}.`;
  }
  const field = fieldOf(error.instancePath);
  const label = labelOf(field);
  switch (error.keyword) {
    case 'maximum':
    case 'exclusiveMaximum':
      return `${label} must be at most ${limitOf(field, params.limit)}.`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `${label} must be at least ${limitOf(field, params.limit)}.`;
    case 'maxLength':
      return `${label} must be at most ${limitOf(null, params.limit)} characters.`;
    case 'minLength':
      return params.limit === 1 ? `${label} is required.` : `${label} must be at least ${limitOf(null, params.limit)} characters.`;
    case 'maxItems':
      return `${label} can have at most ${limitOf(null, params.limit)}.`;
    case 'minItems':
      return `${label} needs at least ${limitOf(null, params.limit)}.`;
    case 'type':
      if (!field && params.type === 'object') return 'The request body must be a JSON object.';
      return `${label} must be ${TYPE_WORDS[String(params.type)] ?? String(params.type)}.`;
    case 'format':
      return params.format === 'email' ? `${label} must be an email address.` : `${label} is not in the expected form.`;
    case 'pattern':
      return params.pattern === PLAIN_TEXT_PATTERN
        ? `${label} must not contain NUL characters or unpaired surrogates.`
        : `${label} is not in the expected form.`;
    case 'enum':
      return `${label} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'const':
      return `${label} must be ${String(params.allowedValue)}.`;
    default:
      return `${label} is not valid.`;
  }
}

/** A union's own error says less than the branch errors Ajv reports before it, so the first of those is used. */
export function describeValidation(errors: readonly FastifySchemaValidationError[]): string {
  const telling = errors.find((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf' && error.keyword !== 'if');
  const first = telling ?? errors[0];
  return first ? sentenceOf(first) : 'This request is not valid.';
}
