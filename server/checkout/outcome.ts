/** An order step's result or refusal; no step in server/checkout knows HTTP (./refusalReplies.ts does). */

export type Refusal =
  /** Or the proof offered does not match it. */
  | 'unknown_checkout'
  | 'checkout_changed'
  | 'seats_being_updated'
  | 'order_paid'
  | 'order_cancelled'
  /** The email given is not the order's buyer's (docs/decisions/0026): nothing is answered or changed. */
  | 'buyer_mismatch'
  | 'payment_incomplete'
  | 'buyer_unknown'
  /** The payment provider failed or could not be reached; nothing was written. */
  | 'provider_unavailable';

export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** Caught by outcomeOf at the step's public boundary, never beyond it. */
class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`Refused: ${refusal}`);
    this.name = 'Refused';
  }
}

export function refuse(refusal: Refusal): never {
  throw new Refused(refusal);
}

/** Any error other than a refusal propagates. */
export async function outcomeOf<T>(step: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await step() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
