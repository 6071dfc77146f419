/**
 * The buyer's manage page, /account (a chunk of its own): opened from a mail's link (`?token=`, used once and
 * removed from the address) or by asking for a link by email. Shows the subscription and lets the buyer cancel
 * in one click (at the end of the paid period, undo until then), change seats (the new price shown before
 * confirming), update the card, and get new login credentials. Server: server/routes/account.ts.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { accountApi } from '../../api/accountApi';
import { ApiError } from '../../api/client';
import type { AccountView, NewCredentials } from '../../contract/account';
import { formatDollars, monthlyTotalCents } from '../../domain/pricing';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, Page, SubHeading, Table } from '../shared/panelStyles';
import { usePageTitle } from '../shared/usePageTitle';

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : '—');
const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

export function AccountPage() {
  usePageTitle('Manage your subscription');
  // undefined: loading; null: no session (ask for a link).
  const [account, setAccount] = useState<AccountView | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (token) {
      // The link works once: take it out of the address (and the history) before anything else.
      window.history.replaceState(null, '', window.location.pathname);
      accountApi.openSession(token).then(
        ({ account: opened, agreementUrl }) => (agreementUrl ? window.location.assign(agreementUrl) : setAccount(opened)),
        (failure: unknown) => {
          setError(messageOf(failure));
          setAccount(null);
        },
      );
      return;
    }
    accountApi.view().then(setAccount, () => setAccount(null));
  }, []);
  if (account === undefined)
    return (
      <Page as="main" aria-busy="true">
        Loading…
      </Page>
    );
  if (account === null) return <RequestLink error={error} />;
  return <Subscription account={account} onChange={setAccount} onSignedOut={() => setAccount(null)} />;
}

function RequestLink({ error }: { error?: string }) {
  const [sent, setSent] = useState<string>();
  const [failure, setFailure] = useState(error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), 'email').trim();
    accountApi.requestLink(email).then(
      ({ message }) => setSent(message),
      (caught: unknown) => setFailure(messageOf(caught)),
    );
  };
  return (
    <Page as="main">
      <Heading>Manage your subscription</Heading>
      {failure && <ErrorText role="alert">{failure}</ErrorText>}
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <Card>
          <p>Enter the email you bought with; we will send you a link to your subscription.</p>
          <Form onSubmit={submit} aria-label="Email me a link">
            <Field>
              Email Address
              <input name="email" type="email" autoComplete="email" required />
            </Field>
            <Button type="submit" $variant="primary">
              Email me a link
            </Button>
          </Form>
        </Card>
      )}
    </Page>
  );
}

function statusText(account: AccountView): string {
  if (account.status === 'cancelled') return 'Cancelled';
  if (account.cancelAt) return `Cancelled at period end: ends on ${day(account.cancelAt)}`;
  if (account.status === 'past_due') return 'Past due: your last payment failed. Please update your card.';
  return 'Active';
}

function Subscription({
  account,
  onChange,
  onSignedOut,
}: {
  account: AccountView;
  onChange: (view: AccountView) => void;
  onSignedOut: () => void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [credentials, setCredentials] = useState<NewCredentials>();
  const [seats, setSeats] = useState(account.seats);
  const run = (call: () => Promise<AccountView | void>) => {
    setBusy(true);
    call().then(
      (view) => {
        if (view) onChange(view);
        setError(undefined);
        setBusy(false);
      },
      (failure: unknown) => {
        if (failure instanceof ApiError && failure.status === 401) onSignedOut();
        setError(messageOf(failure));
        setBusy(false);
      },
    );
  };
  const held = account.status === 'paid' || account.status === 'past_due';
  const cancel = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = formText(new FormData(event.currentTarget), 'reason').trim();
    run(() => accountApi.cancel(reason));
  };
  const updateCard = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const [month, year] = formText(form, 'expiry')
      .split('/')
      .map((part) => Number(part.trim()));
    run(() =>
      accountApi.updateCard({
        number: formText(form, 'number'),
        expMonth: month || 0,
        expYear: year ? 2000 + (year % 100) : 0,
        cvc: formText(form, 'cvc'),
        postalCode: formText(form, 'postalCode'),
      }),
    );
  };
  const newTotal = monthlyTotalCents(seats);
  return (
    <Page as="main">
      <Heading>Your subscription</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      <Card>
        <Table aria-label="Subscription">
          <tbody>
            <tr>
              <th>Status</th>
              <td>
                <span role="status">{statusText(account)}</span>
              </td>
            </tr>
            <tr>
              <th>Login email</th>
              <td>{account.email}</td>
            </tr>
            <tr>
              <th>Seats</th>
              <td>{account.seats}</td>
            </tr>
            <tr>
              <th>Monthly total</th>
              <td>{formatDollars(account.monthlyTotalCents)}/month</td>
            </tr>
            <tr>
              <th>{account.cancelAt ? 'Ends on' : 'Next charge'}</th>
              <td>{held ? day(account.cancelAt ?? account.currentPeriodEnd) : '—'}</td>
            </tr>
            <tr>
              <th>Card</th>
              <td>{account.cardLast4 ? `•••• ${account.cardLast4}` : '—'}</td>
            </tr>
          </tbody>
        </Table>
      </Card>
      {account.managedByProvider && held && (
        <Card>
          <p>Cancel, change seats, update your card or see your invoices in our payment provider’s secure portal.</p>
          {(
            [
              ['cancel', 'Cancel subscription'],
              ['seats', 'Change seats'],
              ['card', 'Update card'],
              ['home', 'Invoices and billing'],
            ] as const
          ).map(([flow, label]) => (
            <Button
              key={flow}
              type="button"
              disabled={busy}
              style={{ marginRight: 8 }}
              onClick={() => run(() => accountApi.portal(flow).then(({ url }) => window.location.assign(url)))}
            >
              {label}
            </Button>
          ))}
        </Card>
      )}

      {held && !account.managedByProvider && (
        <>
          <SubHeading>Cancel</SubHeading>
          <Card>
            {account.cancelAt ? (
              <>
                <p>You keep access until {day(account.cancelAt)} and will not be charged again.</p>
                <Button type="button" $variant="primary" disabled={busy} onClick={() => run(() => accountApi.resume())}>
                  Undo cancellation
                </Button>
              </>
            ) : (
              <Form onSubmit={cancel} aria-label="Cancel subscription">
                <Field style={{ flex: '1 1 320px' }}>
                  Why are you leaving? (optional)
                  <input name="reason" maxLength={500} />
                </Field>
                <Button type="submit" $variant="danger" disabled={busy}>
                  Cancel subscription
                </Button>
              </Form>
            )}
          </Card>

          {account.status === 'paid' && (
            <>
              <SubHeading>Seats</SubHeading>
              <Card>
                <Form
                  aria-label="Change seats"
                  onSubmit={(event) => {
                    event.preventDefault();
                    run(() => accountApi.changeSeats(seats));
                  }}
                >
                  <Field>
                    Seats
                    <input
                      type="number"
                      min={1}
                      value={seats}
                      onChange={(event) => setSeats(Math.max(1, Math.floor(Number(event.target.value) || 1)))}
                    />
                  </Field>
                  <p aria-live="polite">
                    {seats === account.seats
                      ? `${formatDollars(account.monthlyTotalCents)}/month now.`
                      : `New monthly total: ${formatDollars(newTotal)}/month (now ${formatDollars(account.monthlyTotalCents)}). The difference for the rest of this period is settled with your next charge.`}
                  </p>
                  <Button type="submit" $variant="primary" disabled={busy || seats === account.seats}>
                    Change seats
                  </Button>
                </Form>
              </Card>
            </>
          )}

          <SubHeading>Card</SubHeading>
          <Card>
            <Form onSubmit={updateCard} aria-label="Update card">
              <Field>
                Card number
                <input name="number" inputMode="numeric" autoComplete="cc-number" required />
              </Field>
              <Field>
                Expiration date
                <input name="expiry" placeholder="MM / YY" autoComplete="cc-exp" required />
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
          </Card>

          <SubHeading>Login credentials</SubHeading>
          <Card>
            {credentials ? (
              <div role="status">
                <p>
                  <strong>Save these now: the password is shown only once.</strong>
                </p>
                <p>Email: {credentials.email}</p>
                <p>
                  Password: <code>{credentials.password}</code>
                </p>
              </div>
            ) : (
              <>
                <p>Lost your password? Get a new one; the old one stops working.</p>
                <Button type="button" disabled={busy} onClick={() => run(() => accountApi.newCredentials().then(setCredentials))}>
                  Get new login credentials
                </Button>
              </>
            )}
          </Card>
        </>
      )}

      {account.invoices.length > 0 && (
        <>
          <SubHeading>Invoices</SubHeading>
          <Card>
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
                    <td className="number">{formatDollars(invoice.amountCents)}</td>
                    <td>{invoice.status}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Card>
        </>
      )}
      <p>
        <Button type="button" onClick={() => void accountApi.signOut().then(onSignedOut)}>
          Sign out
        </Button>{' '}
        <Muted>Signed in as {account.email}</Muted>
      </p>
    </Page>
  );
}
