/**
 * The commission screens' calls (src/contract/commissions.ts): the console's /api/admin/commissions/* and the
 * referrer's /api/partner/*. Each raises ApiError with the server's `error` text; 401 means sign in again.
 */
import type {
  PartnerSessionProbe,
  CommissionRuleBody,
  CommissionsOverview,
  PartnerQuery,
  PartnerView,
  PayoutBatch,
  ReferrerCommissionRequest,
} from '../contract/commissions';
import { queryString } from '../domain/pagePaths';
import { readJson, requestJson } from './client';

const FAILED = 'We could not reach the server. Please try again.';

export const commissionsApi = {
  overview: (minimumCents: number) => readJson<CommissionsOverview>(`/api/admin/commissions?minimumCents=${minimumCents}`, FAILED),
  setDefaultRule: (rule: CommissionRuleBody) => requestJson<void>('PUT', '/api/admin/commissions/default-rule', { rule }, FAILED),
  setReferrer: (referrerId: string, body: ReferrerCommissionRequest) =>
    requestJson<void>('PUT', `/api/admin/commissions/referrers/${encodeURIComponent(referrerId)}`, body, FAILED),
  createBatch: (minimumCents: number) => requestJson<PayoutBatch>('POST', '/api/admin/commissions/batches', { minimumCents }, FAILED),
  markPaid: (batchId: number, reference: string) =>
    requestJson<PayoutBatch>('POST', `/api/admin/commissions/batches/${batchId}/paid`, { reference }, FAILED),
  voidBatch: (batchId: number) => requestJson<PayoutBatch>('POST', `/api/admin/commissions/batches/${batchId}/void`, {}, FAILED),
};

export const partnerApi = {
  requestLink: (email: string) => requestJson<{ message: string }>('POST', '/api/partner/link', { email }, FAILED),
  openSession: (token: string) => requestJson<void>('POST', '/api/partner/session', { token }, FAILED),
  hasSession: () => readJson<PartnerSessionProbe>('/api/partner/session', FAILED).then((probe) => probe.signedIn),
  view: (period: PartnerQuery) => readJson<PartnerView>(`/api/partner${queryString(period)}`, FAILED),
  signOut: () => fetch('/api/partner/sign-out', { method: 'POST' }).then(() => undefined),
};
