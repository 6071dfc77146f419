import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { adminApi, queryString } from '../../api/adminApi';
import { ORDER_STATUSES, type OrdersQuery } from '../../contract/admin';
import { formatDollars } from '../../domain/pricing';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, SubHeading, Table } from '../shared/panelStyles';
import { useAdminData } from './useAdminData';

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
  const { data, error } = useAdminData(() => adminApi.order(transactionId), transactionId, onUnauthorised);
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
            <tr><th>Status</th><td>{order.status}</td></tr>
            <tr><th>Seats</th><td>{order.quantity}</td></tr>
            <tr><th>Monthly total</th><td>{formatDollars(order.amountCents)}/month</td></tr>
            <tr><th>Buyer</th><td>{order.name ? `${order.name} <${order.email ?? ''}>` : '—'}</td></tr>
            <tr><th>Referrer</th><td>{order.referrer ? `Dr. ${order.referrer.displayName} (/r/${order.referrer.slug})` : '(no link)'}</td></tr>
            <tr><th>affiliate_id sent</th><td>{order.affiliateId}</td></tr>
            <tr><th>Provider</th><td>{order.provider}</td></tr>
            <tr><th>Customer</th><td>{order.customerId}</td></tr>
            <tr><th>Subscription</th><td>{order.subscriptionId}</td></tr>
            <tr><th>Opened</th><td>{when(order.createdAt)}</td></tr>
            <tr><th>Paid</th><td>{when(order.paidAt)}</td></tr>
            <tr><th>Cancelled</th><td>{when(order.cancelledAt)}</td></tr>
          </tbody>
        </Table>
      </Card>
      <SubHeading>Events</SubHeading>
      <Card>
        <ol aria-label="Events">
          {events.map((event, index) => (
            <li key={index}>
              {when(event.occurredAt)}: {event.type.replace(/_/g, ' ')}
              {event.detail && <Muted> {Object.entries(event.detail).map(([key, value]) => `${key} ${value}`).join(', ')}</Muted>}
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}
