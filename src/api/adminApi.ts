/**
 * The owner's console's calls to /api/admin/* (src/contract/admin.ts; server/routes/admin/). Each raises
 * ApiError with the server's `error` text; status 401 means the owner must sign in.
 */
import type {
  CreateReferrerRequest,
  Dashboard,
  MailList,
  MailQuery,
  OfferContentBody,
  DashboardQuery,
  OrderAction,
  OrderDetail,
  OrderRow,
  OrdersQuery,
  OutboxMail,
  OwnerSession,
  Referrer,
  RefundRequest,
  SignInRequest,
  UpdateReferrerRequest,
} from '../contract/admin';
import { requestJson } from './client';

const FAILED = 'The console could not reach the server. Please try again.';

/** `?a=1&b=2` for the set values of `query`, or ''. */
export function queryString(query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const adminApi = {
  session: () => requestJson<OwnerSession>('GET', '/api/admin/session', undefined, FAILED),
  signIn: (body: SignInRequest) => requestJson<OwnerSession>('POST', '/api/admin/sign-in', body, FAILED),
  signOut: () => fetch('/api/admin/sign-out', { method: 'POST' }).then(() => undefined),
  orders: (query: OrdersQuery) => requestJson<{ orders: OrderRow[] }>('GET', `/api/admin/orders${queryString(query)}`, undefined, FAILED),
  order: (transactionId: string) =>
    requestJson<OrderDetail>('GET', `/api/admin/orders/${encodeURIComponent(transactionId)}`, undefined, FAILED),
  referrers: () => requestJson<{ referrers: Referrer[] }>('GET', '/api/admin/referrers', undefined, FAILED),
  createReferrer: (body: CreateReferrerRequest) => requestJson<Referrer>('POST', '/api/admin/referrers', body, FAILED),
  updateReferrer: (id: string, body: UpdateReferrerRequest) => requestJson<Referrer>('PATCH', `/api/admin/referrers/${id}`, body, FAILED),
  refund: (transactionId: string, body: RefundRequest) =>
    requestJson<OrderDetail>('POST', `/api/admin/orders/${encodeURIComponent(transactionId)}/refund`, body, FAILED),
  mail: (query: MailQuery = {}) => requestJson<MailList>('GET', `/api/admin/mail${queryString(query)}`, undefined, FAILED),
  resendMail: (id: number) => requestJson<OutboxMail>('POST', `/api/admin/mail/${id}/resend`, undefined, FAILED),
  content: () => requestJson<OfferContentBody>('GET', '/api/admin/content', undefined, FAILED),
  saveContent: (body: OfferContentBody) => requestJson<OfferContentBody>('PUT', '/api/admin/content', body, FAILED),
  orderAction: (transactionId: string, action: OrderAction) =>
    requestJson<OrderDetail>('POST', `/api/admin/orders/${encodeURIComponent(transactionId)}/actions`, { action }, FAILED),
  dashboard: (query: DashboardQuery) => requestJson<Dashboard>('GET', `/api/admin/dashboard${queryString(query)}`, undefined, FAILED),
};
