/**
 * The sandbox's cards (architecture.md, "sandbox"): Stripe's test cards and their behaviour, after the card rules
 * the card form also applies (src/domain/cardRules.ts). Pure; the full number and CVC are never kept.
 */
import type { SandboxCard } from '../../../src/contract/sandbox';
import { cardNumberError, cvcError, expiryError } from '../../../src/domain/cardRules';

/** What the sandbox confirmation route receives from the card form (src/contract/sandbox.ts). */
export type { SandboxCard };

/** How a test card behaves when a PaymentIntent is confirmed with it (Stripe's testing docs). */
export type TestCardBehaviour =
  'succeeds' | 'declined' | 'insufficient_funds' | 'requires_authentication' | 'fails_later' | 'disputed' | 'refund_fails';

const TEST_CARDS: Readonly<Record<string, TestCardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'requires_authentication',
  // Attaches and pays the first invoice, then declines every later charge (Stripe: "decline after attaching").
  '4000000000000341': 'fails_later',
  // Pays, then the buyer's bank opens a dispute of the payment (Stripe: "Disputes", fraudulent): ./disputes.ts.
  '4000000000000259': 'disputed',
  // Pays; a refund of it is made, then fails on the billing clock (Stripe: asynchronous refund failure): ./billing.ts.
  '4000000000005126': 'refund_fails',
};

/** Stripe's decline messages for the sandbox's failing cards. */
export const DECLINE_MESSAGES = {
  declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  authentication: 'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

/** The refusal for a well-formed card that is not one of TEST_CARDS. */
export const TEST_CARDS_ONLY = 'Sandbox mode accepts test cards only.';

type CardCheck = { ok: true; behaviour: TestCardBehaviour; last4: string } | { ok: false; message: string };

/** The card's behaviour and last four digits, or the message to show the buyer. */
export function checkSandboxCard(card: SandboxCard, now: Date = new Date()): CardCheck {
  const number = card.number.replace(/ /g, '');
  const message = cardNumberError(number) ?? expiryError(card.expMonth, card.expYear, now) ?? cvcError(card.cvc);
  if (message) return { ok: false, message };
  const behaviour = TEST_CARDS[number];
  if (!behaviour) return { ok: false, message: TEST_CARDS_ONLY };
  return { ok: true, behaviour, last4: number.slice(-4) };
}
