/**
 * The buyer's manage page, /account (a chunk of its own): opened from a mail's link (`?token=`, used once and
 * removed from the address) or by asking for a link by email. Renders the manage page's statechart
 * (src/machines/accountMachine.ts) and sends it what the buyer does; it calls nothing itself. The buyer cancels in
 * one click (at the end of the paid period, undo until then), changes seats (the new price shown before
 * confirming), updates the card, and gets new login credentials (asked once more first); each change is confirmed
 * in words. Server: server/routes/account/.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { AccountView } from '../../contract/account';
import { formatDollars, monthlyTotalCents } from '../../domain/pricing';
import { accountMachine } from '../../machines/accountMachine';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, Page, SubHeading, Table } from '../shared/panelStyles';
import { usePageTitle } from '../shared/usePageTitle';
import { AccountActor, type AccountLogic } from './accountActor';
import { TeamSection } from '../team/TeamSection';

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }) : '—');

/** The link's token from the address, taken out of the address (and the history) before anything else: it works once. */
function takeToken(): string | null {
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

export function AccountPage({
  machine = accountMachine,
  redirect = (url: string) => window.location.assign(url),
}: {
  machine?: AccountLogic;
  redirect?: (url: string) => void;
}) {
  usePageTitle('Manage your subscription');
  const [token] = useState(takeToken);
  return (
    <AccountActor.Provider logic={machine} options={{ input: { token } }}>
      <AccountContent redirect={redirect} />
    </AccountActor.Provider>
  );
}

function AccountContent({ redirect }: { redirect: (url: string) => void }) {
  const actorRef = AccountActor.useActorRef();
  const redirectRef = useRef(redirect);
  useEffect(() => {
    redirectRef.current = redirect;
  });
  useEffect(() => {
    const subscription = actorRef.on('redirectRequested', (event) => redirectRef.current(event.url));
    return () => subscription.unsubscribe();
  }, [actorRef]);
  const starting = AccountActor.useSelector(
    (snapshot) =>
      snapshot.matches('starting') || snapshot.matches('openingSession') || snapshot.matches('loading') || snapshot.matches('leaving'),
  );
  const signedOut = AccountActor.useSelector((snapshot) => snapshot.matches('signedOut'));
  const account = AccountActor.useSelector((snapshot) => snapshot.context.account);
  if (starting)
    return (
      <Page as="main" aria-busy="true">
        Loading…
      </Page>
    );
  if (signedOut || !account) return <RequestLink />;
  return <Subscription account={account} />;
}

function RequestLink() {
  const actorRef = AccountActor.useActorRef();
  const sent = AccountActor.useSelector((snapshot) => snapshot.context.linkSent);
  const failure = AccountActor.useSelector((snapshot) => snapshot.context.error);
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'LINK_REQUESTED', email: formText(new FormData(event.currentTarget), 'email') });
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
            <Button type="submit" $variant="primary" disabled={busy}>
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

function Subscription({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const error = AccountActor.useSelector((snapshot) => snapshot.context.error);
  const notice = AccountActor.useSelector((snapshot) => snapshot.context.notice);
  const credentials = AccountActor.useSelector((snapshot) => snapshot.context.credentials);
  const confirmingCredentials = AccountActor.useSelector((snapshot) => snapshot.matches({ signedIn: 'confirmingCredentials' }));
  const busy = AccountActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const [seats, setSeats] = useState(account.seats);
  const held = account.status === 'paid' || account.status === 'past_due';
  const cancel = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'CANCEL_CLICKED', reason: formText(new FormData(event.currentTarget), 'reason') });
  };
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
  const newTotal = monthlyTotalCents(seats);
  return (
    <Page as="main">
      <Heading>Your subscription</Heading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {notice && <p role="status">{notice}</p>}
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
              onClick={() => actorRef.send({ type: 'PORTAL_CLICKED', flow })}
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
                <Button type="button" $variant="primary" disabled={busy} onClick={() => actorRef.send({ type: 'RESUME_CLICKED' })}>
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
                    actorRef.send({ type: 'SEATS_SUBMITTED', quantity: seats });
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
              <div>
                <p>
                  <strong>Save these now: the password is shown only once.</strong>
                </p>
                <p>Email: {credentials.email}</p>
                <p>
                  Password: <code>{credentials.password}</code>
                </p>
              </div>
            ) : confirmingCredentials ? (
              <div role="alertdialog" aria-label="Replace your password?">
                <p>Your current password stops working at once, and other devices are signed out. Get a new one?</p>
                <Button type="button" $variant="primary" onClick={() => actorRef.send({ type: 'NEW_CREDENTIALS_CONFIRMED' })}>
                  Yes, replace my password
                </Button>{' '}
                <Button type="button" onClick={() => actorRef.send({ type: 'NEW_CREDENTIALS_ABANDONED' })}>
                  Keep my password
                </Button>
              </div>
            ) : (
              <>
                <p>Lost your password? Get a new one; the old one stops working.</p>
                <Button type="button" disabled={busy} onClick={() => actorRef.send({ type: 'NEW_CREDENTIALS_CLICKED' })}>
                  Get new login credentials
                </Button>
              </>
            )}
          </Card>
        </>
      )}

      {account.seats > 1 && <TeamSection access={{ kind: 'session' }} variant="account" />}
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
        <Button type="button" onClick={() => actorRef.send({ type: 'SIGN_OUT_CLICKED' })}>
          Sign out
        </Button>{' '}
        <Muted>Signed in as {account.email}</Muted>
      </p>
    </Page>
  );
}
