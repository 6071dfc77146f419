/**
 * The checkout's location step (docs/decisions/0071), for its statechart (./checkoutMachine.ts): read the buyer's
 * country and ZIP from the card form, send them, and say what came of it in the statechart's terms. Money in cents.
 */
import { ApiError } from '../api/apiError';
import type { LocateRequest, LocationErrorResponse, SubscriptionSession, TaxQuote } from '../contract/checkout';
import { PRODUCT_ID } from '../domain/product';
import type { TaxLocationRefusal } from '../domain/tax';
import type { BillingDetails, PaymentGateway } from '../payments/gateway';

/** The tax the server quoted for the buyer's location: for `seats` seats, `taxCents` a month, in `taxState`. */
export interface QuotedTax {
  seats: number;
  taxCents: number;
  taxState: string | null;
}

/**
 * What the location step came to: `incomplete` (the card form shows what is missing), `failed` (the card form
 * could not read the card: why), `refused` (the server refused the country or ZIP: at which field and why), or
 * `quoted` (the session and tax for the location).
 */
export type Location =
  | { kind: 'incomplete' }
  | { kind: 'failed'; message: string }
  | { kind: 'refused'; refusal: TaxLocationRefusal }
  | { kind: 'quoted'; quote: TaxQuote };

/** Input of the locateBuyer actor. */
export interface LocateActorInput {
  gateway: PaymentGateway;
  session: SubscriptionSession;
  billingDetails: BillingDetails;
  returnUrl: string;
}

/**
 * Collects the location from the card form and sends it with `send` (the location call). A 422 naming a field is
 * a refusal; any other failure rejects (the page says it by the pay button; nothing was charged).
 */
export async function locateBuyer(input: LocateActorInput, send: (body: LocateRequest) => Promise<TaxQuote>): Promise<Location> {
  const collected = await input.gateway.collectLocation({ billingDetails: input.billingDetails, returnUrl: input.returnUrl });
  if (collected.status === 'incomplete') return { kind: 'incomplete' };
  if (collected.status === 'failed') return { kind: 'failed', message: collected.message };
  const { session } = input;
  try {
    const quote = await send({
      subscriptionId: session.subscriptionId,
      subscriptionItemId: session.subscriptionItemId,
      transactionId: session.transactionId,
      productId: PRODUCT_ID,
      country: collected.location.country,
      postalCode: collected.location.postalCode,
    });
    return { kind: 'quoted', quote };
  } catch (error) {
    const refusal = error instanceof ApiError && error.status === 422 ? refusalOf(error) : null;
    if (refusal) return { kind: 'refused', refusal };
    throw error;
  }
}

/** The 422's body names the card form's field it refuses (LocationErrorResponse); any other answer names none. */
function refusalOf(error: ApiError): TaxLocationRefusal | null {
  const field = (error.body as Partial<LocationErrorResponse> | null | undefined)?.field;
  return field === 'country' || field === 'postalCode' ? { field, message: error.message } : null;
}
