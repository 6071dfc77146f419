/**
 * The sign-in page's calls (src/contract/signIn.ts; server/signIn/routes/signIn.ts, server/signIn/routes/newPassword.ts): the
 * email and password; "Forgot your password?" (a member's link to set a new password, or the buyer's link to the
 * manage page: the server decides when the mail goes out); and the new password page's look at its link and the
 * password chosen. Each raises ApiError with the server's `error` text and status.
 */
import type {
  NewPasswordLink,
  NewPasswordResponse,
  PasswordLinkResponse,
  PasswordSignInResponse,
  SignInInteractionResponse,
} from '../contract/signIn';
import { readJson, requestJson } from './client';

const FAILED = 'We could not reach the server. Please try again.';

export const signInApi = {
  signIn: (email: string, password: string) =>
    requestJson<PasswordSignInResponse>('POST', '/sign-in/password', { email, password }, FAILED),
  /** Whether the sign-in `interaction` (the page address's uid) is still live in this browser; read once, never retried on 4xx. */
  checkInteraction: (interaction: string) =>
    readJson<SignInInteractionResponse>(`/sign-in/interaction?interaction=${encodeURIComponent(interaction)}`, FAILED),
  requestLink: (email: string) => requestJson<PasswordLinkResponse>('POST', '/sign-in/forgot', { email }, FAILED),
  checkNewPasswordLink: (token: string) => requestJson<NewPasswordLink>('POST', '/sign-in/new-password/check', { token }, FAILED),
  setNewPassword: (token: string, password: string) =>
    requestJson<NewPasswordResponse>('POST', '/sign-in/new-password', { token, password }, FAILED),
};
