/**
 * The longest text each free-text field of the buyer's pages takes: the numbers the route schemas are built from
 * (src/domain/textLimits.ts, read by src/contract/), so the browser holds to the server's limits without loading
 * the schemas; and when a field shows how much is used.
 */
import { CANCEL_REASON_MAX_LENGTH, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '../../domain/textLimits';

export const FIELD_LIMITS = {
  email: EMAIL_MAX_LENGTH,
  name: NAME_MAX_LENGTH,
  /** The checkout's first or last name: joined by a space they are the buyer's name, at most NAME_MAX_LENGTH. */
  namePart: Math.floor((NAME_MAX_LENGTH - 1) / 2),
  cancelReason: CANCEL_REASON_MAX_LENGTH,
} as const;

/** True when `length` is within 10% of `max`: the field then shows "length / max". */
export function nearLimit(length: number, max: number): boolean {
  return length >= Math.ceil(max * 0.9);
}
