import type { FormEvent } from 'react';
import { formText } from '../shared/formText';
import { Button, ErrorText, Field, Heading, Page } from '../shared/panelStyles';

/** The console's sign-in form (an owner account made with `npm run owner:create`); consoleSessionMachine signs in. */
export function AdminSignIn({
  error,
  busy,
  onSubmit,
}: {
  error: string | null;
  busy: boolean;
  onSubmit: (credentials: { email: string; password: string }) => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSubmit({ email: formText(form, 'email'), password: formText(form, 'password') });
  };
  return (
    <Page as="main">
      <Heading>Owner's console</Heading>
      <form onSubmit={submit} style={{ display: 'grid', gap: 12, maxWidth: 360 }}>
        <Field>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </Field>
        <Field>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </Field>
        {error && <ErrorText role="alert">{error}</ErrorText>}
        <Button type="submit" $variant="primary" disabled={busy}>
          Sign in
        </Button>
      </form>
    </Page>
  );
}
