/** A stand-in for the server behind fetch: JSON routes by path, answered without the network. */
import { vi } from 'vitest';
import type { PublicConfig } from '../../../src/contract/checkout';

export interface FakeReply {
  status: number;
  body: unknown;
}

export type FakeRoute = (body: unknown) => FakeReply;

export const SANDBOX_CONFIG: PublicConfig = {
  paymentProvider: 'sandbox',
  stripePublishableKey: null,
  successSite: { local: 'http://localhost:5174', production: 'https://agreement.example.com' },
  trainingPlatformUrl: 'https://academy.example.com/sign-in',
};

/** Replaces fetch with `routes` (by path) plus GET /api/config answering the sandbox configuration. */
export function stubFetch(routes: Record<string, FakeRoute> = {}) {
  const all: Record<string, FakeRoute> = { '/api/config': () => ({ status: 200, body: SANDBOX_CONFIG }), ...routes };
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    const route = all[path];
    const reply = route
      ? route(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined)
      : { status: 404, body: { error: `Not found: ${path}` } };
    return {
      ok: reply.status >= 200 && reply.status < 300,
      status: reply.status,
      json: async () => reply.body,
    } as Response;
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
