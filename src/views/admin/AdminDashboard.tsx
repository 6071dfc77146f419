import { useActorRef, useSelector } from '@xstate/react';
import { type FormEvent } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import { queryString } from '../../domain/pagePaths';
import type { Dashboard, MrrInterval, SetupStep } from '../../contract/admin';
import { formatDollars } from '../../domain/pricing';
import { consoleDashboardMachine } from '../../machines/consoleDashboardMachine';
import { colors, radii } from '../theme';
import { formText } from '../shared/formText';
import { Button, Card, Field, Form, Heading, Muted, StackedTable, SubHeading, Table } from '../shared/panelStyles';
import { MrrChart } from './MrrChart';
import { ReadFailure } from '../shared/ReadFailure';
import { ScrollRegion } from './ScrollRegion';
import { useSessionEnded } from './useSessionEnded';

/** `part` of `whole` as a whole percentage, or '—' when there is no whole. */
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');
const signedDollars = (cents: number) => (cents < 0 ? `−${formatDollars(-cents)}` : formatDollars(cents));

const INTERVAL_WORDS: Record<MrrInterval, string> = { day: 'day', week: 'week', month: 'month' };

/**
 * The business over a period (default: the last 30 days), every figure with its definition under it; the MRR
 * chart with its table; conversion by referrer. Renders consoleDashboardMachine's snapshot and sends it events.
 */
