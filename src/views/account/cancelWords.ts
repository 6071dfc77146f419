/**
 * What the manage page says before a cancellation is confirmed: within the refund guarantee (decision 0024, the
 * offer's money-back guarantee and 30-day AI Challenge) what would come back and that the buyer may ask for it in
 * the same step (docs/decisions/0068: the owner then refunds from the console); after it, the day access ends.
 */
import type { AccountView } from '../../contract/account';
import { formatDollars } from '../../domain/pricing';
import { isRefundAskable, REFUND_GUARANTEE_DAYS } from '../../domain/refunds';
import { day } from './accountDates';

/** The label of the step that cancels and asks for the refund at once: "Cancel and ask for my $1,000 back". */
export const cancelAndRefundLabel = (account: AccountView) => `Cancel and ask for my ${formatDollars(account.refundableCents)} back`;

/** The confirmation's words for `account` at `now`: the guarantee's, or the day access ends. */
export function cancelConfirmationText(account: AccountView, now: Date): string {
  const accessEnds = `You keep access until ${day(account.currentPeriodEnd)} and will not be charged again; you can undo this until then.`;
  if (!isRefundAskable(account, now)) return accessEnds;
  const amount = formatDollars(account.refundableCents);
  return (
    `You are within the ${REFUND_GUARANTEE_DAYS}-day money-back guarantee, until ${day(account.guaranteeEndsAt)}: you can have ` +
    `${amount} back, everything you paid. Cancelling alone stops the renewal but refunds nothing; “${cancelAndRefundLabel(account)}” ` +
    `asks for the refund too. ${accessEnds}`
  );
}

/** The words of the refund asked for on its own, after a cancel: what comes back, where, and what it ends. */
export function refundConfirmationText(account: AccountView): string {
  return (
    `We refund ${formatDollars(account.refundableCents)}, everything you paid, to the card you paid with, under the ` +
    `${REFUND_GUARANTEE_DAYS}-day money-back guarantee. Your subscription and your team's access end when the refund is made; ` +
    'you get a mail then.'
  );
}
