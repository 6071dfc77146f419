/**
 * The browser's HTTP client for our server (spec §7): JSON in and out; a non-OK response raises the
 * body's `error` or the caller's default message (spec §8).
 */
import { pickBaseAddress } from '../domain/baseAddress';
import { ApiError } from './apiError';
import { readWithRetry } from './reads';

export { ApiError } from './apiError';

/** API base address for this page: same origin unless VITE_API_BASE_LOCAL / VITE_API_BASE_PRODUCTION are set. */
function apiBaseAddress(hostname: string = globalThis.location?.hostname ?? 'localhost'): string {
  return pickBaseAddress(hostname, {
    local: import.meta.env.VITE_API_BASE_LOCAL ?? '',
    production: import.meta.env.VITE_API_BASE_PRODUCTION ?? '',
  });
}

async function readErrorBody(response: Response): Promise<{ message?: string; body?: unknown }> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string' && body.error) {
      return { message: body.error, body };
    }
    return { body };
  } catch {
    // Not JSON: fall back to the default message.
  }
  return {};
}

/**
 * Sends `body` as JSON to `path` with `method` and returns the parsed JSON response. For calls that change money
 * or state: it is sent once, and any retry is the caller's statechart's (docs/decisions/0051). Reads go through
 * `readJson` (src/api/reads.ts), which retries and caches them.
 * @throws ApiError with the server's `error` text, or `defaultError` when there is none or the network failed.
 */
export function requestJson<T>(
  method: 'POST' | 'PATCH' | 'PUT',
  path: string,
  body: unknown,
  defaultError: string,
  headers: Record<string, string> = {},
): Promise<T> {
  return send<T>(method, path, body, defaultError, headers);
}

/**
 * GET `path` as JSON, retried after a network failure or a 5xx with spec §9's backoff (src/api/reads.ts,
 * docs/decisions/0051); never after a 4xx.
 * @throws ApiError with the server's `error` text and status, or `defaultError` when the server was never reached.
 */
export function readJson<T>(path: string, defaultError: string, headers: Record<string, string> = {}): Promise<T> {
  return readWithRetry(() => send<T>('GET', path, undefined, defaultError, headers));
}

async function send<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  path: string,
  body: unknown,
  defaultError: string,
  headers: Record<string, string>,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${apiBaseAddress()}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
  } catch {
    throw new ApiError(defaultError, 0);
  }
  if (!response.ok) {
    const { message, body: errorBody } = await readErrorBody(response);
    throw new ApiError(message ?? defaultError, response.status, errorBody);
  }
  // 204 No Content: nothing to parse.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
