/**
 * The owner's console's calls to /api/admin/* (src/contract/admin.ts; server/admin/routes/). Each raises
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
  TaxQuery,
  TaxReport,
  UpdateReferrerRequest,
} from '../contract/admin';
import { readJson, requestJson } from './client';
import { cachedRead, primeCachedRead } from './reads';
import { queryString } from '../domain/pagePaths';

const FAILED = 'The console could not reach the server. Please try again.';

/** The cache key of the offer's content (src/api/reads.ts). */
const OFFER_CONTENT = 'offer-content';

export const adminApi = {
  session: () => readJson<OwnerSession>('/api/admin/session', FAILED),
  signIn: (body: SignInRequest) => requestJson<OwnerSession>('POST', '/api/admin/sign-in', body, FAILED),
  signOut: () => fetch('/api/admin/sign-out', { method: 'POST' }).then(() => undefined),
  orders: (query: OrdersQuery) => readJson<{ orders: OrderRow[] }>(`/api/admin/orders${queryString(query)}`, FAILED),
  order: (transactionId: string) => readJson<OrderDetail>(`/api/admin/orders/${encodeURIComponent(transactionId)}`, FAILED),
  referrers: () => readJson<{ referrers: Referrer[] }>('/api/admin/referrers', FAILED),
  createReferrer: (body: CreateReferrerRequest) => requestJson<Referrer>('POST', '/api/admin/referrers', body, FAILED),
  updateReferrer: (id: string, body: UpdateReferrerRequest) => requestJson<Referrer>('PATCH', `/api/admin/referrers/${id}`, body, FAILED),
  refund: (transactionId: string, body: RefundRequest) =>
    requestJson<OrderDetail>('POST', `/api/admin/orders/${encodeURIComponent(transactionId)}/refund`, body, FAILED),
  mail: (query: MailQuery = {}) => readJson<MailList>(`/api/admin/mail${queryString(query)}`, FAILED),
  resendMail: (id: number) => requestJson<OutboxMail>('POST', `/api/admin/mail/${id}/resend`, undefined, FAILED),
  /** Kept 5 minutes (spec §9); a save replaces what is kept with what the server saved. */
  content: () => cachedRead(OFFER_CONTENT, () => readJson<OfferContentBody>('/api/admin/content', FAILED)),
  saveContent: (body: OfferContentBody) =>
    requestJson<OfferContentBody>('PUT', '/api/admin/content', body, FAILED).then((saved) => {
      primeCachedRead(OFFER_CONTENT, saved);
      return saved;
    }),
  orderAction: (transactionId: string, action: OrderAction) =>
    requestJson<OrderDetail>('POST', `/api/admin/orders/${encodeURIComponent(transactionId)}/actions`, { action }, FAILED),
  dashboard: (query: DashboardQuery) => readJson<Dashboard>(`/api/admin/dashboard${queryString(query)}`, FAILED),
  tax: (query: TaxQuery) => readJson<TaxReport>(`/api/admin/tax${queryString(query)}`, FAILED),
};
