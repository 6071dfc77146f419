/**
 * Commission rules both sides share (docs/decisions/0035): what a referrer earns on a paid invoice, how
 * it is rounded, how long it is held, and how money is shown on the commission screens. Money in integer cents.
 *
 * Rounding: a percentage commission is computed per invoice, in integer arithmetic, and rounded half up to the
 * cent (`roundHalfUpCents`): 20 % of $0.03 is 0.6 ¢ → 1 ¢; 12.5 % of $0.04 is 0.5 ¢ → 1 ¢; 10 % of $0.04 is 0.4 ¢ →
 * 0 ¢. A partial refund takes back the same share of the commission, rounded the same way. Flat rules are whole
 * cents already. Nothing is rounded on a sum: a balance is the sum of rounded entries.
 *
 * Hold: an earned entry is held for the refund guarantee (src/domain/refunds.ts, REFUND_GUARANTEE_DAYS) after its
 * invoice was paid: the buyer may still cancel and be refunded. Then it is payable.
 */
import { isWithinRefundGuarantee, REFUND_GUARANTEE_DAYS } from './refunds';

/** 100 % in basis points. */
const FULL_BASIS_POINTS = 10_000;

/** The built-in default rule: 20 % of each paid invoice, for the subscription's whole life. */
const DEFAULT_PERCENT_BASIS_POINTS = 2_000;

/** The console's default minimum payable balance for a payout: $50. */
export const DEFAULT_PAYOUT_MINIMUM_CENTS = 5_000;

/** A commission rule: a percentage (basis points) of each paid invoice, or a flat amount per paid seat per month. */
export type CommissionRule =
  | { kind: 'percent'; percentBasisPoints: number; months: number | null }
  | { kind: 'flat'; flatCentsPerSeat: number; months: number | null };

/** The built-in default (DEFAULT_PERCENT_BASIS_POINTS, whole life). */
export const BUILT_IN_RULE: CommissionRule = { kind: 'percent', percentBasisPoints: DEFAULT_PERCENT_BASIS_POINTS, months: null };

/**
 * `numerator / denominator` rounded half up to an integer, for non-negative integers (exact: no floating point).
 * @throws RangeError for a negative or non-integer argument, or a denominator ≤ 0.
 */
export function roundHalfUpCents(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
    throw new RangeError(`Cannot round ${numerator} / ${denominator}`);
  }
  const whole = Math.floor(numerator / denominator);
  const rest = numerator - whole * denominator;
  return rest * 2 >= denominator ? whole + 1 : whole;
}

/**
 * The commission on one paid invoice, in cents, by `rule`: 0 past the rule's first `months`.
 * @param invoiceCents the invoice's paid amount, integer cents ≥ 0.
 * @param seats the seats it paid for.
 * @param monthNumber which paid month of the subscription the invoice is (1 for the first payment).
 */
export function commissionCents(rule: CommissionRule, invoiceCents: number, seats: number, monthNumber: number): number {
  if (rule.months !== null && monthNumber > rule.months) return 0;
  if (rule.kind === 'flat') return rule.flatCentsPerSeat * seats;
  return roundHalfUpCents(invoiceCents * rule.percentBasisPoints, FULL_BASIS_POINTS);
}

/**
 * What a refund of `refundedCents` of an `invoiceCents` invoice takes back of its `earnedCents` commission, in
 * cents (≥ 0, at most `earnedCents`): the refunded share, rounded half up; everything for a full refund.
 */
export function refundedShareCents(earnedCents: number, invoiceCents: number, refundedCents: number): number {
  if (invoiceCents <= 0 || refundedCents >= invoiceCents) return earnedCents;
  return Math.min(earnedCents, roundHalfUpCents(earnedCents * refundedCents, invoiceCents));
}

/** How a rule reads: '20 % of each invoice', '$10.00 per seat per month, first 3 months'. */
export function describeRule(rule: CommissionRule): string {
  const base =
    rule.kind === 'percent'
      ? `${formatPercent(rule.percentBasisPoints)} of each invoice`
      : `${formatCents(rule.flatCentsPerSeat)} per seat per month`;
  if (rule.months === null) return base;
  return `${base}, first ${rule.months} ${rule.months === 1 ? 'month' : 'months'}`;
}

/** Basis points as a percentage: 2000 → '20 %', 1250 → '12.5 %'. */
function formatPercent(basisPoints: number): string {
  return `${(basisPoints / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} %`;
}

/** Cents as dollars with the cents always shown: 20000 → '$200.00', -150 → '-$1.50'. */
export function formatCents(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Money must be integer cents, got ${cents}`);
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
}

/** When a commission earned at `earnedAt` stops being held: the end of the refund guarantee (decision 0024). */
export function commissionPayableFrom(earnedAt: Date): Date {
  return new Date(earnedAt.getTime() + REFUND_GUARANTEE_DAYS * 24 * 60 * 60 * 1000);
}

/** The state of an earned entry, derived (docs/decisions/0035). */
export type CommissionState = 'held' | 'payable' | 'in_payout' | 'paid' | 'reversed';

/**
 * The state of an earned entry: 'reversed' when nothing of it is left, 'paid' or 'in_payout' by its payout batch,
 * else 'held' within the refund guarantee of `earnedAt` (on the billing clock `now`), else 'payable'.
 */
export function earnedEntryState(entry: {
  earnedAt: Date;
  netCents: number;
  amountCents: number;
  batch: 'created' | 'paid' | null;
  now: Date;
}): CommissionState {
  if (entry.batch === 'paid') return 'paid';
  if (entry.batch === 'created') return 'in_payout';
  if (entry.amountCents > 0 && entry.netCents <= 0) return 'reversed';
  return isWithinRefundGuarantee(entry.earnedAt, entry.now) ? 'held' : 'payable';
}

/** A buyer's name as a referrer sees it: first name and the last name's initial ('Ada L.'). */
export function shortName(name: string | null): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return 'A practice';
  const first = parts[0]!;
  const last = parts.length > 1 ? ` ${parts[parts.length - 1]!.charAt(0).toUpperCase()}.` : '';
  return `${first}${last}`;
}
