import type { TaxLocationRefusal } from '../../domain/tax';
import type { PaymentGateway } from '../../payments/gateway';

/** What every payment form (sandbox or Stripe) takes from the checkout page. */
export interface PaymentFormProps {
  /** The subscription's client secret this form confirms. */
  clientSecret: string;
  /** True while the order is being processed: the fields are locked. */
  disabled: boolean;
  /** Called once the form can confirm a payment for `clientSecret`. */
  onReady: (gateway: PaymentGateway) => void;
  /**
   * Called when the card fields go from empty to typed in, or back (`empty`): the checkout then knows a seat change
   * that re-creates the form takes a typed card with it.
   */
  onCardDetailsChange: (empty: boolean) => void;
  /** Why the server refused the location typed with the card (country or ZIP), shown at that field; null when none. */
  locationError?: TaxLocationRefusal | null;
}
