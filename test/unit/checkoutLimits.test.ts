/** The seat limit the checkout reads from the page the server sent (src/content/checkoutLimits.ts). */
import { describe, expect, it } from 'vitest';
import { readMaxSeats } from '../../src/content/checkoutLimits';
import { CHECKOUT_LIMITS_ELEMENT_ID, DEFAULT_MAX_SEATS, seatEntryRefusal } from '../../src/domain/pricing';

/** A page whose element `checkout-limits` holds `text` (none when undefined). */
const pageWith = (text: string | undefined) =>
  ({
    getElementById: (id: string) => (id === CHECKOUT_LIMITS_ELEMENT_ID && text !== undefined ? { textContent: text } : null),
  }) as Document;

describe('readMaxSeats', () => {
  it("reads the server's MAX_SEATS written into the page", () => {
    expect(readMaxSeats(pageWith('{"maxSeats":40}'))).toBe(40);
  });

  it.each([undefined, '', 'not json', '{"maxSeats":0}', '{"maxSeats":2.5}', '{"maxSeats":"40"}', '[]'])(
    'falls back to the default for %j',
    (text) => {
      expect(readMaxSeats(pageWith(text))).toBe(DEFAULT_MAX_SEATS);
    },
  );

  it('falls back to the default without a document (the build)', () => {
    expect(readMaxSeats(undefined)).toBe(DEFAULT_MAX_SEATS);
  });
});

describe('seatEntryRefusal', () => {
  it.each([
    ['1', null],
    [' 12 ', null],
    ['40', null],
    ['41', 'At most 40 seats can be bought here. For a larger team, please contact us.'],
    ['0', 'Your team has at least 1 seat.'],
    ['', 'Type a number of seats, from 1 to 40.'],
    ['2.5', 'Type a number of seats, from 1 to 40.'],
    ['-3', 'Type a number of seats, from 1 to 40.'],
    ['ten', 'Type a number of seats, from 1 to 40.'],
  ])('%j of at most 40 → %j', (text, refusal) => {
    expect(seatEntryRefusal(text, 40)).toBe(refusal);
  });
});
