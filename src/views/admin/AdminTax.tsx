import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import type { TaxReportRow } from '../../contract/admin';
import { queryString } from '../../domain/pagePaths';
import { formatDollars } from '../../domain/pricing';
import { taxNameOf } from '../../domain/tax';
import { consoleTaxMachine } from '../../machines/consoleTaxMachine';
import { formText } from '../shared/formText';
import { Button, Card, Field, Form, Heading, Muted, StackedTable, SubHeading } from '../shared/panelStyles';
import { ReadFailure } from '../shared/ReadFailure';
import { ScrollRegion } from './ScrollRegion';
import { useSessionEnded } from './useSessionEnded';

/**
 * The tax the owner files (docs/decisions/0074): per registered state and month, the sales before tax and the tax
 * collected on them, what refunds took back of each, the net tax, and a CSV of the same. Renders consoleTaxMachine's
 * snapshot and sends it events; amounts in dollars.
 */
export function AdminTax({ onUnauthorised, logic = consoleTaxMachine }: { onUnauthorised: () => void; logic?: typeof consoleTaxMachine }) {
  const actorRef = useActorRef(logic);
  const { report, error } = useSelector(actorRef, (snapshot) => snapshot.context);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(actorRef, (snapshot) => snapshot.matches('failed'));
  useSessionEnded(actorRef, onUnauthorised);
  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    actorRef.send({ type: 'MONTHS_CHOSEN', from: formText(form, 'from'), to: formText(form, 'to') });
  };
  return (
    <>
      <Heading>Tax</Heading>
      <Card>
        <Form onSubmit={choose} aria-label="Months">
          <Field>
            From
            <input name="from" type="month" placeholder="YYYY-MM" defaultValue={report?.from} key={`from-${report?.from}`} />
          </Field>
          <Field>
            To
            <input name="to" type="month" placeholder="YYYY-MM" defaultValue={report?.to} key={`to-${report?.to}`} />
          </Field>
          <Button type="submit" disabled={busy}>
            Show
          </Button>
        </Form>
        <Muted>Whole months in UTC, both included. A payment counts in the month it was paid, a refund in the month it was made.</Muted>
      </Card>
      {error && <ReadFailure error={error} onRetry={failed ? () => actorRef.send({ type: 'RETRY_CLICKED' }) : undefined} />}
      {busy && !report && <p aria-busy="true">Loading…</p>}
      {report && (
        <div aria-busy={busy}>
          <SubHeading>
            Tax collected from {report.from} to {report.to}
          </SubHeading>
          <Card>
            {report.rows.length === 0 ? (
              <p>
                No taxed payment or refund from {report.from} to {report.to}: nothing to file for these months.
              </p>
            ) : (
              <>
                <TaxTable label={`Tax by state and month, ${report.from} to ${report.to}`} rows={report.rows} first="Month" />
                <SubHeading>Totals by state</SubHeading>
                <TaxTable label={`Tax by state, ${report.from} to ${report.to}`} rows={report.totals} first="Period" />
              </>
            )}
            <p>
              <a href={`/api/admin/tax.csv${queryString({ from: report.from, to: report.to })}`} download>
                Download the report as CSV
              </a>
            </p>
            <Muted>
              Sales are before tax; refunds take back the tax in proportion to the part of the payment refunded. With Stripe, Stripe Tax’s
              own reports (Dashboard → Tax → Reports) show the same payments.
            </Muted>
          </Card>
        </div>
      )}
    </>
  );
}

/** A table of report rows, each state named with its tax. */
function TaxTable({ label, rows, first }: { label: string; rows: TaxReportRow[]; first: 'Month' | 'Period' }) {
  return (
    <ScrollRegion label={`${label}, scrollable`}>
      <StackedTable aria-label={label}>
        <thead>
          <tr>
            <th>State</th>
            <th>{first}</th>
            <th className="number">Sales before tax</th>
            <th className="number">Tax collected</th>
            <th className="number">Sales refunded</th>
            <th className="number">Tax refunded</th>
            <th className="number">Net tax</th>
            <th className="number">Payments</th>
            <th className="number">Refunds</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.state}-${row.month}`}>
              <td data-label="State">
                {row.state} <Muted>({taxNameOf(row.state)})</Muted>
              </td>
              <td data-label={first}>{row.month}</td>
              <td data-label="Sales before tax" className="number">
                {formatDollars(row.salesCents)}
              </td>
              <td data-label="Tax collected" className="number">
                {formatDollars(row.taxCollectedCents)}
              </td>
              <td data-label="Sales refunded" className="number">
                {formatDollars(row.salesRefundedCents)}
              </td>
              <td data-label="Tax refunded" className="number">
                {formatDollars(row.taxRefundedCents)}
              </td>
              <td data-label="Net tax" className="number">
                {formatDollars(row.netTaxCents)}
              </td>
              <td data-label="Payments" className="number">
                {row.payments}
              </td>
              <td data-label="Refunds" className="number">
                {row.refunds}
              </td>
            </tr>
          ))}
        </tbody>
      </StackedTable>
    </ScrollRegion>
  );
}
