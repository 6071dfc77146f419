import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { adminApi, queryString } from '../../api/adminApi';
import { ORDER_STATUSES, type OrdersQuery } from '../../contract/admin';
import { formatDollars } from '../../domain/pricing';
import { isWithinRefundGuarantee, REFUND_GUARANTEE_DAYS } from '../../domain/refunds';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, SubHeading, Table } from '../shared/panelStyles';
import { refundMachine } from '../../machines/refundMachine';
import { useAdminData } from './useAdminData';
import { OrderSeats } from './OrderSeats';

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '—');

/** Orders, newest first, filtered by status, referrer and the days they opened; CSV of the same. */
export function AdminOrders({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [query, setQuery] = useState<OrdersQuery>({});
  const orders = useAdminData(() => adminApi.orders(query), JSON.stringify(query), onUnauthorised);
  const referrers = useAdminData(() => adminApi.referrers(), 'referrers', onUnauthorised);
  const filter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => formText(form, name) || undefined;
    setQuery({ status: value('status') as OrdersQuery['status'], referrer: value('referrer'), from: value('from'), to: value('to') });
  };
  return (
    <>
      <Heading>Orders</Heading>
      <Card>
        <Form onSubmit={filter} aria-label="Filter orders">
          <Field>
            Status
            <select name="status" defaultValue="">
              <option value="">Any</option>
              {ORDER_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </Field>
          <Field>
            Referrer
            <select name="referrer" defaultValue="">
              <option value="">Any</option>
              <option value="none">(no link)</option>
              {referrers.data?.referrers.map((referrer) => (
                <option key={referrer.id} value={referrer.id}>
                  Dr. {referrer.displayName}
                </option>
              ))}
            </select>
          </Field>
          <Field>
            Opened from
            <input name="from" type="date" />
          </Field>
          <Field>
            to
            <input name="to" type="date" />
          </Field>
          <Button type="submit">Filter</Button>
        </Form>
      </Card>
      {orders.error && <ErrorText role="alert">{orders.error}</ErrorText>}
      <Card>
        <Table aria-label="Orders">
          <thead>
            <tr>
              <th>Opened</th>
              <th>Buyer</th>
              <th className="number">Seats</th>
              <th className="number">Monthly total</th>
              <th>Status</th>
              <th>Referrer</th>
            </tr>
          </thead>
          <tbody>
            {orders.data?.orders.map((order) => (
              <tr key={order.transactionId}>
                <td>
                  <Link href={`/orders/${encodeURIComponent(order.transactionId)}`}>{when(order.createdAt)}</Link>
                </td>
                <td>{order.name ? `${order.name} <${order.email ?? ''}>` : <Muted>not given</Muted>}</td>
                <td className="number">{order.quantity}</td>
                <td className="number">{formatDollars(order.amountCents)}/month</td>
                <td>{order.status}</td>
                <td>{order.referrer ? `Dr. ${order.referrer.displayName}` : <Muted>(no link)</Muted>}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        {orders.data?.orders.length === 0 && <p>No orders match.</p>}
        <p>
          <a href={`/api/admin/orders.csv${queryString({ ...query })}`} download>
            Download these orders as CSV
          </a>
        </p>
      </Card>
    </>
  );
}

/** One order: what was bought, by whom, through whom, the provider's ids, and its funnel events. */
export function AdminOrderDetail({ transactionId, onUnauthorised }: { transactionId: string; onUnauthorised: () => void }) {
  const { data, error, reload } = useAdminData(() => adminApi.order(transactionId), transactionId, onUnauthorised);
  if (error) return <ErrorText role="alert">{error}</ErrorText>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const { order, events } = data;
  return (
    <>
      <Heading>Order {order.transactionId}</Heading>
      <p>
        <Link href="/orders">← All orders</Link>
      </p>
      <Card>
        <Table aria-label="Order">
          <tbody>
            <tr>
              <th>Status</th>
              <td>{order.status}</td>
            </tr>
            <tr>
              <th>Seats</th>
              <td>{order.quantity}</td>
            </tr>
            <tr>
              <th>Monthly total</th>
              <td>{formatDollars(order.amountCents)}/month</td>
            </tr>
            <tr>
              <th>Buyer</th>
              <td>{order.name ? `${order.name} <${order.email ?? ''}>` : '—'}</td>
            </tr>
            <tr>
              <th>Referrer</th>
              <td>{order.referrer ? `Dr. ${order.referrer.displayName} (/r/${order.referrer.slug})` : '(no link)'}</td>
            </tr>
            <tr>
              <th>affiliate_id sent</th>
              <td>{order.affiliateId}</td>
            </tr>
            <tr>
              <th>Provider</th>
              <td>{order.provider}</td>
            </tr>
            <tr>
              <th>Customer</th>
              <td>{order.customerId}</td>
            </tr>
            <tr>
              <th>Subscription</th>
              <td>{order.subscriptionId}</td>
            </tr>
            <tr>
              <th>Opened</th>
              <td>{when(order.createdAt)}</td>
            </tr>
            <tr>
              <th>Paid</th>
              <td>{when(order.paidAt)}</td>
            </tr>
            <tr>
              <th>Cancelled</th>
              <td>{when(order.cancelledAt)}</td>
            </tr>
            <tr>
              <th>Refunded</th>
              <td>{order.refundedCents > 0 ? formatDollars(order.refundedCents) : '—'}</td>
            </tr>
          </tbody>
        </Table>
      </Card>
      {order.paidAt && (
        <RefundPanel transactionId={order.transactionId} paidAt={order.paidAt} onRefunded={reload} onUnauthorised={onUnauthorised} />
      )}
      <OrderSeats seats={data.seats} />
      <SubHeading>Events</SubHeading>
      <Card>
        <ol aria-label="Events">
          {events.map((event, index) => (
            <li key={index}>
              {when(event.occurredAt)}: {event.type.replace(/_/g, ' ')}
              {event.detail && (
                <Muted>
                  {' '}
                  {Object.entries(event.detail)
                    .map(([key, value]) => `${key} ${value}`)
                    .join(', ')}
                </Muted>
              )}
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}

/**
 * Refund this order (src/machines/refundMachine.ts): everything within the 30-day guarantee, else an amount in
 * dollars; asks once more before it refunds. The subscription ends at once.
 */
function RefundPanel({
  transactionId,
  paidAt,
  onRefunded,
  onUnauthorised,
}: {
  transactionId: string;
  paidAt: string;
  onRefunded: () => void;
  onUnauthorised: () => void;
}) {
  const actorRef = useActorRef(refundMachine, { input: { transactionId } });
  const state = useSelector(actorRef, (snapshot) => snapshot.value);
  const { amountCents, error } = useSelector(actorRef, (snapshot) => snapshot.context);
  const [amountError, setAmountError] = useState<string>();
  useEffect(() => {
    const refunded = actorRef.on('refunded', onRefunded);
    const unauthorised = actorRef.on('unauthorised', onUnauthorised);
    return () => {
      refunded.unsubscribe();
      unauthorised.unsubscribe();
    };
  }, [actorRef, onRefunded, onUnauthorised]);
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
    setAmountError(undefined);
    actorRef.send({ type: 'REFUND_REQUESTED', amountCents: Math.round(dollars * 100) });
  };
  if (state === 'refunded') return null;
  return (
    <>
      <SubHeading>Refund</SubHeading>
      <Card>
        {state === 'idle' && (
          <Form onSubmit={request} aria-label="Refund">
            <Field>
              Amount in dollars{' '}
              {withinGuarantee
                ? `(empty: everything paid, within the ${REFUND_GUARANTEE_DAYS}-day guarantee)`
                : `(required after the ${REFUND_GUARANTEE_DAYS}-day guarantee)`}
              <input
                name="amount"
                inputMode="decimal"
                aria-invalid={amountError ? true : undefined}
                aria-describedby="refund-amount-error"
              />
            </Field>
            {amountError && <ErrorText id="refund-amount-error">{amountError}</ErrorText>}
            <Button type="submit">Refund…</Button>
            {error && <ErrorText role="alert">{error}</ErrorText>}
          </Form>
        )}
        {state === 'confirming' && (
          <div role="alertdialog" aria-label="Confirm the refund">
            <p>
              Refund {amountCents === null ? 'everything paid' : formatDollars(amountCents)} and end the subscription now? The buyer is
              mailed and loses access.
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
