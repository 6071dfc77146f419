import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { formatDollars } from '../../domain/pricing';
import { isWithinRefundGuarantee, REFUND_GUARANTEE_DAYS } from '../../domain/refunds';
import type { refundMachine } from '../../machines/refundMachine';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Muted, SubHeading } from '../shared/panelStyles';
import { useSessionEnded } from './useSessionEnded';

/**
 * Refund this order (src/machines/refundMachine.ts, invoked by the order's statechart): everything within the
 * 30-day guarantee, else an amount in dollars, at most `refundableCents` (what is left to refund, from the
 * order's invoices, src/domain/refunds.ts; null when the provider could not be asked, and the server alone then
 * holds the limit); asks once more before it refunds. The subscription ends at once. A buyer's ask for the
 * guarantee's refund fills the amount in (docs/decisions/0068).
 */
export function RefundPanel({
  actorRef,
  paidAt,
  refundableCents,
  askedCents = null,
  onUnauthorised,
}: {
  actorRef: ActorRefFrom<typeof refundMachine>;
  paidAt: string;
  refundableCents: number | null;
  /** What the buyer asked for back on /account (docs/decisions/0068), in cents: the amount is filled in with it. */
  askedCents?: number | null;
  onUnauthorised: () => void;
}) {
  const state = useSelector(actorRef, (snapshot) => snapshot.value);
  const { amountCents, error } = useSelector(actorRef, (snapshot) => snapshot.context);
  const [amountError, setAmountError] = useState<string>();
  useSessionEnded(actorRef, onUnauthorised);
  const [openedAt] = useState(() => Date.now());
  const withinGuarantee = isWithinRefundGuarantee(new Date(paidAt), new Date(openedAt));
  const request = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = formText(new FormData(event.currentTarget), 'amount').trim();
    if (text === '' && withinGuarantee) {
      setAmountError(undefined);
      actorRef.send({ type: 'REFUND_REQUESTED', amountCents: null });
      return;
    }
    const dollars = /^\d+(\.\d{1,2})?$/.test(text) ? Number(text) : NaN;
    if (!(dollars > 0)) {
      setAmountError(
        withinGuarantee
          ? 'Leave it empty for a full refund, or enter an amount such as 250.00.'
          : 'Enter the amount to refund, such as 250.00.',
      );
      return;
    }
    const cents = Math.round(dollars * 100);
    if (refundableCents !== null && cents > refundableCents) {
      setAmountError(`At most ${formatDollars(refundableCents)} is left to refund.`);
      return;
    }
    setAmountError(undefined);
    actorRef.send({ type: 'REFUND_REQUESTED', amountCents: cents });
  };
  // The asked amount is filled in when it can still be refunded in full; the owner may change it.
  const asked = askedCents !== null && (refundableCents === null || askedCents <= refundableCents) ? askedCents : null;
  if (state === 'refunded') return null;
  if (refundableCents === 0)
    return (
      <>
        <SubHeading>Refund</SubHeading>
        <Card>
          <p>Nothing is left to refund: every payment of this order has been refunded.</p>
        </Card>
      </>
    );
  return (
    <>
      <SubHeading>Refund</SubHeading>
      <Card>
        {state === 'idle' && (
          <Form onSubmit={request} aria-label="Refund">
            {asked !== null && (
              <p>
                The buyer asked for {formatDollars(asked)} back under the {REFUND_GUARANTEE_DAYS}-day guarantee: that amount is filled in.
              </p>
            )}
            <Field>
              Amount in dollars{' '}
              {withinGuarantee
                ? `(empty: everything paid, within the ${REFUND_GUARANTEE_DAYS}-day guarantee)`
                : `(required after the ${REFUND_GUARANTEE_DAYS}-day guarantee)`}
              <input
                name="amount"
                inputMode="decimal"
                defaultValue={asked !== null ? (asked / 100).toFixed(2) : undefined}
                aria-invalid={amountError ? true : undefined}
                aria-describedby="refund-amount-limit refund-amount-error"
              />
            </Field>
            {refundableCents !== null && (
              <Muted id="refund-amount-limit">At most {formatDollars(refundableCents)} is left to refund.</Muted>
            )}
            {amountError && <ErrorText id="refund-amount-error">{amountError}</ErrorText>}
            <Button type="submit">Refund…</Button>
            {error && <ErrorText role="alert">{error}</ErrorText>}
          </Form>
        )}
        {state === 'confirming' && (
          <div role="alertdialog" aria-label="Confirm the refund">
            <p>
              Refund{' '}
              {amountCents !== null
                ? formatDollars(amountCents)
                : refundableCents !== null
                  ? `everything left, ${formatDollars(refundableCents)},`
                  : 'everything paid'}{' '}
              and end the subscription now? The buyer is mailed and loses access.
            </p>
            <Button type="button" onClick={() => actorRef.send({ type: 'REFUND_CONFIRMED' })}>
              Refund and end the subscription
            </Button>{' '}
            <Button type="button" onClick={() => actorRef.send({ type: 'REFUND_ABANDONED' })}>
              Keep the subscription
            </Button>
          </div>
        )}
        {state === 'refunding' && <p aria-busy="true">Refunding…</p>}
      </Card>
    </>
  );
}
