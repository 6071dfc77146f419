/**
 * The manage page's sections, each a card under its own heading: cancel (and undo), seats, card, login
 * credentials, invoices, and the provider's portal. Each renders the snapshot and sends the statechart its
 * events; the page (AccountPage.tsx) chooses their order.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { AccountView, SeatChangePreview } from '../../contract/account';
import { invoiceStatusWords } from '../../domain/invoiceStatus';
import { formatDollars, monthlyTotalCents, seatLimitNotice } from '../../domain/pricing';
import { taxLabelOf } from '../../domain/tax';
import { readMaxSeats } from '../../content/checkoutLimits';
import { formatCardNumber, formatExpiry } from '../../payments/cardValidation';
import { CopyField } from '../shared/CopyField';
import { FIELD_LIMITS } from '../shared/fieldLimits';
import { LimitedInput } from '../shared/LimitedInput';
import { formText } from '../shared/formText';
import { Button, Card, Field, Form, SubHeading, Table } from '../shared/panelStyles';
import { colors } from '../theme';
import { AccountActor } from './accountActor';
import { day } from './accountDates';
import { cancelAndRefundLabel, cancelConfirmationText, refundConfirmationText } from './cancelWords';
import { isRefundAskable, REFUND_GUARANTEE_DAYS } from '../../domain/refunds';

/** A section: its heading and its card. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section>
      <SubHeading id={id}>{title}</SubHeading>
      <Card as="div">{children}</Card>
    </section>
  );
}

/**
 * Cancel at the end of the period (with an optional reason, asked once more), or undo a cancellation; within the
 * 30-day guarantee, ask for the refund with the cancel or after it (docs/decisions/0068), each asked once more.
 */
export function CancelSection({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const confirming = AccountActor.useSelector((snapshot) => snapshot.matches({ signedIn: 'confirmingCancel' }));
  const confirmingRefund = AccountActor.useSelector((snapshot) => snapshot.matches({ signedIn: 'confirmingRefund' }));
  // The guarantee is read against the time the page was opened: the server decides at the moment of the ask.
  const [now] = useState(() => new Date());
  const askable = isRefundAskable(account, now);
  // The reason typed before the confirm step is there again if the buyer keeps the subscription.
  const reason = AccountActor.useSelector((snapshot) => snapshot.context.cancelReason);
  const cancel = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'CANCEL_CLICKED', reason: formText(new FormData(event.currentTarget), 'reason') });
  };
  return (
    <Section id="cancel-title" title="Cancel">
      {account.refundAsked ? (
        <RefundAsked asked={account.refundAsked} />
      ) : confirmingRefund ? (
        <RefundConfirmation account={account} />
      ) : account.cancelAt ? (
        <>
          <p>You keep access until {day(account.cancelAt)} and will not be charged again.</p>
          {askable && (
            <p>
              You are within the {REFUND_GUARANTEE_DAYS}-day money-back guarantee, until {day(account.guaranteeEndsAt)}: you can have{' '}
              {formatDollars(account.refundableCents)} back.
            </p>
          )}
          <Buttons>
            <Button type="button" $variant="primary" disabled={busy} onClick={() => actorRef.send({ type: 'RESUME_CLICKED' })}>
              Undo cancellation
            </Button>
            {askable && (
              <Button type="button" disabled={busy} onClick={() => actorRef.send({ type: 'REFUND_ASK_CLICKED' })}>
                Ask for your refund
              </Button>
            )}
          </Buttons>
        </>
      ) : confirming ? (
        <Confirmation
          question="Cancel your subscription?"
          textId="cancel-confirmation-text"
          text={cancelConfirmationText(account, now)}
          yes={{ label: 'Yes, cancel my subscription', variant: 'danger', onClick: () => actorRef.send({ type: 'CANCEL_CONFIRMED' }) }}
          also={
            askable
              ? { label: cancelAndRefundLabel(account), variant: 'danger', onClick: () => actorRef.send({ type: 'REFUND_ASK_CONFIRMED' }) }
              : undefined
          }
          no={{ label: 'Keep my subscription', onClick: () => actorRef.send({ type: 'CANCEL_ABANDONED' }) }}
        />
      ) : (
        <Form onSubmit={cancel} aria-label="Cancel subscription">
          <Field style={{ flex: '1 1 260px' }}>
            Why are you leaving? (optional)
            <LimitedInput name="reason" maxLength={FIELD_LIMITS.cancelReason} defaultValue={reason} />
          </Field>
          <Button type="submit" $variant="danger" disabled={busy}>
            Cancel subscription
          </Button>
        </Form>
      )}
    </Section>
  );
}

/**
 * Change the number of seats: the new monthly total while choosing, then what the change costs now (charged at once
 * for more seats, credited to the next invoice for fewer; docs/decisions/0045) to confirm or abandon.
 */
