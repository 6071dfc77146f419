import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { adminApi, queryString } from '../../api/adminApi';
import type { PeriodQuery } from '../../contract/admin';
import { formatDollars } from '../../domain/pricing';
import { colors } from '../theme';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, SubHeading, Table } from '../shared/panelStyles';
import { useAdminData } from './useAdminData';

/** `part` of `whole` as a whole percentage, or '—' when there is no whole. */
const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)}%` : '—');

/** Revenue, orders and each referrer's funnel over a period (default: the last 30 days). */
export function AdminDashboard({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [period, setPeriod] = useState<PeriodQuery>({});
  const { data, error } = useAdminData(() => adminApi.dashboard(period), JSON.stringify(period), onUnauthorised);
  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPeriod({ from: formText(form, 'from') || undefined, to: formText(form, 'to') || undefined });
  };
  return (
    <>
      <Heading>Dashboard</Heading>
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
          <Button type="submit">Show</Button>
        </Form>
      </Card>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {data && (
        <>
          <Figures>
            <Figure label="Monthly recurring revenue" value={formatDollars(data.mrrCents)} />
            <Figure label="Paid orders" value={String(data.paidOrders)} />
            <Figure label="Paid seats" value={String(data.paidSeats)} />
            <Figure label="Team seats assigned (claimed)" value={`${data.assignedSeats} (${data.claimedSeats})`} />
            <Figure label="Abandoned checkouts" value={String(data.abandonedCheckouts)} />
            <Figure label="Cancellations" value={String(data.cancellations)} />
            <Figure label="Failed payments" value={String(data.failedPayments)} />
          </Figures>
          <SubHeading>Conversion by referrer</SubHeading>
          <Card>
            <Table aria-label="Conversion by referrer">
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
                    <td>{row.referrer ? `Dr. ${row.referrer.displayName}` : <Muted>(no link)</Muted>}</td>
                    <td className="number">{row.views}</td>
                    <td className="number">{row.opened}</td>
                    <td className="number">{row.submitted}</td>
                    <td className="number">{row.paid}</td>
                    <td className="number">{percent(row.paid, row.views)}</td>
                    <td className="number">{row.paidSeats}</td>
                    <td className="number">{formatDollars(row.mrrCents)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <p>
              <a href={`/api/admin/referrers/report.csv${queryString({ from: data.from, to: data.to })}`} download>
                Download the report as CSV
              </a>{' '}
              <Muted>
                ({data.from} to {data.to}, UTC)
              </Muted>
            </p>
          </Card>
        </>
      )}
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <FigureCard>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </FigureCard>
  );
}

const Figures = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: 12px;
  margin: 0 0 8px;
`;

const FigureCard = styled.div`
  background: ${colors.surface};
  border: 1px solid ${colors.border};
  border-radius: 10px;
  padding: 12px 16px;
  dt {
    font-size: 0.8125rem;
    color: ${colors.text};
  }
  dd {
    margin: 4px 0 0;
    font-size: 1.5rem;
    font-weight: 700;
    color: ${colors.ink};
  }
`;
