/**
 * The referrer's own page, /partner (a chunk of its own): opened from the mail's single-use link
 * (`?token=`, used once and removed from the address) or by asking for a link by email. Their referral link with
 * a copy button and a QR code for the front desk; visits, checkouts opened, practices paid, active seats and the
 * monthly revenue they brought over a chosen period; their commission held / payable / paid / reversed; the
 * practices they referred with each commission; payout history; a CSV of their own ledger. Renders the partner
 * statechart (src/machines/partnerMachine.ts) and sends it what the referrer does; it calls nothing itself.
 */
import { useMachine } from '@xstate/react';
import { useEffect, useState, type FormEvent } from 'react';
import { copyText } from '../../browser/clipboard';
import type { PartnerView } from '../../contract/commissions';
import { formatCents } from '../../domain/commissions';
import { formatDollars } from '../../domain/pricing';
import { REFUND_GUARANTEE_DAYS } from '../../domain/refunds';
import { partnerMachine } from '../../machines/partnerMachine';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, Page, SubHeading, Table } from '../shared/panelStyles';
import { FIELD_LIMITS } from '../shared/fieldLimits';
import { LimitedInput } from '../shared/LimitedInput';
import { ReadFailure } from '../shared/ReadFailure';
import { usePageTitle } from '../shared/usePageTitle';
import { commissionLines } from './commissionLines';

