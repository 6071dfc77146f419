/**
 * The buyer's manage page, /account (a chunk of its own): opened from a mail's link (`?token=`, used once and
 * removed from the address) or by asking for a link by email. Renders the manage page's statechart
 * (src/machines/accountMachine.ts) and sends it what the buyer does; it calls nothing itself. The buyer cancels in
 * one click (at the end of the paid period, undo until then), changes seats (the new price shown before
 * confirming), updates the card (first, when a payment failed), and gets new login credentials (asked once more
 * first, shown with copy buttons); each change is confirmed in words. Server: server/account/routes/.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import styled from 'styled-components';
import type { AccountView } from '../../contract/account';
import { accountMachine } from '../../machines/accountMachine';
import { BreakableText } from '../shared/BreakableText';
import { focusOnMount } from '../shared/focusHeading';
import { formText } from '../shared/formText';
import { FIELD_LIMITS } from '../shared/fieldLimits';
import { LimitedInput } from '../shared/LimitedInput';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, Page, Table } from '../shared/panelStyles';
import { SiteHeader } from '../shared/SiteHeader';
import { usePageTitle } from '../shared/usePageTitle';
import { colors } from '../theme';
import { AccountActor, type AccountLogic } from './accountActor';
import { day } from './accountDates';
import {
  CancelSection,
  CardSection,
  CredentialsSection,
  InvoicesSection,
  MonthlyTotal,
  PortalSection,
  RefundAskSection,
  SeatsSection,
} from './AccountSections';
import { AccountStatus } from './AccountStatus';
import { TeamSection } from '../team/TeamSection';

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
  return (
    <>
      <SiteHeader>
        {account && !signedOut && (
          <Muted>
            Signed in as <BreakableText text={account.email} />
          </Muted>
        )}
      </SiteHeader>
      {starting ? (
        <Page as="main" aria-busy="true">
          Loading…
        </Page>
      ) : signedOut || !account ? (
        <RequestLink />
      ) : (
        <Subscription account={account} />
      )}
    </>
  );
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
      <PageHeading ref={focusOnMount} tabIndex={-1}>
        Manage your subscription
      </PageHeading>
      {failure && <ErrorText role="alert">{failure}</ErrorText>}
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <Card>
          <p>Enter the email you bought with; we will send you a link to your subscription.</p>
          <Form onSubmit={submit} aria-label="Email me a link">
            <Field>
              Email Address
              <LimitedInput name="email" type="email" autoComplete="email" required maxLength={FIELD_LIMITS.email} />
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

/** The sections a subscription shows, in order: a past-due one leads with the card (the payment to fix). */
function sectionsFor(account: AccountView): ReactNode[] {
  if (account.managedByProvider)
    return account.status === 'cancelled' ? [] : [<PortalSection key="portal" />, <RefundAskSection key="guarantee" account={account} />];
  if (account.status === 'cancelled') return [];
  const cancel = <CancelSection key="cancel" account={account} />;
  const card = <CardSection key="card" account={account} />;
  const credentials = <CredentialsSection key="credentials" />;
  if (account.status === 'past_due') return [card, cancel, credentials];
  return [cancel, <SeatsSection key="seats" account={account} />, card, credentials];
}

function Subscription({ account }: { account: AccountView }) {
  const actorRef = AccountActor.useActorRef();
  const error = AccountActor.useSelector((snapshot) => snapshot.context.error);
  const notice = AccountActor.useSelector((snapshot) => snapshot.context.notice);
  const held = account.status === 'paid' || account.status === 'past_due';
  return (
    <Page as="main">
      <PageHeading ref={focusOnMount} tabIndex={-1}>
        Your subscription
      </PageHeading>
      {error && <ErrorText role="alert">{error}</ErrorText>}
      {/* Every change is confirmed here, in words (and read out: role=status). */}
      <Notice role="status">{notice}</Notice>
      <Card>
        <Table aria-label="Subscription">
          <tbody>
            <tr>
              <th>Status</th>
              <td>
                <AccountStatus account={account} />
              </td>
            </tr>
            <tr>
              <th>Login email</th>
              <td>
                <BreakableText text={account.email} />
              </td>
            </tr>
            <tr>
              <th>Seats</th>
              <td>{account.seats}</td>
            </tr>
            <tr>
              <th>Monthly total</th>
              <td>
                <MonthlyTotal account={account} />
              </td>
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
      {sectionsFor(account)}
      {account.seats > 1 && <TeamSection access={{ kind: 'session' }} variant="account" />}
      <InvoicesSection account={account} />
      <p>
        <Button type="button" onClick={() => actorRef.send({ type: 'SIGN_OUT_CLICKED' })}>
          Sign out
        </Button>
      </p>
    </Page>
  );
}

const PageHeading = styled(Heading)`
  &:focus {
    outline: none;
  }
`;

const Notice = styled.p`
  margin: 0 0 16px;
  &:empty {
    display: none;
  }
  padding: 10px 14px;
  border: 1px solid #86efac;
  border-radius: 6px;
  background: ${colors.successSoft};
  color: ${colors.ctaDark};
  font-weight: 600;
`;
