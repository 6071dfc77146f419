/**
 * /sign-in/new-password?token=… (a chunk of its own; its loading state is prerendered,
 * dist/new-password.html): a team member sets a new password with the link their "Forgot your password?" mail
 * carried. Renders the page's statechart (src/machines/newPasswordMachine.ts) and sends it what the person does;
 * it calls nothing itself. Each state's heading takes the focus when it appears, so a screen reader announces it;
 * the password's rule and any refusal are under the field, tied to it with aria-describedby.
 */
import type { FormEvent } from 'react';
import { useSearch } from 'wouter';
import { newPasswordMachine } from '../../machines/newPasswordMachine';
import { NEW_PASSWORD_HINT, NEW_PASSWORD_MAX } from '../../domain/newPassword';
import { focusOnMount } from '../shared/focusHeading';
import { formText } from '../shared/formText';
import { Button, Card, ErrorText, Field, Form, Heading, Muted, Page } from '../shared/panelStyles';
import { LoadingStatus } from '../shared/Spinner';
import { usePageTitle } from '../shared/usePageTitle';
import { NewPasswordActor, type NewPasswordLogic } from './newPasswordActor';

/** The page; tests pass a machine whose calls are faked. */
export function NewPasswordPage({ machine = newPasswordMachine }: { machine?: NewPasswordLogic }) {
  const search = useSearch();
  usePageTitle('Set a new password');
  return (
    <NewPasswordActor.Provider logic={machine} options={{ input: { search } }}>
      <NewPasswordContent />
    </NewPasswordActor.Provider>
  );
}

/** What the page shows while the link is looked at (also its prerendered HTML). */
export function NewPasswordLoading() {
  return <LoadingStatus>Opening your link...</LoadingStatus>;
}

function FocusedHeading({ children }: { children: string }) {
  return (
    <Heading ref={focusOnMount} tabIndex={-1}>
      {children}
    </Heading>
  );
}

function NewPasswordContent() {
  const loading = NewPasswordActor.useSelector((snapshot) => snapshot.hasTag('loading'));
  const state = NewPasswordActor.useSelector((snapshot) => snapshot.value);
  const message = NewPasswordActor.useSelector((snapshot) => snapshot.context.message);
  return (
    <Page as="main" style={{ maxWidth: 640 }}>
      {loading ? (
        <NewPasswordLoading />
      ) : state === 'passwordSet' ? (
        <>
          <FocusedHeading>Your new password is set</FocusedHeading>
          <p role="status">{message}</p>
        </>
      ) : state === 'linkSent' ? (
        <>
          <FocusedHeading>Check your mail</FocusedHeading>
          <p role="status">{message}</p>
        </>
      ) : state === 'unusable' || state === 'requestingLink' ? (
        <Unusable />
      ) : (
        <Choosing />
      )}
    </Page>
  );
}

function Choosing() {
  const actorRef = NewPasswordActor.useActorRef();
  const busy = NewPasswordActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const { email, fieldError, error } = NewPasswordActor.useSelector((snapshot) => snapshot.context);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'PASSWORD_SUBMITTED', password: formText(new FormData(event.currentTarget), 'password') });
  };
  return (
    <>
      <FocusedHeading>Set a new password</FocusedHeading>
      <p>
        For <strong>{email}</strong>. Setting it signs you out of the training platform everywhere.
      </p>
      <Form onSubmit={submit} aria-busy={busy} noValidate>
        {/* For the password manager: the login the new password belongs to. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field>
          New password
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            maxLength={NEW_PASSWORD_MAX * 2}
            required
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'new-password-rule new-password-error' : 'new-password-rule'}
          />
        </Field>
        <p id="new-password-rule" style={{ flexBasis: '100%', margin: 0 }}>
          <Muted>{NEW_PASSWORD_HINT}</Muted>
        </p>
        {fieldError && (
          <ErrorText id="new-password-error" role="alert" style={{ flexBasis: '100%' }}>
            {fieldError}
          </ErrorText>
        )}
        {error && (
          <ErrorText role="alert" style={{ flexBasis: '100%' }}>
            {error}
          </ErrorText>
        )}
        <Button type="submit" $variant="primary" disabled={busy}>
          {busy ? 'Setting your password...' : 'Set my new password'}
        </Button>
      </Form>
    </>
  );
}

function Unusable() {
  const actorRef = NewPasswordActor.useActorRef();
  const busy = NewPasswordActor.useSelector((snapshot) => snapshot.hasTag('busy'));
  const { problem, error, email } = NewPasswordActor.useSelector((snapshot) => snapshot.context);
  const request = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actorRef.send({ type: 'LINK_REQUESTED', email: formText(new FormData(event.currentTarget), 'email') });
  };
  return (
    <>
      <FocusedHeading>This link cannot be used</FocusedHeading>
      <Card>
        <p role="alert">{problem}</p>
      </Card>
      <Form onSubmit={request} aria-busy={busy}>
        <Field>
          Email
          <input name="email" type="email" autoComplete="username" defaultValue={email} required />
        </Field>
        {error && (
          <ErrorText role="alert" style={{ flexBasis: '100%' }}>
            {error}
          </ErrorText>
        )}
        <Button type="submit" $variant="primary" disabled={busy}>
          Email me a new link
        </Button>
      </Form>
    </>
  );
}
