/**
 * The manage page's calls to /api/account/* (src/contract/account.ts; server/account/routes/). Each raises
 * ApiError with the server's `error` text; 401 means the buyer needs a new link.
 */
import type {
  AccountProbeResponse,
  AccountSessionResponse,
  SubscriptionCheckRequest,
  SubscriptionCheckResponse,
  AccountView,
  CardRequest,
  NewCredentials,
  SeatChangePreview,
} from '../contract/account';
import { readJson, requestJson } from './client';

const FAILED = 'We could not reach the server. Please try again.';

export const accountApi = {
  requestLink: (email: string) => requestJson<{ message: string }>('POST', '/api/account/link', { email }, FAILED),
  openSession: (token: string) => requestJson<AccountSessionResponse>('POST', '/api/account/session', { token }, FAILED),
  /** The signed-in subscription, or `{ account: null }` without a session (200 either way). */
  probe: () => readJson<AccountProbeResponse>('/api/account/session', FAILED),
  cancel: (reason: string) => requestJson<AccountView>('POST', '/api/account/cancel', reason ? { reason } : {}, FAILED),
  resume: () => requestJson<AccountView>('POST', '/api/account/resume', {}, FAILED),
  /** Asks for the guarantee's refund (cancelling at the end of the period first, when not yet); docs/decisions/0068. */
  askForRefund: (reason: string) => requestJson<AccountView>('POST', '/api/account/refund-request', reason ? { reason } : {}, FAILED),
  /** `prorationDate`: the preview's, so the charge is the amount shown. */
  changeSeats: (quantity: number, prorationDate?: number) =>
    requestJson<AccountView>(
      'POST',
      '/api/account/seats',
      prorationDate === undefined ? { quantity } : { quantity, prorationDate },
      FAILED,
    ),
  previewSeats: (quantity: number) => requestJson<SeatChangePreview>('POST', '/api/account/seats/preview', { quantity }, FAILED),
  updateCard: (card: CardRequest['card']) => requestJson<AccountView>('POST', '/api/account/card', { card }, FAILED),
  newCredentials: () => requestJson<NewCredentials>('POST', '/api/account/credentials', {}, FAILED),
  portal: (flow: 'home' | 'cancel' | 'seats' | 'card') => requestJson<{ url: string }>('POST', '/api/account/portal', { flow }, FAILED),
  /** Whether `email` has an active subscription this browser proves it holds (`purchase`, or the session cookie). */
  subscriptionCheck: (email: string, purchase?: SubscriptionCheckRequest['purchase']) =>
    requestJson<SubscriptionCheckResponse>('POST', '/api/account/subscription-check', purchase ? { email, purchase } : { email }, FAILED),
  signOut: () => fetch('/api/account/sign-out', { method: 'POST' }).then(() => undefined),
};
