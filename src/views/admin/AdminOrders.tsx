import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { queryString } from '../../domain/pagePaths';
import { ORDER_FILTERS, type OrderAction, type OrderFilter, type OrderRow, type OrdersQuery } from '../../contract/admin';
import { consoleDay, orderStanding, orderStatusWords, STANDING_LABELS } from '../../domain/orderStatus';
import { invoiceStatusWords } from '../../domain/invoiceStatus';
import { openRefundAsk, REFUND_GUARANTEE_DAYS, refundableCents } from '../../domain/refunds';
import { formatDollars } from '../../domain/pricing';
import { consoleOrderMachine } from '../../machines/consoleOrderMachine';
import { consoleOrdersMachine } from '../../machines/consoleOrdersMachine';
import { colors } from '../theme';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, StackedTable, SubHeading, Table } from '../shared/panelStyles';
import { eventWords } from './eventWords';
import { OrderCommissions } from './OrderCommissions';
import { OrderSeats } from './OrderSeats';
import { RefundPanel } from './RefundPanel';
import { ReadFailure } from '../shared/ReadFailure';
import { ScrollRegion } from './ScrollRegion';
import { useSessionEnded } from './useSessionEnded';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '—';

/** The filter's words: each standing, and the two views the dashboard links to. */
const FILTER_LABELS: Record<OrderFilter, string> = {
  ...STANDING_LABELS,
  cancellations: 'Any cancellation (scheduled or done)',
  payment_failed: 'A payment failed',
};

/** The orders query a console address carries (`/orders?status=past_due`), unknown values left out. */
export function ordersQueryOf(search: string): OrdersQuery {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const day = (name: string) => (/^\d{4}-\d{2}-\d{2}$/.test(params.get(name) ?? '') ? params.get(name)! : undefined);
  return {
    ...(status && (ORDER_FILTERS as readonly string[]).includes(status) ? { status: status as OrderFilter } : {}),
    ...(params.get('referrer') ? { referrer: params.get('referrer')! } : {}),
    ...(day('from') ? { from: day('from') } : {}),
    ...(day('to') ? { to: day('to') } : {}),
    ...(params.get('buyer')?.trim() ? { buyer: params.get('buyer')!.trim().slice(0, 254) } : {}),
    ...(params.get('unpaid') === 'shown' ? { unpaid: 'shown' as const } : {}),
  };
}

/** An order's page is titled by its buyer, "Jane Doe <jane@example.com>"; a checkout nobody finished, by what it is. */
export function orderTitle(order: Pick<OrderRow, 'name' | 'email'>): string {
  if (order.name && order.email) return `${order.name} <${order.email}>`;
  return order.name ?? order.email ?? 'Unpaid checkout (no buyer given)';
}

const buyer = (order: OrderRow) => (order.name ? `${order.name} <${order.email ?? ''}>` : <Muted>not given</Muted>);

/**
 * Orders, newest first, filtered by status (in words: Active, Cancels on…, Past due since…), referrer, the days
 * they opened and part of the buyer's email or name; checkouts nobody paid only when asked (or filtered for);
 * CSV of the same. `cancellations`: the Cancellations view (every order with a cancellation,
 * its date and the buyer's reason). Renders consoleOrdersMachine's snapshot and sends it events.
 */
