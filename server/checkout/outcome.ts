/**
 * What an order step answers: its result, or why it refused, in the order's own words. The routes map each
 * refusal to a status and a message (./refusalReplies.ts); no step in server/checkout knows HTTP.
 */

/** Why an order step did not do what was asked. */
export type Refusal =
  /** No order with these ids (or the proof offered does not match it). */
  | 'unknown_checkout'
  /** The order moved on (another window changed its seats) since the caller last saw it. */
  | 'checkout_changed'
  /** Another seat change of this order is in progress. */
  | 'seats_being_updated'
  | 'order_paid'
  | 'order_cancelled'
  /** The email given is not the order's buyer's (docs/decisions/0026): nothing is answered or changed. */
  | 'buyer_mismatch'
  /** The provider does not report the order's subscription active and its first invoice paid in full. */
  | 'payment_incomplete'
  /** The payment carries no usable billing name and email. */
  | 'buyer_unknown'
  /** The payment provider failed or could not be reached; nothing was written. */
  | 'provider_unavailable';

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** Ends an order step with `refusal`; caught by outcomeOf at the step's public boundary, never beyond it. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`Refused: ${refusal}`);
    this.name = 'Refused';
  }
}

/** Stops the current order step with `refusal` (inside an outcomeOf). */
export function refuse(refusal: Refusal): never {
  throw new Refused(refusal);
}

/** Runs `step` and answers its value, or the refusal it stopped with; any other error propagates. */
export async function outcomeOf<T>(step: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