export function SeatsSection({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const preview = AccountActor.useSelector((snapshot) =>
    snapshot.matches({ signedIn: 'confirmingSeats' }) ? snapshot.context.seatPreview : null,
  );
  const [seats, setSeats] = useState(account.seats);
  // The server's MAX_SEATS, as the checkout reads it from the page (decision 0064): above it nothing is asked.
  const [maxSeats] = useState(() => readMaxSeats(globalThis.document));
  const overLimit = seats > maxSeats;
  return (
    <Section id="seats-title" title="Seats">
      {preview ? (
        <SeatsConfirmation account={account} preview={preview} />
      ) : (
        <Form
          aria-label="Change seats"
          onSubmit={(event) => {
            event.preventDefault();
            if (!overLimit) actorRef.send({ type: 'SEATS_SUBMITTED', quantity: seats });
          }}
        >
          <Field>
            Seats
            <input
              type="number"
              min={1}
              max={maxSeats}
              value={seats}
              aria-invalid={overLimit || undefined}
              aria-describedby={overLimit ? 'seats-limit' : undefined}
              onChange={(event) => setSeats(Math.max(1, Math.floor(Number(event.target.value) || 1)))}
            />
          </Field>
          {overLimit && (
            <p id="seats-limit" role="alert">
              {seatLimitNotice(maxSeats)}
            </p>
          )}
          <p aria-live="polite">{seatsEstimate(account, seats)}</p>
          <Button type="submit" $variant="primary" disabled={busy || seats === account.seats || overLimit}>
            Change seats
          </Button>
        </Form>
      )}
    </Section>
  );
}

/**
 * The monthly total as the buyer pays it: the seats' amount, or with tax the total and, under it, the seats and
 * the state's tax apart (as the confirmation mail says them).
 */
export function MonthlyTotal({ account }: { account: AccountView }) {
  if (account.monthlyTaxCents <= 0) return <>{formatDollars(account.monthlyTotalCents)}/month</>;
  return (
    <>
      {formatDollars(account.monthlyTotalCents + account.monthlyTaxCents)}/month
      <TaxLine>{`Seats ${formatDollars(account.monthlyTotalCents)} · ${taxLabelOf(account.taxState)} ${formatDollars(account.monthlyTaxCents)}`}</TaxLine>
    </>
  );
}

/**
 * What the typed seat count would cost each month, before the server's quote: the seats' amount (the page does
 * not know the tax of a new count; the quote names it before anything is charged).
 */
function seatsEstimate(account: AccountView, seats: number): string {
  const taxed = account.monthlyTaxCents > 0;
  const label = taxLabelOf(account.taxState);
  const now = taxed
    ? `${formatDollars(account.monthlyTotalCents + account.monthlyTaxCents)}/month with ${label}`
    : formatDollars(account.monthlyTotalCents);
  if (seats === account.seats) return taxed ? `${now} now.` : `${now}/month now.`;
  const tax = taxed ? ` plus ${label}` : '';
  const shown = taxed ? 'the amount and its tax' : 'the amount';
  return `New monthly total: ${formatDollars(monthlyTotalCents(seats))}/month${tax} (now ${now}). Seats added are charged now for the rest of this period; you see ${shown} before you confirm.`;
}

/** What the asked-for seats cost now and each month, tax apart when there is tax, with the confirm and keep buttons. */
function SeatsConfirmation({ account, preview }: { account: AccountView; preview: SeatChangePreview }) {
  const actorRef = AccountActor.useActorRef();
  const card = account.cardLast4 ? `your card ending in ${account.cardLast4}` : 'your card on file';
  const label = taxLabelOf(account.taxState);
  const monthly = preview.monthlyTotalCents + preview.monthlyTaxCents;
  const monthlyParts =
    preview.monthlyTaxCents > 0
      ? ` (seats ${formatDollars(preview.monthlyTotalCents)} + ${label} ${formatDollars(preview.monthlyTaxCents)})`
      : '';
  const then = `then ${formatDollars(monthly)}/month${monthlyParts} from ${day(preview.nextChargeDate)}`;
  const nowTax = preview.taxDueNowCents > 0 ? ` (incl. ${label} ${formatDollars(preview.taxDueNowCents)})` : '';
  const cost = preview.amountDueNowCents
    ? `${formatDollars(preview.amountDueNowCents)}${nowTax} is charged now to ${card} for the rest of this period, ${then}.`
    : preview.creditCents
      ? `${formatDollars(preview.creditCents)} for the unused time comes off your next invoice, ${then}.`
      : `Nothing is charged now, ${then}.`;
  return (
    <div role="group" aria-label="Confirm seat change">
      <p>
        Change to {preview.quantity} {preview.quantity === 1 ? 'seat' : 'seats'}: {cost}
      </p>
      <Button type="button" $variant="primary" onClick={() => actorRef.send({ type: 'SEATS_CONFIRMED' })}>
        {preview.amountDueNowCents ? `Pay ${formatDollars(preview.amountDueNowCents)} and change seats` : 'Confirm seat change'}
      </Button>{' '}
      <Button type="button" onClick={() => actorRef.send({ type: 'SEATS_ABANDONED' })}>
        Keep my seats
      </Button>
    </div>
  );
}

/**
 * A new card (the sandbox's test cards); the typed number and code leave the fields once sent. The number and the
 * expiry are formatted as typed, as on the checkout's card form ('0829' reads '08 / 29').
 */
export function CardSection({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const updateCard = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const [month, year] = formText(form, 'expiry')
      .split('/')
      .map((part) => Number(part.trim()));
    actorRef.send({
      type: 'CARD_SUBMITTED',
      card: {
        number: formText(form, 'number'),
        expMonth: month || 0,
        expYear: year ? 2000 + (year % 100) : 0,
        cvc: formText(form, 'cvc'),
        postalCode: formText(form, 'postalCode'),
      },
    });
    // The card number and security code are not kept on the page once sent.
    event.currentTarget.reset();
  };
  return (
    <Section id="card-title" title="Card">
      {account.status === 'past_due' && (
        <PastDue>Your last payment failed. Enter a new card: the open payment is charged to it at once.</PastDue>
      )}
      <Form onSubmit={updateCard} aria-label="Update card">
        <Field>
          Card number
          <input
            name="number"
            inputMode="numeric"
            autoComplete="cc-number"
            required
            onChange={(event) => (event.currentTarget.value = formatCardNumber(event.currentTarget.value))}
          />
        </Field>
        <Field>
          Expiration date
          <input
            name="expiry"
            placeholder="MM / YY"
            inputMode="numeric"
            autoComplete="cc-exp"
            required
            onChange={(event) => (event.currentTarget.value = formatExpiry(event.currentTarget.value))}
          />
        </Field>
        <Field>
          Security code
          <input name="cvc" inputMode="numeric" autoComplete="cc-csc" required />
        </Field>
        <Field>
          ZIP
          <input name="postalCode" autoComplete="postal-code" />
        </Field>
        <Button type="submit" $variant="primary" disabled={busy}>
          Update card
        </Button>
      </Form>
    </Section>
  );
}

/** New login credentials: asked once more first, then shown once with copy buttons. */
export function CredentialsSection() {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const credentials = AccountActor.useSelector((snapshot) => snapshot.context.credentials);
  const confirming = AccountActor.useSelector((snapshot) => snapshot.matches({ signedIn: 'confirmingCredentials' }));
  return (
    <Section id="credentials-title" title="Login credentials">
      {credentials ? (
        <div>
          <p>
            <strong>Save these now: the password is shown only once.</strong>
          </p>
          <Credentials>
            <CopyField
              label="Email"
              value={credentials.email}
              copyLabel="Copy email"
              onCopy={() => actorRef.send({ type: 'COPY_CLICKED', field: 'email' })}
            />
            <CopyField
              label="Password"
              value={credentials.password}
              copyLabel="Copy password"
              onCopy={() => actorRef.send({ type: 'COPY_CLICKED', field: 'password' })}
            />
          </Credentials>
        </div>
      ) : confirming ? (
        <Confirmation
          question="Replace your password?"
          textId="replace-password-text"
          text="Your current password stops working at once, and other devices are signed out. Get a new one?"
          yes={{
            label: 'Yes, replace my password',
            variant: 'primary',
            onClick: () => actorRef.send({ type: 'NEW_CREDENTIALS_CONFIRMED' }),
          }}
          no={{ label: 'Keep my password', onClick: () => actorRef.send({ type: 'NEW_CREDENTIALS_ABANDONED' }) }}
        />
      ) : (
        <>
          <p>Lost your password? Get a new one; the old one stops working.</p>
          <Button type="button" disabled={busy} onClick={() => actorRef.send({ type: 'NEW_CREDENTIALS_CLICKED' })}>
            Get new login credentials
          </Button>
        </>
      )}
    </Section>
  );
}

/** The subscription's invoices (none are listed before the first); an amount with tax names the tax on a line of its own. */
export function InvoicesSection({ account }: { account: AccountView }) {
  if (account.invoices.length === 0) return null;
  return (
    <Section id="invoices-title" title="Invoices">
      <Table aria-label="Invoices">
        <thead>
          <tr>
            <th>Date</th>
            <th className="number">Amount</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {account.invoices.map((invoice) => (
            <tr key={invoice.id}>
              <td>{day(invoice.date)}</td>
              <td className="number">
                {formatDollars(invoice.amountCents)}
                {invoice.taxCents > 0 && <TaxLine>{`incl. ${taxLabelOf(account.taxState)} ${formatDollars(invoice.taxCents)}`}</TaxLine>}
              </td>
              <td>{invoiceStatusWords(invoice)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </Section>
  );
}

/** The guarantee's refund, once asked: what happens next (docs/decisions/0068). */
function RefundAsked({ asked }: { asked: NonNullable<AccountView['refundAsked']> }) {
  return (
    <p>
      You asked for your refund of {formatDollars(asked.amountCents)} on {day(asked.at)}. It goes back to the card you paid with; your
      subscription ends when it is made, and you get a mail then. Until then you keep access.
    </p>
  );
}

/** The guarantee's refund asked once more, with the amount that would come back. */
function RefundConfirmation({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  return (
    <Confirmation
      question="Ask for your refund?"
      textId="refund-confirmation-text"
      text={refundConfirmationText(account)}
      yes={{
        label: `Yes, ask for my ${formatDollars(account.refundableCents)} back`,
        variant: 'danger',
        onClick: () => actorRef.send({ type: 'REFUND_ASK_CONFIRMED' }),
      }}
      no={{ label: 'Not now', onClick: () => actorRef.send({ type: 'REFUND_ASK_ABANDONED' }) }}
    />
  );
}

/**
 * Stripe mode: the provider's portal cancels, but the 30-day guarantee's refund is ours to ask for (decision 0068),
 * so within the guarantee it is offered here; once asked, it says so. Nothing is shown outside the guarantee.
 */
export function RefundAskSection({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const confirmingRefund = AccountActor.useSelector((snapshot) => snapshot.matches({ signedIn: 'confirmingRefund' }));
  // The guarantee is read against the time the page was opened: the server decides at the moment of the ask.
  const [now] = useState(() => new Date());
  if (!account.refundAsked && !isRefundAskable(account, now)) return null;
  return (
    <Section id="guarantee-title" title="Money-back guarantee">
      {account.refundAsked ? (
        <RefundAsked asked={account.refundAsked} />
      ) : confirmingRefund ? (
        <RefundConfirmation account={account} />
      ) : (
        <>
          <p>
            You are within the {REFUND_GUARANTEE_DAYS}-day money-back guarantee, until {day(account.guaranteeEndsAt)}: you can have{' '}
            {formatDollars(account.refundableCents)} back.
          </p>
          <Buttons>
            <Button type="button" disabled={busy} onClick={() => actorRef.send({ type: 'REFUND_ASK_CLICKED' })}>
              Ask for your refund
            </Button>
          </Buttons>
        </>
      )}
    </Section>
  );
}

/** Stripe mode: every change but the guarantee's refund is made in the provider's portal. */
export function PortalSection() {
  const actorRef = AccountActor.useActorRef();
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  return (
    <Section id="portal-title" title="Billing">
      <p>Cancel, change seats, update your card or see your invoices in our payment provider’s secure portal.</p>
      <Buttons>
        {(
          [
            ['cancel', 'Cancel subscription'],
            ['seats', 'Change seats'],
            ['card', 'Update card'],
            ['home', 'Invoices and billing'],
          ] as const
        ).map(([flow, label]) => (
          <Button key={flow} type="button" disabled={busy} onClick={() => actorRef.send({ type: 'PORTAL_CLICKED', flow })}>
            {label}
          </Button>
        ))}
      </Buttons>
    </Section>
  );
}

const Credentials = styled.dl`
  margin: 0;
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

/** The manage page's "ask once more": the question, what it means, and the two answers. */
function Confirmation({
  question,
  textId,
  text,
  yes,
  also,
  no,
}: {
  question: string;
  textId: string;
  text: string;
  yes: { label: string; variant: 'primary' | 'danger'; onClick: () => void };
  /** A second way to say yes (cancel and ask for the refund), beside the first. */
  also?: { label: string; variant: 'primary' | 'danger'; onClick: () => void };
  no: { label: string; onClick: () => void };
}) {
  return (
    <div role="alertdialog" aria-label={question} aria-describedby={textId}>
      <p id={textId}>{text}</p>
      <Buttons>
        <Button type="button" $variant={yes.variant} onClick={yes.onClick}>
          {yes.label}
        </Button>
        {also && (
          <Button type="button" $variant={also.variant} onClick={also.onClick}>
            {also.label}
          </Button>
        )}
        <Button type="button" onClick={no.onClick}>
          {no.label}
        </Button>
      </Buttons>
    </div>
  );
}

const Buttons = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

/** An invoice's tax, under its amount. */
const TaxLine = styled.span`
  display: block;
  color: ${colors.muted};
`;

const PastDue = styled.p`
  padding: 10px 12px;
  border-radius: 6px;
  background: #fef2f2;
  color: #b91c1c;
  font-weight: 600;
`;