export function AdminOrders({
  onUnauthorised,
  initialQuery = {},
  cancellations = false,
  logic = consoleOrdersMachine,
}: {
  onUnauthorised: () => void;
  initialQuery?: OrdersQuery;
  cancellations?: boolean;
  logic?: typeof consoleOrdersMachine;
}) {
  const actorRef = useActorRef(logic, { input: { query: cancellations ? { status: 'cancellations' } : initialQuery } });
  const { orders, referrers, error, query } = useSelector(actorRef, (snapshot) => snapshot.context);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(actorRef, (snapshot) => snapshot.matches('failed'));
  const loaded = useSelector(actorRef, (snapshot) => snapshot.matches('ready'));
  useSessionEnded(actorRef, onUnauthorised);
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => formText(form, name) || undefined;
    actorRef.send({
      type: 'FILTER_SUBMITTED',
      query: {
        status: cancellations ? 'cancellations' : (value('status') as OrderFilter | undefined),
        referrer: value('referrer'),
        from: value('from'),
        to: value('to'),
        buyer: value('buyer')?.trim() || undefined,
        unpaid: form.get('unpaid') ? 'shown' : undefined,
      },
    });
  };
  return (
    <>
      <Heading>{cancellations ? 'Cancellations' : 'Orders'}</Heading>
      {cancellations && (
        <p>
          <Muted>Every subscription with a cancellation, scheduled or done, and the reason the buyer gave.</Muted>
        </p>
      )}
      <Card>
        <Form onSubmit={filter} aria-label="Filter orders">
          <Field>
            Buyer
            <input name="buyer" type="search" maxLength={254} placeholder="Email or name" defaultValue={query.buyer} />
          </Field>
          {!cancellations && (
            <Field>
              Status
              <select name="status" defaultValue={query.status ?? ''}>
                <option value="">Any</option>
                {ORDER_FILTERS.map((status) => (
                  <option key={status} value={status}>
                    {FILTER_LABELS[status]}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <Field>
            Referrer
            <select name="referrer" defaultValue={query.referrer ?? ''}>
              <option value="">Any</option>
              <option value="none">(no link)</option>
              {referrers.map((referrer) => (
                <option key={referrer.id} value={referrer.id}>
                  Dr. {referrer.displayName}
                </option>
              ))}
            </select>
          </Field>
          <Field>
            {query.status === 'payment_failed' ? 'Failed from' : 'Opened from'}
            <input name="from" type="date" defaultValue={query.from} />
          </Field>
          <Field>
            to
            <input name="to" type="date" defaultValue={query.to} />
          </Field>
          {!cancellations && (
            <Check>
              <input name="unpaid" type="checkbox" defaultChecked={query.unpaid === 'shown'} /> Show unpaid checkouts
            </Check>
          )}
          <Button type="submit" disabled={busy}>
            Filter
          </Button>
        </Form>
      </Card>
      {error && <ReadFailure error={error} onRetry={failed ? () => actorRef.send({ type: 'RETRY_CLICKED' }) : undefined} />}
      <Card aria-busy={busy}>
        <ScrollRegion label={cancellations ? 'Cancellations' : 'Orders'}>
          <StackedTable aria-label={cancellations ? 'Cancellations' : 'Orders'}>
            <thead>
              <tr>
                <th>Opened</th>
                <th>Buyer</th>
                <th className="number">Seats</th>
                <th className="number">Monthly total</th>
                <th>Status</th>
                {cancellations ? <th>Reason</th> : <th>Referrer</th>}
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.transactionId}>
                  <td data-label="Opened">
                    <Link href={`/orders/${encodeURIComponent(order.transactionId)}`}>{when(order.createdAt)}</Link>
                  </td>
                  <td data-label="Buyer">{buyer(order)}</td>
                  <td className="number" data-label="Seats">
                    {order.quantity}
                  </td>
                  <td className="number" data-label="Monthly total">
                    {formatDollars(order.amountCents)}/month
                  </td>
                  <td data-label="Status">
                    <Status $standing={orderStanding(order)}>{orderStatusWords(order)}</Status>
                    {openRefundAsk(order) && (
                      <>
                        {' '}
                        <RefundAskedBadge>Refund asked: {formatDollars(openRefundAsk(order)!.amountCents)}</RefundAskedBadge>
                      </>
                    )}
                  </td>
                  {cancellations ? (
                    <td data-label="Reason">{order.cancellationReason ? `“${order.cancellationReason}”` : <Muted>none given</Muted>}</td>
                  ) : (
                    <td data-label="Referrer">{order.referrer ? `Dr. ${order.referrer.displayName}` : <Muted>(no link)</Muted>}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </StackedTable>
        </ScrollRegion>
        {loaded && orders.length === 0 && <p>No orders match.</p>}
        {!cancellations && !query.status && query.unpaid !== 'shown' && (
          <p>
            <Muted>Checkouts nobody paid for are left out: tick “Show unpaid checkouts” to see them.</Muted>
          </p>
        )}
        {!cancellations && (
          <p>
            <a href={`/api/admin/orders.csv${queryString({ ...query })}`} download>
              Download these orders as CSV
            </a>
          </p>
        )}
      </Card>
    </>
  );
}

const ACTION_LABELS: Record<OrderAction, string> = {
  resend_confirmation: 'Re-send the confirmation mail',
  send_sign_in_link: 'Mail a sign-in link',
  cancel_at_period_end: 'Cancel at the end of the period…',
  cancel_now: 'Cancel now…',
};

const CONFIRM_QUESTIONS: Partial<Record<OrderAction, string>> = {
  cancel_at_period_end: 'End this subscription at the end of its paid period? The buyer keeps access until then and is mailed.',
  cancel_now: 'End this subscription now, without a refund? The buyer loses access at once.',
};

/**
 * One order: its status in words (with the buyer's cancellation reason), what was bought, by whom, through whom,
 * the provider's ids, its invoices, its events in words, and the owner's actions (re-send the confirmation, a
 * sign-in link, cancel at period end or now, refund). Renders consoleOrderMachine's snapshot and sends it events.
 */
export function AdminOrderDetail({
  transactionId,
  onUnauthorised,
  logic = consoleOrderMachine,
}: {
  transactionId: string;
  onUnauthorised: () => void;
  logic?: typeof consoleOrderMachine;
}) {
  const actorRef = useActorRef(logic, { input: { transactionId } });
  const { detail, action, notice, error } = useSelector(actorRef, (snapshot) => snapshot.context);
  const state = useSelector(actorRef, (snapshot) => snapshot.value);
  const refund = useSelector(actorRef, (snapshot) => snapshot.children.refund);
  useSessionEnded(actorRef, onUnauthorised);
  if (state === 'failed') return <ReadFailure error={error ?? ''} onRetry={() => actorRef.send({ type: 'RETRY_CLICKED' })} />;
  if (!detail) return <p aria-busy="true">Loading…</p>;
  const { order, events, invoices } = detail;
  const standing = orderStanding(order);
  const subscribed = standing === 'active' || standing === 'cancelling' || standing === 'past_due';
  const confirming = typeof state === 'object' && state.ready === 'confirming';
  const acting = typeof state === 'object' && state.ready === 'acting';
  const actions: OrderAction[] = order.paidAt
    ? [
        'resend_confirmation',
        'send_sign_in_link',
        ...(standing === 'active' ? (['cancel_at_period_end'] as const) : []),
        ...(subscribed ? (['cancel_now'] as const) : []),
      ]
    : [];
  return (
    <>
      <Heading>{orderTitle(order)}</Heading>
      <p>
        <Link href="/orders">← All orders</Link>
      </p>
      <div role="status">{notice && <Notice>{notice}</Notice>}</div>
      {state === 'loading' && <p aria-busy="true">Loading…</p>}
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <Card>
        <Facts aria-label="Order">
          <tbody>
            <tr>
              <th scope="row">Status</th>
              <td>
                <Status $standing={standing}>{orderStatusWords(order)}</Status>
              </td>
            </tr>
            {order.cancelAt && (
              <tr>
                <th scope="row">Cancellation</th>
                <td>
                  {standing === 'cancelling' ? `Ends on ${consoleDay(order.cancelAt)}` : `Scheduled for ${consoleDay(order.cancelAt)}`}
                  {'. '}
                  {order.cancellationReason ? `Reason: “${order.cancellationReason}”` : <Muted>No reason given.</Muted>}
                </td>
              </tr>
            )}
            <tr>
              <th scope="row">Seats</th>
              <td>{order.quantity}</td>
            </tr>
            <tr>
              <th scope="row">Monthly total</th>
              <td>{formatDollars(order.amountCents)}/month</td>
            </tr>
            <tr>
              <th scope="row">Buyer</th>
              <td>{order.name ? `${order.name} <${order.email ?? ''}>` : '—'}</td>
            </tr>
            <tr>
              <th scope="row">Referrer</th>
              <td>{order.referrer ? `Dr. ${order.referrer.displayName} (/r/${order.referrer.slug})` : '(no link)'}</td>
            </tr>
            <tr>
              <th scope="row">affiliate_id sent</th>
              <td>{order.affiliateId}</td>
            </tr>
            <tr>
              <th scope="row">Order</th>
              <td>{order.transactionId}</td>
            </tr>
            <tr>
              <th scope="row">Provider</th>
              <td>{order.provider}</td>
            </tr>
            <tr>
              <th scope="row">Customer</th>
              <td>{order.customerId}</td>
            </tr>
            <tr>
              <th scope="row">Subscription</th>
              <td>{order.subscriptionId}</td>
            </tr>
            <tr>
              <th scope="row">Opened</th>
              <td>{when(order.createdAt)}</td>
            </tr>
            <tr>
              <th scope="row">Paid</th>
              <td>{when(order.paidAt)}</td>
            </tr>
            <tr>
              <th scope="row">Ended</th>
              <td>{when(order.cancelledAt)}</td>
            </tr>
            <tr>
              <th scope="row">Refunded</th>
              <td>{refundedWords(order)}</td>
            </tr>
            {order.refundAsked && (
              <tr>
                <th scope="row">Refund asked</th>
                <td>
                  {formatDollars(order.refundAsked.amountCents)} on {when(order.refundAsked.at)}, under the {REFUND_GUARANTEE_DAYS}-day
                  guarantee.{' '}
                  {openRefundAsk(order) ? (
                    <strong>Waiting for your refund (below).</strong>
                  ) : (
                    <Muted>Answered: the subscription has ended.</Muted>
                  )}
                </td>
              </tr>
            )}
          </tbody>
        </Facts>
      </Card>
      {actions.length > 0 && (
        <>
          <SubHeading>Actions</SubHeading>
          <Card>
            {confirming && action ? (
              <div role="alertdialog" aria-label="Confirm">
                <p>{CONFIRM_QUESTIONS[action]}</p>
                <Button type="button" $variant="danger" onClick={() => actorRef.send({ type: 'ACTION_CONFIRMED' })}>
                  {action === 'cancel_now' ? 'End it now' : 'Cancel at period end'}
                </Button>{' '}
                <Button type="button" onClick={() => actorRef.send({ type: 'ACTION_ABANDONED' })}>
                  Keep the subscription
                </Button>
              </div>
            ) : (
              <Actions>
                {actions.map((each) => (
                  <Button
                    key={each}
                    type="button"
                    disabled={acting}
                    onClick={() => actorRef.send({ type: 'ACTION_CLICKED', action: each })}
                  >
                    {ACTION_LABELS[each]}
                  </Button>
                ))}
              </Actions>
            )}
            {acting && <p aria-busy="true">Working…</p>}
          </Card>
        </>
      )}
      {subscribed && order.paidAt && refund && (
        <RefundPanel
          actorRef={refund}
          paidAt={order.paidAt}
          refundableCents={invoices ? refundableCents(invoices) : null}
          askedCents={openRefundAsk(order)?.amountCents ?? null}
          onUnauthorised={onUnauthorised}
        />
      )}
      <SubHeading>Invoices</SubHeading>
      <Card>
        {invoices === null ? (
          <p>The payment provider could not be asked for the invoices just now. Reload the page to try again.</p>
        ) : invoices.length === 0 ? (
          <p>No invoices yet.</p>
        ) : (
          <ScrollRegion label="Invoices">
            <StackedTable aria-label="Invoices">
              <thead>
                <tr>
                  <th>Date</th>
                  <th className="number">Amount</th>
                  <th className="number">Tax</th>
                  <th>Status</th>
                  <th>Invoice</th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => (
                  <tr key={invoice.id}>
                    <td data-label="Date">{consoleDay(invoice.date)}</td>
                    <td data-label="Amount" className="number">
                      {formatDollars(invoice.amountCents)}
                    </td>
                    {/* The tax in the amount, apart: what the owner owes the state out of it. */}
                    <td data-label="Tax" className="number">
                      {invoice.taxCents > 0 ? formatDollars(invoice.taxCents) : '—'}
                    </td>
                    <td data-label="Status">{invoiceStatusWords(invoice)}</td>
                    <td data-label="Invoice">{invoice.id}</td>
                  </tr>
                ))}
              </tbody>
            </StackedTable>
          </ScrollRegion>
        )}
      </Card>
      <OrderSeats seats={detail.seats} buyerAgreementSignedAt={detail.buyerAgreementSignedAt} />
      <OrderCommissions entries={detail.commissions} />
      <SubHeading>Events</SubHeading>
      <Card>
        <ol aria-label="Events">
          {events.map((event, index) => (
            <li key={index}>
              <Muted>{when(event.occurredAt)}</Muted> {eventWords(event)}
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}

const STANDING_COLOURS: Record<string, string> = {
  active: colors.success,
  cancelling: colors.warning,
  past_due: colors.danger,
  refunded: colors.muted,
  cancelled: colors.muted,
  open: colors.text,
  disputed: colors.danger,
};

const Status = styled.span<{ $standing: string }>`
  font-weight: 600;
  color: ${({ $standing }) => ($standing === 'cancelling' ? '#9a3412' : (STANDING_COLOURS[$standing] ?? colors.text))};
`;

/** A buyer's refund ask waiting for the owner (docs/decisions/0068): dark orange on light, readable (4.5:1). */
const RefundAskedBadge = styled.span`
  display: inline-block;
  padding: 0 6px;
  border-radius: 4px;
  background: ${colors.warningSoft};
  color: #9a3412;
  font-weight: 600;
  white-space: nowrap;
`;

const Notice = styled.p`
  background: ${colors.successSoft};
  color: ${colors.ctaDark};
  padding: 8px 12px;
  border-radius: 6px;
`;

/** The order's facts: long ids (the order's, the provider's) wrap on a phone instead of widening the card. */
const Facts = styled(Table)`
  td {
    overflow-wrap: anywhere;
  }
`;

const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 6px;
  align-self: end;
  font-size: 0.875rem;
  min-height: 44px;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

/**
 * What was refunded, and of a taxed order's refund its split: '$261.78: $250.00 before tax and $11.78 tax'
 * (docs/decisions/0074); '—' when nothing was.
 */
function refundedWords({ refundedCents, refundedTaxCents = 0 }: OrderRow): string {
  if (refundedCents <= 0) return '—';
  if (refundedTaxCents <= 0) return formatDollars(refundedCents);
  return `${formatDollars(refundedCents)}: ${formatDollars(refundedCents - refundedTaxCents)} before tax and ${formatDollars(refundedTaxCents)} tax`;
}
