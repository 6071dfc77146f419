import { LoadingPaymentForm } from './LoadingPaymentForm';
import type { PaymentFormProps } from './paymentFormProps';

export interface StripePaymentFormProps extends PaymentFormProps {
  /** Stripe's publishable key from GET /api/config. */
  publishableKey: string | null;
}

/**
 * Placeholder for Stripe's Payment Element (tabs layout, card only), mounted for `clientSecret` with
 * `publishableKey`; it will call `onReady` with a Stripe gateway. Until it is built it shows the loading text.
 */
export function StripePaymentForm(_props: StripePaymentFormProps) {
  return <LoadingPaymentForm />;
}
