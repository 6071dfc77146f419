/**
 * A local Stripe API double for the adapter's tests: an HTTP server on 127.0.0.1 that answers scripted
 * requests with hand-written, Stripe-shaped JSON (test/server/fixtures/stripe/) and records what the SDK sent,
 * so a test can assert the path, the form-encoded parameters and the headers (Stripe-Version, Idempotency-Key).
 * The adapter reaches it through STRIPE_API_BASE (the `apiBase` option), as it would reach stripe-mock.
 *
 * Why not nock: nock 15 intercepts through @mswjs/interceptors, which needs Node 22 (Promise.withResolvers);
 * the project runs on Node 20, where every intercepted request fails as a connection error.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A secret key of the right shape; valid nowhere. */
export const TEST_SECRET_KEY = 'sk_test_referralCheckoutNotARealKey0000';

/** Reads a fixture; a fresh copy each time, so a test may change it. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/stripe/${name}.json`, import.meta.url), 'utf8')) as T;
}

/** One request the SDK sent, as the double saw it. */
interface RecordedRequest {
  method: string;
  /** The path without the query: /v1/subscriptions/sub_123 */
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** The form-encoded body (POST) or the query (GET, DELETE), in Stripe's bracket notation: `items[0][quantity]`. */
  params: URLSearchParams;
}

interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the double on a free port. Script answers with `on(...)`, each used once, in order; a request with
 * no answer left is recorded in `unexpected` and gets a 501 that the SDK does not retry.
 */
export async function startStripeDouble() {
  const answers: Answer[] = [];
  const requests: RecordedRequest[] = [];
  const unexpected: string[] = [];

  const answerRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://double');
    const method = request.method ?? 'GET';
    const body = await readBody(request);
    const headers: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(request.headers)) headers[key] = Array.isArray(value) ? value.join(', ') : value;
    requests.push({ method, path: url.pathname, headers, params: new URLSearchParams(method === 'POST' ? body : url.search) });

    const index = answers.findIndex((answer) => answer.method === method && answer.path === url.pathname);
    const answer = index >= 0 ? answers.splice(index, 1)[0] : undefined;
    if (!answer) {
      unexpected.push(`${method} ${url.pathname}`);
      response.writeHead(501, { 'content-type': 'application/json', 'stripe-should-retry': 'false' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: `No scripted answer for ${method} ${url.pathname}` } }));
      return;
    }
    response.writeHead(answer.status, {
      'content-type': 'application/json',
      'request-id': `req_test_${requests.length}`,
      ...answer.headers,
    });
    response.end(JSON.stringify(answer.body));
  };
  // A fault in the double is a bug in the test: its rejection stays unhandled, and vitest fails the run with it.
  const server = createServer((request, response) => void answerRequest(request, response));

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const double = {
    /** The base URL to pass as STRIPE_API_BASE / `apiBase`. */
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    unexpected,
    /** Adds an answer for one request. */
    on(method: 'GET' | 'POST' | 'DELETE', path: string, status: number, body: unknown, headers: Record<string, string> = {}) {
      answers.push({ method, path, status, body, headers });
      return double;
    },
    /** Answers scripted but not asked for. */
    pending: () => answers.map((answer) => `${answer.method} ${answer.path}`),
    /** Forgets answers and recorded requests, between tests. */
    reset() {
      answers.length = 0;
      requests.length = 0;
      unexpected.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
  return double;
}

export type StripeDouble = Awaited<ReturnType<typeof startStripeDouble>>;
