/**
 * The console's commissions screen, /admin/commissions: the default rule; each referrer's email (where
 * their sign-in links and payout mails go), rule and balances (held, payable, in a payout, paid, reversed); the
 * payout minimum and 'Create payout batch'; the batches with their PayPal Payouts and generic CSV, 'Mark paid'
 * with a reference, and 'Void'. Renders the commissions statechart (src/machines/commissionsMachine.ts) and sends
 * it what the owner does; it calls nothing itself.
 */
import { useMachine } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import type { CommissionRuleBody, CommissionsOverview, PayoutBatch, ReferrerCommission } from '../../contract/commissions';
import { formatCents } from '../../domain/commissions';
import { commissionsMachine, type CommissionChange } from '../../machines/commissionsMachine';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, StackedTable, SubHeading } from '../shared/panelStyles';
import { useSessionEnded } from './useSessionEnded';

type RuleKind = 'keep' | 'default' | 'percent' | 'flat';

/**
 * The rule a form's fields make: percent in %, flat in dollars per seat, months blank for the whole life; null for
 * the default rule, undefined to keep the current one.
 */
function ruleFrom(kind: RuleKind, amount: string, months: string): CommissionRuleBody | null | undefined {
  if (kind === 'keep') return undefined;
  const whole = months.trim() ? Number(months) : null;
  if (kind === 'percent') return { kind, percentBasisPoints: Math.round(Number(amount) * 100), months: whole };
  if (kind === 'flat') return { kind, flatCentsPerSeat: Math.round(Number(amount) * 100), months: whole };
  return null;
}

export function AdminCommissions({ onUnauthorised }: { onUnauthorised: () => void }) {
  const [snapshot, send, actorRef] = useMachine(commissionsMachine);
  useSessionEnded(actorRef, onUnauthorised);
  const { overview, error, notice, minimumCents } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const change = (requested: CommissionChange) => send({ type: 'CHANGE_REQUESTED', change: requested });
  return (
    <>
      <Heading>Commissions</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <p role="status">{notice}</p>
      {snapshot.matches('failed') && (
        <Button type="button" onClick={() => send({ type: 'RELOAD' })}>
          Try again
        </Button>
      )}
      {overview && (
        <>
          <DefaultRule overview={overview} busy={busy} onSave={(rule) => change({ kind: 'defaultRule', rule })} />
          <Card>
            <SubHeading>Referrers</SubHeading>
            <StackedTable aria-label="Referrers' commissions">
              <thead>
                <tr>
                  <th>Referrer</th>
                  <th>Email and rule</th>
                  <th>Held</th>
                  <th>Payable</th>
                  <th>In payout</th>
                  <th>Paid</th>
                  <th>Reversed</th>
                </tr>
              </thead>
              <tbody>
                {overview.referrers.map((referrer) => (
                  <ReferrerRow key={referrer.referrerId} referrer={referrer} busy={busy} onSave={change} />
                ))}
              </tbody>
            </StackedTable>
          </Card>
          <Card>
            <SubHeading>Payouts</SubHeading>
            <Form
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                change({ kind: 'createBatch', minimumCents });
              }}
            >
              <Field>
                Minimum payable balance ($)
                <input
                  type="number"
                  min="0.01"
                  step="0.01"
                  defaultValue={(minimumCents / 100).toFixed(2)}
                  onBlur={(event) => {
                    const cents = Math.round(Number(event.currentTarget.value) * 100);
                    if (cents > 0 && cents !== minimumCents) send({ type: 'MINIMUM_CHANGED', minimumCents: cents });
                  }}
                />
              </Field>
              <Button type="submit" $variant="primary" disabled={busy}>
                Create payout batch
              </Button>
            </Form>
            <StackedTable aria-label="Payout batches">
              <thead>
                <tr>
                  <th>Batch</th>
                  <th>Status</th>
                  <th>Total</th>
                  <th>Referrers</th>
                  <th>Files</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {overview.batches.map((batch) => (
                  <BatchRow key={batch.id} batch={batch} busy={busy} onChange={change} />
                ))}
              </tbody>
            </StackedTable>
          </Card>
        </>
      )}
    </>
  );
}

function DefaultRule({
  overview,
  busy,
  onSave,
}: {
  overview: CommissionsOverview;
  busy: boolean;
  onSave: (rule: CommissionRuleBody) => void;
}) {
  const [kind, setKind] = useState<'percent' | 'flat'>('percent');
  const [amount, setAmount] = useState('20');
  const [months, setMonths] = useState('');
  return (
    <Card>
      <SubHeading>Default rule</SubHeading>
      <p>
        Now: <strong>{overview.defaultRule}</strong>. Each commission is held 30 days (the guarantee), then payable.
      </p>
      <Form
        aria-label="Default rule"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          const rule = ruleFrom(kind, amount, months);
          if (rule) onSave(rule);
        }}
      >
        <RuleFields
          kind={kind}
          amount={amount}
          months={months}
          onKind={(value) => setKind(value === 'flat' ? 'flat' : 'percent')}
          onAmount={setAmount}
          onMonths={setMonths}
        />
        <Button type="submit" disabled={busy}>
          Save default rule
        </Button>
      </Form>
    </Card>
  );
}

