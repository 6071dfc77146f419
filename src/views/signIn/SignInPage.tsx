/**
 * The sign-in page, /sign-in: where the training platform sends a person to sign in with the login the
 * success page gave them. Prerendered in its first state (scripts/prerender.ts) and hydrated; renders the page's
 * statechart (src/machines/signInMachine.ts) and sends it what the person does; it calls nothing itself. Opened
 * without a live sign-in, it says so and links to the training platform, where sign-ins start.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { signInMachine } from '../../machines/signInMachine';
import { formText } from '../shared/formText';
import { focusOnMount } from '../shared/focusHeading';
import { Button, ErrorText, Field, Form, Heading, Muted, Page } from '../shared/panelStyles';
import { useHydrated } from '../shared/useHydrated';
import { usePageTitle } from '../shared/usePageTitle';
import { WhereToSignIn } from '../shared/WhereToSignIn';
import { SignInActor, type SignInLogic } from './signInActor';

export function SignInPage({
  machine = signInMachine,
  redirect = (url: string) => window.location.assign(url),
}: {
  machine?: SignInLogic;
  redirect?: (url: string) => void;
}) {
  usePageTitle('Sign in');
  // The sign-in the address names; none while prerendered (the form shows until the page has checked).
  const [interaction] = useState(() =>
    typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('interaction'),
  );
  return (
    <SignInActor.Provider logic={machine} options={{ input: { interaction } }}>
      <SignInContent redirect={redirect} />
    </SignInActor.Provider>
  );
}

function SignInContent({ redirect }: { redirect: (url: string) => void }) {
  const actorRef = SignInActor.useActorRef();
  const redirectRef = useRef(redirect);
  useEffect(() => {
    redirectRef.current = redirect;
  }, [redirect]);
  useEffect(() => {
    const subscription = actorRef.on('redirectRequested', (event) => redirectRef.current(event.url));
    return () => subscription.unsubscribe();
  }, [actorRef]);
  const state = SignInActor.useSelector((snapshot) => snapshot.value);
  const { email, error, linkMessage } = SignInActor.useSelector((snapshot) => snapshot.context);
  // Prerendered: until the page's code runs, the form cannot be sent (a native GET would carry the password).
  const hydrated = useHydrated();

  const signIn = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    actorRef.send({ type: 'SIGN_IN_SUBMITTED', email: formText(form, 'email'), password: formText(form, 'password') });
  };
  const requestLink = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'LINK_REQUESTED', email: formText(new FormData(event.currentTarget), 'email') });
  };
  const errorText = error ? (
    <ErrorText role="alert" id="sign-in-error">
      {error}
    </ErrorText>
  ) : null;

  if (state === 'forgotPassword' || state === 'requestingLink' || state === 'linkSent') {
    return (
      <Page as="main">
        <Heading>Forgot your password?</Heading>
        {state === 'linkSent' ? (
          <p role="status">{linkMessage}</p>
        ) : (
          <Form onSubmit={requestLink} aria-describedby={error ? 'sign-in-error' : undefined}>
            <p>
              We will email you a link: team members set a new password with it, the buyer gets new login details on the page where they
              manage the subscription.
            </p>
            <Field>
              Email
              <input name="email" type="email" autoComplete="username" defaultValue={email} required />
            </Field>
            {errorText}
            <Button type="submit" $variant="primary" disabled={state === 'requestingLink'}>
              Email me a link
            </Button>
          </Form>
        )}
        <Button type="button" $variant="plain" onClick={() => actorRef.send({ type: 'BACK_TO_SIGN_IN' })}>
          Back to sign in
        </Button>
      </Page>
    );
  }

  if (state === 'nothingToFinish') {
    return (
      <Page as="main">
        <FocusedHeading ref={focusOnMount} tabIndex={-1}>
          Sign in to your training
        </FocusedHeading>
        <p role="status">No sign-in is waiting on this page: it has expired, or it was started in another browser, or not at all.</p>
        <WhereToSignIn
          testId="where-to-sign-in"
          lead="Your sign-in starts on the training platform, which brings you back here for your password."
        />
        <Button type="button" $variant="plain" onClick={() => actorRef.send({ type: 'FORGOT_PASSWORD' })}>
          Forgot your password?
        </Button>
      </Page>
    );
  }

  const busy = state === 'signingIn' || state === 'signedIn';
  return (
    <Page as="main">
      <FocusedHeading>Sign in to your training</FocusedHeading>
      <p>
        <Muted>Use the email and password of your training login, shown to you once when you bought the training or joined a team.</Muted>
      </p>
      <Form method="post" onSubmit={signIn} aria-describedby={error ? 'sign-in-error' : undefined} aria-busy={busy}>
        <Field>
          Email
          <input name="email" type="email" autoComplete="username" defaultValue={email} required />
        </Field>
        <Field>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
        {errorText}
        <Button type="submit" $variant="primary" disabled={busy || !hydrated || state === 'checking'}>
          {busy ? 'Signing in…' : 'Sign in'}
        </Button>
      </Form>
      <Button type="button" $variant="plain" onClick={() => actorRef.send({ type: 'FORGOT_PASSWORD' })}>
        Forgot your password?
      </Button>
      <WhereToSignIn testId="where-to-sign-in" lead="Your sign-in starts on the training platform, which brings you to this page." />
    </Page>
  );
}

/**
 * The page's heading, one element whichever way the page turns (hydrated in place); it takes the focus when the page
 * says no sign-in waits (read out first), without a ring, as it is not a control.
 */
const FocusedHeading = styled(Heading)`
  &:focus {
    outline: none;
  }
`;
