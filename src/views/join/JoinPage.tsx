/**
 * /join?token=… (a chunk of its own; prerendered twice, the invitation and a link that cannot be used,
 * dist/join.html and dist/join-problem.html, which the server fills in for the request's link): the invitation
 * to a seat on a practice's team, accepted once; then the member's own generated login, shown once with copy
 * buttons, and 'Sign Training Agreement →' with their own hand-off token. Renders the join statechart
 * (src/machines/joinMachine.ts) and sends it what the invitee does; it calls nothing itself.
 */
import { useEffect, useRef } from 'react';
import { useSearch } from 'wouter';
import { useJoinAnswer } from '../../content/joinAnswer';
import type { JoinClaimed, JoinInvitation } from '../../contract/team';
import type { JoinAnswer } from '../../domain/joinPage';
import { joinMachine, type JoinCredential } from '../../machines/joinMachine';
import { Button, Card, ErrorText, Heading, Muted, Page } from '../shared/panelStyles';
import { LoadingStatus } from '../shared/Spinner';
import { useHydrated } from '../shared/useHydrated';
import { WhereToSignIn } from '../shared/WhereToSignIn';
import { usePageTitle } from '../shared/usePageTitle';
import { notify } from '../toasts/lazyToasts';
import { JoinActor, type JoinLogic } from './joinActor';

export interface JoinPageProps {
  machine?: JoinLogic;
  /** What the server wrote into the page for its link; by default the one src/mountApp.tsx read from the page. */
  answer?: JoinAnswer | null;
  /** Leaves for the agreement site; tests pass a spy. */
  redirect?: (url: string) => void;
}

const browserRedirect = (url: string) => window.location.assign(url);

/** The invitee's page. */
export function JoinPage({ machine = joinMachine, redirect = browserRedirect, answer }: JoinPageProps) {
  const search = useSearch();
  const pageAnswer = useJoinAnswer();
  usePageTitle('Join your team');
  return (
    <JoinActor.Provider logic={machine} options={{ input: { search, answer: answer === undefined ? pageAnswer : answer } }}>
      <JoinContent redirect={redirect} />
    </JoinActor.Provider>
  );
}

function JoinContent({ redirect }: { redirect: (url: string) => void }) {
  const actorRef = JoinActor.useActorRef();
  const redirectRef = useRef(redirect);
  useEffect(() => {
    redirectRef.current = redirect;
  });
  useEffect(() => {
    const subscriptions = [
      actorRef.on('toast', (event) => notify(event.toast)),
      actorRef.on('redirectRequested', (event) => redirectRef.current(event.url)),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actorRef]);
  const loading = JoinActor.useSelector((snapshot) => snapshot.hasTag('loading'));
  const invitation = JoinActor.useSelector((snapshot) => snapshot.context.invitation);
  const login = JoinActor.useSelector((snapshot) => snapshot.context.login);
  const problem = JoinActor.useSelector((snapshot) => snapshot.context.problem);
  return (
    <Page as="main" style={{ maxWidth: 640 }}>
      {loading ? (
        <JoinLoading />
      ) : problem ? (
        <>
          <Heading>This invitation cannot be used</Heading>
          <Card>
            <p role="alert">{problem}</p>
          </Card>
        </>
      ) : login ? (
        <Claimed login={login} />
      ) : invitation ? (
        <Invitation invitation={invitation} />
      ) : null}
    </Page>
  );
}

/** What the page shows while the invitation is read (also its prerendered HTML). */
function JoinLoading() {
  return <LoadingStatus>Opening your invitation...</LoadingStatus>;
}

function Invitation({ invitation }: { invitation: JoinInvitation }) {
  const actorRef = JoinActor.useActorRef();
  const busy = JoinActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const error = JoinActor.useSelector((snapshot) => snapshot.context.error);
  // Prerendered: a click before the page's code runs would be lost.
  const hydrated = useHydrated();
  return (
    <>
      <Heading>Join {invitation.practiceName}</Heading>
      <Card>
        <p>
          {invitation.invitedBy} has given you, {invitation.name} ({invitation.email}), a seat in {invitation.productName}.
        </p>
        <p>Accept it to get your own login; then sign your training agreement.</p>
        {error && <ErrorText role="alert">{error}</ErrorText>}
        <Button type="button" $variant="primary" disabled={busy || !hydrated} onClick={() => actorRef.send({ type: 'ACCEPT_CLICKED' })}>
          {busy ? 'Accepting...' : 'Accept my seat'}
        </Button>
        <p>
          <Muted>Don’t know {invitation.invitedBy}? Then simply close this page.</Muted>
        </p>
      </Card>
    </>
  );
}

function Claimed({ login }: { login: JoinClaimed }) {
  const actorRef = JoinActor.useActorRef();
  return (
    <>
      <Heading>Welcome to the team, {login.name}</Heading>
      <Card aria-labelledby="join-credentials-title">
        <h2 id="join-credentials-title">IMPORTANT: Save Your Login Credentials</h2>
        <p>They are shown only this once.</p>
        <dl>
          <CopyRow field="email" label="Email" value={login.email} />
          <CopyRow field="password" label="Password" value={login.password} />
        </dl>
      </Card>
      <p>You must sign the training agreement before you can access the training platform.</p>
      <Button type="button" $variant="primary" onClick={() => actorRef.send({ type: 'SIGN_AGREEMENT_CLICKED' })}>
        Sign Training Agreement →
      </Button>
      <WhereToSignIn
        testId="where-to-sign-in"
        lead="After the agreement, you sign in to the training on the training platform, with the email and password above."
      />
    </>
  );
}

function CopyRow({ field, label, value }: { field: JoinCredential; label: string; value: string }) {
  const actorRef = JoinActor.useActorRef();
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <code data-credential={field}>{value}</code>{' '}
        <Button type="button" aria-label={`Copy ${field}`} onClick={() => actorRef.send({ type: 'COPY_CLICKED', field })}>
          Copy
        </Button>
      </dd>
    </div>
  );
}
