/**
 * The sandbox's card rules (architecture.md, "sandbox"): Stripe's test cards and their behaviour, and the
 * checks a card form's number, expiry and CVC must pass. Pure; the full number and CVC are never kept.
 */

/** What the sandbox confirmation route receives from the card form (Payment Element field names). */
export interface SandboxCard {
  /** Digits, spaces allowed. */
  number: string;
  /** 1–12. */
  expMonth: number;
  /** Four digits, or two (26 → 2026). */
  expYear: number;
  cvc: string;
  postalCode: string;
}

/** How a test card behaves when a PaymentIntent is confirmed with it (Stripe's testing docs). */
export type TestCardBehaviour = 'succeeds' | 'declined' | 'insufficient_funds' | 'requires_authentication';

/** The four test cards the sandbox accepts; every other number is refused. */
export const TEST_CARDS: Readonly<Record<string, TestCardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declined',
  '4000000000009995': 'insufficient_funds',
  '4000002500003155': 'requires_authentication',
};

/** The refusal for a well-formed card that is not one of TEST_CARDS. */
export const TEST_CARDS_ONLY = 'Sandbox mode accepts test cards only.';

export type CardCheck =
  | { ok: true; behaviour: TestCardBehaviour; last4: string }
  | { ok: false; message: string };

/**
 * Checks `card` as a card form would (Luhn, expiry not before `now`'s month, 3–4 digit CVC), then looks it up
 * among TEST_CARDS. Returns the behaviour and the last four digits, or the message to show the buyer.
 */
export function checkSandboxCard(card: SandboxCard, now: Date = new Date()): CardCheck {
  const number = card.number.replace(/ /g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) return { ok: false, message: 'Your card number is invalid.' };
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (card.expMonth < 1 || card.expMonth > 12 || year < 2000) {
    return { ok: false, message: "Your card's expiration date is invalid." };
  }
  if (year * 12 + card.expMonth < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    return { ok: false, message: "Your card's expiration date is in the past." };
  }
  if (!/^\d{3,4}$/.test(card.cvc)) return { ok: false, message: "Your card's security code is invalid." };
  const behaviour = TEST_CARDS[number];
  if (!behaviour) return { ok: false, message: TEST_CARDS_ONLY };
  return { ok: true, behaviour, last4: number.slice(-4) };
}

/** The Luhn mod-10 check digit test on a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
