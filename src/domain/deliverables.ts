/**
 * Order-summary deliverables: each seat row takes a phrase from a rotating list, cycled by seat number.
 * Source: spec §2 (Order summary) and §9 (25 phrases).
 */

/**
 * The phrase for 1-based `seatNumber` from `phrases`: seat 1 → phrases[0], seat 26 → phrases[0] again for 25 phrases.
 * @throws RangeError when `phrases` is empty or `seatNumber` is not an integer ≥ 1.
 */
export function deliverableForSeat(seatNumber: number, phrases: readonly string[]): string {
  if (phrases.length === 0) throw new RangeError('The deliverable list is empty');
  if (!Number.isInteger(seatNumber) || seatNumber < 1) {
    throw new RangeError(`Seat number must be an integer of at least 1, got ${seatNumber}`);
  }
  return phrases[(seatNumber - 1) % phrases.length]!;
}
