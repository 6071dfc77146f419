/**
 * The sandbox provider's browser gateway: checks the card form, then confirms the payment intent with the
 * sandbox routes, the way Stripe's confirmPayment does (a card that asks for authentication shows a challenge).
 */
import { ApiError, requestJson } from '../api/client';
import { digitsOf } from '../domain/cardRules';
import { firstCardError, parseExpiry, validateCard, type CardFormValues } from './cardValidation';
import { DEFAULT_PAYMENT_ERROR, type PaymentConfirmation, type PaymentGateway } from './gateway';

/** What the buyer chose on the authentication challenge. */
export type AuthenticationOutcome = 'completed' | 'failed';

/** Stripe's message when the buyer fails 3D Secure authentication. */
export const AUTHENTICATION_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

interface SandboxIntentResponse {
  status: 'succeeded' | 'requires_action';
  paymentIntentId: string;
}

interface SandboxGatewayOptions {
  clientSecret: string;
  /** The card form's current values. */
  readCard: () => CardFormValues;
  /** Called when the card form has errors, so it shows all of them. */
  onInvalidCard: () => void;
  /** Shows the authentication challenge and resolves with the buyer's choice. */
  authenticate: () => Promise<AuthenticationOutcome>;
}

function cardPayload(values: CardFormValues) {
  const expiry = parseExpiry(values.expiry);
  return {
    number: digitsOf(values.number),
    expMonth: expiry?.month ?? 0,
    expYear: expiry?.year ?? 0,
    cvc: values.cvc.trim(),
    postalCode: values.postalCode.trim(),
  };
}

function post(path: string, body: unknown): Promise<SandboxIntentResponse> {
  return requestJson<SandboxIntentResponse>('POST', path, body, DEFAULT_PAYMENT_ERROR);
}

/** Declines and refusals (4xx/5xx) become a failed outcome with the server's message; a network failure rejects. */
async function settle(attempt: () => Promise<PaymentConfirmation>): Promise<PaymentConfirmation> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof ApiError && error.status !== 0) return { status: 'failed', message: error.message };
    throw error;
  }
}

/** A gateway that confirms `clientSecret`'s payment with the card typed into the sandbox form. */
export function createSandboxGateway(options: SandboxGatewayOptions): PaymentGateway {
  const { clientSecret } = options;
  return {
    provider: 'sandbox',
    async confirmPayment({ billingDetails }) {
      const values = options.readCard();
      const cardError = firstCardError(validateCard(values));
      if (cardError) {
        options.onInvalidCard();
        return { status: 'failed', message: cardError };
      }
      return settle(async () => {
        const confirmed = await post('/api/sandbox/payment-intents/confirm', {
          clientSecret,
          card: cardPayload(values),
          billingDetails,
        });
        if (confirmed.status === 'succeeded') return { status: 'succeeded', paymentIntentId: confirmed.paymentIntentId };
        const outcome = await options.authenticate();
        const authenticated = await post('/api/sandbox/payment-intents/authenticate', { clientSecret, outcome });
        return authenticated.status === 'succeeded'
          ? { status: 'succeeded', paymentIntentId: authenticated.paymentIntentId }
          : { status: 'failed', message: AUTHENTICATION_FAILED_MESSAGE };
      });
    },
  };
}