export function AdminDashboard({
  onUnauthorised,
  logic = consoleDashboardMachine,
}: {
  onUnauthorised: () => void;
  logic?: typeof consoleDashboardMachine;
}) {
  const actorRef = useActorRef(logic);
  const { dashboard: data, error, query } = useSelector(actorRef, (snapshot) => snapshot.context);
  const busy = useSelector(actorRef, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(actorRef, (snapshot) => snapshot.matches('failed'));
  useSessionEnded(actorRef, onUnauthorised);
  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    actorRef.send({ type: 'PERIOD_CHOSEN', from: formText(form, 'from'), to: formText(form, 'to') });
  };
  const interval = data?.interval ?? query.interval ?? 'day';
  return (
    <>
      <Heading>Dashboard</Heading>
      {data && data.setup.length > 0 && <SetupLeft steps={data.setup} />}
      <Card>
        <Form onSubmit={choose} aria-label="Period">
          <Field>
            From
            <input name="from" type="date" defaultValue={data?.from} key={`from-${data?.from}`} />
          </Field>
          <Field>
            To
            <input name="to" type="date" defaultValue={data?.to} key={`to-${data?.to}`} />
          </Field>
          <Button type="submit" disabled={busy}>
            Show
          </Button>
        </Form>
        <Muted>Whole days in UTC, both included.</Muted>
      </Card>
      {error && <ReadFailure error={error} onRetry={failed ? () => actorRef.send({ type: 'RETRY_CLICKED' }) : undefined} />}
      {busy && !data && <p aria-busy="true">Loading…</p>}
      {data && (
        <div aria-busy={busy}>
          <Figures aria-label={`Figures from ${data.from} to ${data.to}`}>
            <Figure label="Money collected" value={formatDollars(data.collectedCents)}>
              First payments and paid renewals in the period, less the refunds made in it.
            </Figure>
            <Figure label={`MRR on ${data.to}`} value={formatDollars(data.mrrCents)}>
              Monthly recurring revenue: the monthly totals of the subscriptions paid and not ended at the end of the period.
            </Figure>
            <Figure label="New MRR" value={formatDollars(data.newMrrCents)}>
              Monthly totals of the orders first paid in the period.
            </Figure>
            <Figure label="Churned MRR" value={formatDollars(data.churnedMrrCents)}>
              Monthly totals of the paid subscriptions that ended in the period.
            </Figure>
            <Figure label="Net new MRR" value={signedDollars(data.netMrrCents)}>
              New MRR less churned MRR.
            </Figure>
            <Figure label="Paid orders" value={String(data.paidOrders)}>
              Orders first paid in the period.
            </Figure>
            <Figure label="Paid seats" value={String(data.paidSeats)}>
              Seats of the orders first paid in the period.
            </Figure>
            <Figure label="Team seats assigned (claimed)" value={`${data.assignedSeats} (${data.claimedSeats})`}>
              Seats of active orders given to a colleague now (invited or claimed, not suspended); in brackets, those claimed.
            </Figure>
            <Figure label="Abandoned checkouts" value={String(data.abandonedCheckouts)}>
              Checkouts opened in the period with no paid order 24 hours after they opened.
            </Figure>
            <Figure label="Cancellations" value={String(data.cancellations)}>
              Subscriptions whose cancellation was asked for or took effect in the period, each counted once.{' '}
              <Link href="/cancellations">See the cancellations</Link>
            </Figure>
            <Figure label="Failed payments" value={String(data.failedPayments)}>
              Card payments refused in the period, first payments and renewals.{' '}
              <Link href={`/orders${queryString({ status: 'payment_failed', from: data.from, to: data.to })}`}>See these orders</Link>
            </Figure>
          </Figures>
          <MrrSection
            data={data}
            interval={interval}
            onInterval={(chosen) => actorRef.send({ type: 'INTERVAL_CHOSEN', interval: chosen })}
          />
          <SubHeading>Conversion by referrer</SubHeading>
          <Card>
            <p>
              <Muted>
                Views: offer pages shown. Opened: checkouts opened. Submitted: checkouts whose card was sent. Paid: checkouts paid. All in
                the period; MRR at its end.
              </Muted>
            </p>
            <ScrollRegion label="Conversion by referrer">
              <StackedTable aria-label="Conversion by referrer">
                <thead>
                  <tr>
                    <th>Referrer</th>
                    <th className="number">Views</th>
                    <th className="number">Opened</th>
                    <th className="number">Submitted</th>
                    <th className="number">Paid</th>
                    <th className="number">Views → paid</th>
                    <th className="number">Paid seats</th>
                    <th className="number">MRR</th>
                  </tr>
                </thead>
                <tbody>
                  {data.byReferrer.map((row) => (
                    <tr key={row.referrer?.id ?? 'none'}>
                      <td data-label="Referrer">{row.referrer ? `Dr. ${row.referrer.displayName}` : <Muted>(no link)</Muted>}</td>
                      <td data-label="Views" className="number">
                        {row.views}
                      </td>
                      <td data-label="Opened" className="number">
                        {row.opened}
                      </td>
                      <td data-label="Submitted" className="number">
                        {row.submitted}
                      </td>
                      <td data-label="Paid" className="number">
                        {row.paid}
                      </td>
                      <td data-label="Views → paid" className="number">
                        {percent(row.paid, row.views)}
                      </td>
                      <td data-label="Paid seats" className="number">
                        {row.paidSeats}
                      </td>
                      <td data-label="MRR" className="number">
                        {formatDollars(row.mrrCents)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </StackedTable>
            </ScrollRegion>
            <p>
              <a href={`/api/admin/referrers/report.csv${queryString({ from: data.from, to: data.to })}`} download>
                Download the report as CSV
              </a>{' '}
              <Muted>
                ({data.from} to {data.to}, UTC)
              </Muted>
            </p>
            <ReferrerCommissions rows={data.commissions} />
          </Card>
        </div>
      )}
    </>
  );
}

/** The MRR chart with its grouping and, for screen readers and anyone who prefers it, the same points as a table. */
function MrrSection({
  data,
  interval,
  onInterval,
}: {
  data: Dashboard;
  interval: MrrInterval;
  onInterval: (interval: MrrInterval) => void;
}) {
  return (
    <>
      <SubHeading id="mrr-heading">MRR over the period</SubHeading>
      <Card aria-labelledby="mrr-heading">
        <Field>
          One point per
          <select value={interval} onChange={(event) => onInterval(event.currentTarget.value as MrrInterval)}>
            <option value="day">day</option>
            <option value="week">week</option>
            <option value="month">month</option>
          </select>
        </Field>
        <p>
          <Muted>
            The MRR at the end of each {INTERVAL_WORDS[interval]} from {data.from} to {data.to} (UTC), at each order’s current monthly
            total.
          </Muted>
        </p>
        {/* A line along zero says nothing and its axis reads "$1 $1 $0": words say it instead. */}
        {data.mrrSeries.some((point) => point.mrrCents > 0) ? (
          <MrrChart points={data.mrrSeries} />
        ) : (
          <EmptyChart role="note" aria-label="MRR chart">
            No revenue yet: no subscription was active from {data.from} to {data.to}. The chart starts with the first paid order.
          </EmptyChart>
        )}
        <details>
          <summary>Show the MRR as a table</summary>
          <ScrollRegion label={`MRR by ${INTERVAL_WORDS[interval]}, scrollable`}>
            <Table aria-label={`MRR by ${INTERVAL_WORDS[interval]}`}>
              <thead>
                <tr>
                  <th>{interval === 'day' ? 'Day' : `${interval === 'week' ? 'Week' : 'Month'} ending`}</th>
                  <th className="number">MRR</th>
                </tr>
              </thead>
              <tbody>
                {data.mrrSeries.map((point) => (
                  <tr key={point.date}>
                    <td>{point.date}</td>
                    <td className="number">{formatDollars(point.mrrCents)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </ScrollRegion>
        </details>
      </Card>
    </>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children: React.ReactNode }) {
  return (
    <FigureCard>
      <dt>{label}</dt>
      <dd className="value">{value}</dd>
      <dd className="caption">{children}</dd>
    </FigureCard>
  );
}

const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(200px, 1fr));
  gap: 12px;
  margin: 0 0 8px;
`;

const FigureCard = styled.div`
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: 10px;
  padding: 12px 16px;
  dt {
    font-size: 0.875rem;
    font-weight: 600;
    color: ${colors.ink};
  }
  dd {
    margin: 4px 0 0;
  }
  dd.value {
    font-size: 1.5rem;
    font-weight: 700;
    color: ${colors.ink};
  }
  dd.caption {
    font-size: 0.8125rem;
    color: ${colors.text};
  }
`;

/**
 * Each referrer's commission now, whatever the period: owed (held in the 30-day guarantee window,
 * payable, or in a payout not yet marked paid) and paid. The Commissions screen pays it out.
 */
function ReferrerCommissions({ rows }: { rows: Dashboard['commissions'] }) {
  return (
    <>
      <SubHeading>Commission per referrer</SubHeading>
      {rows.length === 0 ? (
        <Muted>No commission booked yet.</Muted>
      ) : (
        <StackedTable aria-label="Commission per referrer">
          <caption>
            <Muted>Owed: held for the 30-day guarantee, payable, or in a payout not yet paid. Paid: in payouts marked paid.</Muted>
          </caption>
          <thead>
            <tr>
              <th>Referrer</th>
              <th className="number">Owed</th>
              <th className="number">Paid</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.referrerId}>
                <td data-label="Referrer">Dr. {row.displayName}</td>
                <td data-label="Owed" className="number">
                  {formatDollars(row.owedCents)}
                </td>
                <td data-label="Paid" className="number">
                  {formatDollars(row.paidCents)}
                </td>
              </tr>
            ))}
          </tbody>
        </StackedTable>
      )}
    </>
  );
}

/** Each step left to set up: what it is, why it matters to visitors, and where it is done. */
const SETUP_WORDS: Record<SetupStep, { what: string; why: string; where: string; link: string }> = {
  default_referrer: {
    what: 'Name the referrer visitors without a link see',
    why: 'Until then the offer reads “For Friends of Dr. Sample Only”, a placeholder. Edit the referrer named Sample: give the real doctor’s name and quote.',
    where: '/referrers',
    link: 'Go to Referrers',
  },
  testimonials: {
    what: 'Add testimonials',
    why: 'The offer shows none until you enter up to three practitioners’ words (name, practice, quote).',
    where: '/content',
    link: 'Go to Content',
  },
  guarantee: {
    what: 'Check the guarantee',
    why: 'The text under the guarantee seal is the built-in one until you save the offer’s content.',
    where: '/content',
    link: 'Go to Content',
  },
};

/** What is left to set up before the offer reads as the owner's; gone once each is done (server/admin/setup.ts). */
function SetupLeft({ steps }: { steps: SetupStep[] }) {
  return (
    <Card role="region" aria-labelledby="setup-heading">
      <SubHeading id="setup-heading">Left to set up</SubHeading>
      <ol>
        {steps.map((step) => (
          <li key={step}>
            <strong>{SETUP_WORDS[step].what}.</strong> {SETUP_WORDS[step].why}{' '}
            <Link href={SETUP_WORDS[step].where}>{SETUP_WORDS[step].link}</Link>
          </li>
        ))}
      </ol>
    </Card>
  );
}

const EmptyChart = styled.p`
  display: grid;
  place-items: center;
  min-height: 120px;
  margin: 0;
  padding: 16px;
  border: 1px dashed ${colors.muted};
  border-radius: ${radii.small};
  color: ${colors.text};
  text-align: center;
`;
