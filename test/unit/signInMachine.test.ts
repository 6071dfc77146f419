/**
 * The sign-in page's statechart (src/machines/signInMachine.ts): a refusal shown under the form and the email
 * kept, a right password sending the browser on, and "Forgot your password?" asking for a link (a member's to set a
 * new password, the buyer's to /account: the server decides).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../../src/api/client';
import { signInMachine, type SignInEmitted } from '../../src/machines/signInMachine';

function start(signIn: (input: { email: string; password: string }) => Promise<{ redirectTo: string }>) {
  const linkRequests: string[] = [];
  const emitted: SignInEmitted[] = [];
  const actor = createActor(
    signInMachine.provide({
      actors: {
        signIn: fromPromise(({ input }: { input: { email: string; password: string } }) => signIn(input)),
        requestLink: fromPromise(async ({ input }: { input: { email: string } }) => {
          linkRequests.push(input.email);
          return { message: 'If that email has a login, a link is on its way: team members get one to set a new password.' };
        }),
      },
    }),
  );
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted, linkRequests };
}

describe('the sign-in statechart', () => {
  it('shows a refusal under the form and keeps the email, then sends the browser on after the right password', async () => {
    const { actor, emitted } = start(async ({ password }) => {
      if (password !== 'right') throw new ApiError('The email or password is not right.', 401);
      return { redirectTo: '/oidc/auth/abc' };
    });
    actor.send({ type: 'SIGN_IN_SUBMITTED', email: ' ada@example.com ', password: 'wrong' });
    expect(actor.getSnapshot().value).toBe('signingIn');
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(actor.getSnapshot().context).toMatchObject({ email: 'ada@example.com', error: 'The email or password is not right.' });
    expect(emitted).toEqual([]);

    actor.send({ type: 'SIGN_IN_SUBMITTED', email: 'ada@example.com', password: 'right' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(emitted).toEqual([{ type: 'redirectRequested', url: '/oidc/auth/abc' }]);
  });

  it('asks for a link for the email entered, and goes back to the form', async () => {
    const { actor, linkRequests } = start(async () => ({ redirectTo: '/' }));
    actor.send({ type: 'FORGOT_PASSWORD' });
    actor.send({ type: 'LINK_REQUESTED', email: 'ada@example.com' });
    await waitFor(actor, (snapshot) => snapshot.matches('linkSent'));
    expect(linkRequests).toEqual(['ada@example.com']);
    expect(actor.getSnapshot().context.linkMessage).toMatch(/set a new password/);
    actor.send({ type: 'BACK_TO_SIGN_IN' });
    expect(actor.getSnapshot().value).toBe('editing');
  });
});