function RuleFields(props: {
  kind: RuleKind;
  amount: string;
  months: string;
  allowDefault?: boolean;
  onKind: (kind: RuleKind) => void;
  onAmount: (amount: string) => void;
  onMonths: (months: string) => void;
}) {
  return (
    <>
      <Field>
        Rule
        <select value={props.kind} onChange={(event) => props.onKind(event.currentTarget.value as RuleKind)}>
          {props.allowDefault && (
            <>
              <option value="keep">Keep the current rule</option>
              <option value="default">The default rule</option>
            </>
          )}
          <option value="percent">Percent of each invoice</option>
          <option value="flat">Dollars per seat per month</option>
        </select>
      </Field>
      {(props.kind === 'percent' || props.kind === 'flat') && (
        <>
          <Field>
            {props.kind === 'percent' ? 'Percent' : 'Dollars per seat'}
            <input
              type="number"
              min="0"
              step="0.01"
              required
              value={props.amount}
              onChange={(event) => props.onAmount(event.currentTarget.value)}
            />
          </Field>
          <Field>
            First months only (blank: whole life)
            <input type="number" min="1" step="1" value={props.months} onChange={(event) => props.onMonths(event.currentTarget.value)} />
          </Field>
        </>
      )}
    </>
  );
}

function ReferrerRow({
  referrer,
  busy,
  onSave,
}: {
  referrer: ReferrerCommission;
  busy: boolean;
  onSave: (change: CommissionChange) => void;
}) {
  const [email, setEmail] = useState(referrer.email ?? '');
  const [kind, setKind] = useState<RuleKind>('keep');
  const [amount, setAmount] = useState('20');
  const [months, setMonths] = useState('');
  const { totals } = referrer;
  return (
    <tr>
      <td data-label="Referrer">
        {referrer.displayName}
        <br />
        <Muted>/r/{referrer.slug}</Muted>
      </td>
      <td data-label="Email and rule">
        <Form
          aria-label={`Commission settings of ${referrer.displayName}`}
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            const rule = ruleFrom(kind, amount, months);
            onSave({
              kind: 'referrer',
              referrerId: referrer.referrerId,
              email: email.trim() || null,
              ...(rule === undefined ? {} : { rule }),
            });
          }}
        >
          <Field>
            Email
            <input type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} />
          </Field>
          <Muted>
            Now: {referrer.rule}
            {referrer.ruleIsDefault ? ' (default)' : ''}
          </Muted>
          <RuleFields kind={kind} amount={amount} months={months} allowDefault onKind={setKind} onAmount={setAmount} onMonths={setMonths} />
          <Button type="submit" disabled={busy}>
            Save
          </Button>
        </Form>
      </td>
      <td data-label="Held">{formatCents(totals.held)}</td>
      <td data-label="Payable">{formatCents(totals.payable)}</td>
      <td data-label="In payout">{formatCents(totals.inPayout)}</td>
      <td data-label="Paid">{formatCents(totals.paid)}</td>
      <td data-label="Reversed">{formatCents(totals.reversed)}</td>
    </tr>
  );
}

function BatchRow({ batch, busy, onChange }: { batch: PayoutBatch; busy: boolean; onChange: (change: CommissionChange) => void }) {
  const [reference, setReference] = useState('');
  return (
    <tr>
      <td data-label="Batch">
        #{batch.id}
        <br />
        <Muted>{new Date(batch.createdAt).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}</Muted>
      </td>
      <td data-label="Status">
        {batch.status}
        {batch.reference && <Muted> ({batch.reference})</Muted>}
      </td>
      <td data-label="Total">{formatCents(batch.totalCents)}</td>
      <td data-label="Referrers">
        {batch.payees.map((payee) => (
          <div key={payee.referrerId}>
            {payee.displayName} <Muted>{payee.email}</Muted>: {formatCents(payee.amountCents)}
          </div>
        ))}
      </td>
      <td data-label="Files">
        <a href={`/api/admin/commissions/batches/${batch.id}/paypal.csv`} download>
          PayPal CSV
        </a>{' '}
        <a href={`/api/admin/commissions/batches/${batch.id}/payout.csv`} download>
          CSV
        </a>
      </td>
      <td data-label="Actions">
        {batch.status === 'created' && (
          <Form
            aria-label={`Batch ${batch.id}`}
            onSubmit={(event: FormEvent) => {
              event.preventDefault();
              if (reference.trim()) onChange({ kind: 'markPaid', batchId: batch.id, reference: reference.trim() });
            }}
          >
            <Field>
              Payment reference
              <input required value={reference} onChange={(event) => setReference(event.currentTarget.value)} />
            </Field>
            <Button type="submit" $variant="primary" disabled={busy}>
              Mark paid
            </Button>
            <Button type="button" $variant="danger" disabled={busy} onClick={() => onChange({ kind: 'voidBatch', batchId: batch.id })}>
              Void
            </Button>
          </Form>
        )}
      </td>
    </tr>
  );
}