/** The link's token from the address, taken out of the address (and the history) first: it works once. */
function takeToken(): string | null {
  if (typeof window === 'undefined') return null;
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' }) : '—');

export function PartnerPage({ machine = partnerMachine }: { machine?: typeof partnerMachine }) {
  usePageTitle('Your partner page');
  const [token] = useState(takeToken);
  const [snapshot, send, actorRef] = useMachine(machine, { input: { token } });
  useEffect(() => {
    const subscription = actorRef.on('copyRequested', (event) => void copyText(event.text).catch(() => undefined));
    return () => subscription.unsubscribe();
  }, [actorRef]);
  const { view, error, linkSent } = snapshot.context;
  if (snapshot.matches('signedOut')) {
    return (
      <Page as="main">
        <Heading>Your partner page</Heading>
        {error && <ErrorText role="alert">{error}</ErrorText>}
        {linkSent ? (
          <p role="status">{linkSent}</p>
        ) : (
          <Form
            onSubmit={(event: FormEvent<HTMLFormElement>) => {
              event.preventDefault();
              const email = new FormData(event.currentTarget).get('email');
              send({ type: 'LINK_REQUESTED', email: typeof email === 'string' ? email : '' });
            }}
          >
            <Field>
              Your email
              <LimitedInput name="email" type="email" autoComplete="email" required maxLength={FIELD_LIMITS.email} />
            </Field>
            <Button type="submit" $variant="primary" disabled={snapshot.hasTag('busy')}>
              Email me a sign-in link
            </Button>
          </Form>
        )}
      </Page>
    );
  }
  if (snapshot.matches('unavailable')) {
    return (
      <Page as="main">
        <Heading>Your partner page</Heading>
        {/* The failed read that led here set the error. */}
        <ReadFailure error={error!} onRetry={() => send({ type: 'RETRY_CLICKED' })} />
      </Page>
    );
  }
  if (!view) {
    return (
      <Page as="main" aria-busy="true">
        <Heading>Your partner page</Heading>
        <p role="status">Loading your partner page…</p>
      </Page>
    );
  }
  return (
    <Page as="main">
      <Heading>Dr. {view.displayName}, your referrals</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <Button type="button" $variant="plain" onClick={() => send({ type: 'SIGN_OUT_CLICKED' })}>
        Sign out
      </Button>
      <LinkCard view={view} copied={snapshot.context.copied} onCopy={() => send({ type: 'COPY_CLICKED' })} />
      <Figures view={view} onPeriod={(from, to) => send({ type: 'PERIOD_CHANGED', from, to })} />
      <Card>
        <SubHeading>Your commission</SubHeading>
        <p>
          Rule: {view.rule}. Each commission is held {REFUND_GUARANTEE_DAYS} days (the buyer’s guarantee), then payable; a refund takes back
          the same share of it.
        </p>
        <Table aria-label="Your commission">
          <tbody>
            {(
              [
                ['Held', view.totals.held],
                ['Payable', view.totals.payable],
                ['In a payout', view.totals.inPayout],
                ['Paid', view.totals.paid],
                ['Reversed', view.totals.reversed],
              ] as const
            ).map(([label, cents]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td>{formatCents(cents)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <a href="/api/partner/ledger.csv" download>
          Download your commissions (CSV)
        </a>
      </Card>
      <Card>
        <SubHeading>Practices you referred</SubHeading>
        <Table aria-label="Practices you referred">
          <thead>
            <tr>
              <th>Practice</th>
              <th>Seats</th>
              <th>Status</th>
              <th>Commission per payment</th>
            </tr>
          </thead>
          <tbody>
            {view.practices.map((practice, index) => (
              <tr key={index}>
                <td>{practice.name}</td>
                <td>{practice.seats}</td>
                <td>{practice.status === 'cancelled' ? 'ended' : 'active'}</td>
                <td>
                  {commissionLines(practice.entries).map((line) => (
                    <div key={line.key}>
                      {day(line.earnedAt)}: {formatCents(line.netCents)} <Muted>({line.words})</Muted>
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>
      <Card>
        <SubHeading>Payouts</SubHeading>
        <Table aria-label="Payouts">
          <thead>
            <tr>
              <th>Date</th>
              <th>Amount</th>
              <th>Status</th>
              <th>Reference</th>
            </tr>
          </thead>
          <tbody>
            {view.payouts.map((payout) => (
              <tr key={payout.id}>
                <td>{day(payout.paidAt ?? payout.createdAt)}</td>
                <td>{formatCents(payout.amountCents)}</td>
                <td>{payout.status === 'paid' ? 'paid' : 'being paid'}</td>
                <td>{payout.reference ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </Card>
    </Page>
  );
}

function LinkCard({ view, copied, onCopy }: { view: PartnerView; copied: boolean; onCopy: () => void }) {
  return (
    <Card>
      <SubHeading>Your referral link</SubHeading>
      <p>
        <code>{view.link}</code>{' '}
        <Button type="button" onClick={onCopy}>
          {copied ? 'Copied' : 'Copy link'}
        </Button>
      </p>
      {/* The server's SVG (the qrcode package), of the link only. */}
      <div role="img" aria-label={`QR code of ${view.link}`} style={{ width: 180 }} dangerouslySetInnerHTML={{ __html: view.qrSvg }} />
    </Card>
  );
}

function Figures({ view, onPeriod }: { view: PartnerView; onPeriod: (from: string, to: string) => void }) {
  return (
    <Card>
      <SubHeading>
        From {view.period.from} to {view.period.to}
      </SubHeading>
      <Form
        aria-label="Period"
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const text = (name: string) => {
            const value = data.get(name);
            return typeof value === 'string' ? value : '';
          };
          onPeriod(text('from'), text('to'));
        }}
      >
        <Field>
          From
          <input name="from" type="date" defaultValue={view.period.from} />
        </Field>
        <Field>
          To
          <input name="to" type="date" defaultValue={view.period.to} />
        </Field>
        <Button type="submit">Show</Button>
      </Form>
      <Table aria-label="Your referrals">
        <tbody>
          <tr>
            <th scope="row">Visits</th>
            <td>{view.funnel.visits}</td>
          </tr>
          <tr>
            <th scope="row">Checkouts opened</th>
            <td>{view.funnel.checkoutsOpened}</td>
          </tr>
          <tr>
            <th scope="row">Practices paid</th>
            <td>{view.funnel.practicesPaid}</td>
          </tr>
          <tr>
            <th scope="row">Active seats (now)</th>
            <td>{view.funnel.activeSeats}</td>
          </tr>
          <tr>
            <th scope="row">Monthly revenue brought</th>
            <td>{formatDollars(view.funnel.monthlyRevenueCents)}/month</td>
          </tr>
        </tbody>
      </Table>
    </Card>
  );
}
