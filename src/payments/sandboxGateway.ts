/**
 * The sandbox provider's browser gateway: checks the card form, then confirms the payment intent with the
 * sandbox routes, the way Stripe's confirmPayment does (a card that asks for authentication shows a challenge).
 */
import { solveChallenge } from 'altcha-lib';
import { ApiError, requestJson } from '../api/client';
import type { ChallengeRequiredResponse } from '../contract/sandbox';
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
  /** The card form's current values. */
  readCard: () => CardFormValues;
  /** Called when the card form has errors, so it shows all of them. */
  onInvalidCard: () => void;
  /** Shows the authentication challenge and resolves with the buyer's choice. */
  authenticate: () => Promise<AuthenticationOutcome>;
  /** Focuses the card number field. */
  focusCard: () => void;
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

/**
 * Confirms with `body`; when the server asks this address for proof of work first (428 with an ALTCHA
 * challenge, server/security/confirmationChallenge.ts), solves it here and sends the card again with the solution.
 */
async function confirmWithChallenge(body: Record<string, unknown>): Promise<SandboxIntentResponse> {
  try {
    return await post('/api/sandbox/payment-intents/confirm', body);
  } catch (error) {
    const challenge = error instanceof ApiError && error.status === 428 ? challengeOf(error.body) : null;
    if (!challenge) throw error;
    return post('/api/sandbox/payment-intents/confirm', { ...body, challenge: await solve(challenge) });
  }
}

function challengeOf(body: unknown): ChallengeRequiredResponse['challenge'] | null {
  const challenge = body && typeof body === 'object' && 'challenge' in body ? body.challenge : null;
  return challenge && typeof challenge === 'object' ? (challenge as ChallengeRequiredResponse['challenge']) : null;
}

/** ALTCHA's payload for `challenge`: the number found, as base64 JSON. @throws Error when no number solves it. */
async function solve(challenge: ChallengeRequiredResponse['challenge']): Promise<string> {
  const { promise } = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber);
  const solution = await promise;
  if (!solution) throw new Error(DEFAULT_PAYMENT_ERROR);
  const { algorithm, salt, signature } = challenge;
  return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number: solution.number, salt, signature }));
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

/** A gateway that confirms a payment with the card typed into the sandbox form. */
export function createSandboxGateway(options: SandboxGatewayOptions): PaymentGateway {
  /** The card when it passes the card rules; else the form shows every error and null. */
  const checkedCard = () => {
    const values = options.readCard();
    if (!firstCardError(validateCard(values))) return values;
    options.onInvalidCard();
    return null;
  };
  return {
    provider: 'sandbox',
    focusCard: options.focusCard,
    async collectLocation() {
      const values = checkedCard();
      if (!values) return { status: 'incomplete' };
      return { status: 'collected', location: { country: values.country, postalCode: values.postalCode.trim() } };
    },
    async confirmPayment({ clientSecret, billingDetails }) {
      const values = checkedCard();
      if (!values) return { status: 'incomplete' };
      return settle(async () => {
        const confirmed = await confirmWithChallenge({ clientSecret, card: cardPayload(values), billingDetails });
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
