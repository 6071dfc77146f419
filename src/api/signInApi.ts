/**
 * The sign-in page's calls (src/contract/signIn.ts; server/routes/signIn.ts): the email and password, and the
 * "forgot your password" link to the manage page (the manage page's own call, POST /api/account/link). Each raises
 * ApiError with the server's `error` text.
 */
import type { PasswordSignInResponse } from '../contract/signIn';
import { requestJson } from './client';

const FAILED = 'We could not reach the server. Please try again.';

export const signInApi = {
  signIn: (email: string, password: string) =>
    requestJson<PasswordSignInResponse>('POST', '/sign-in/password', { email, password }, FAILED),
  requestLink: (email: string) => requestJson<{ message: string }>('POST', '/api/account/link', { email }, FAILED),
};
