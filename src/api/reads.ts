/**
 * How the browser reads (spec §9 "Data-fetching defaults: 3 retries with exponential backoff up to 30 s, cache
 * retention 5 minutes"; docs/decisions/0051-reads-retry-and-cache.md): a read that failed on the network or with
 * a 5xx is tried again up to 3 times, 1 s, 2 s then 4 s later (each wait twice the last, never over 30 s); a 4xx is
 * the server's answer and is never retried. What can be cached is kept for 5 minutes. Calls that change money or
 * state never come here: their retry is the statechart's own.
 * `readJson` (src/api/client.ts) is every GET through `readWithRetry`. Waits are `setTimeout`s, so tests drive
 * them with a fake clock.
 */
import { ApiError } from './apiError';

/** Spec §9, in ms. */
const READ_DEFAULTS = {
  retries: 3,
  firstRetryDelay: 1000,
  maxRetryDelay: 30_000,
  cacheRetention: 5 * 60_000,
} as const;

/** The wait before retry number `retry` (1-based), in ms: 1000, 2000, 4000, … capped at 30 000. */
export function retryDelay(retry: number): number {
  return Math.min(READ_DEFAULTS.firstRetryDelay * 2 ** (retry - 1), READ_DEFAULTS.maxRetryDelay);
}

/** Whether trying again may help: the server could not be reached (status 0) or failed itself (5xx). */
function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `read`, and again after a retryable failure, at most `READ_DEFAULTS.retries` more times.
 * @throws the last failure, or the first one that is not retryable (a 4xx, an unreadable answer).
 */
export async function readWithRetry<T>(read: () => Promise<T>): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await read();
    } catch (error) {
      if (retry > READ_DEFAULTS.retries || !isRetryable(error)) throw error;
      await wait(retryDelay(retry));
    }
  }
}

interface CacheEntry {
  answer: Promise<unknown>;
  expiry: ReturnType<typeof setTimeout> | null;
}

const cache = new Map<string, CacheEntry>();

function keep(key: string, answer: Promise<unknown>): CacheEntry {
  forgetCachedRead(key);
  const entry: CacheEntry = { answer, expiry: null };
  cache.set(key, entry);
  return entry;
}

/**
 * The answer of `read` (a `readJson`) under `key`: one request while it runs, every reader sharing it,
 * then the same answer for 5 minutes from its arrival. A failure is not kept, so the next reader asks again.
 */
export function cachedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  const kept = cache.get(key);
  if (kept) return kept.answer as Promise<T>;
  const answer = read();
  const entry = keep(key, answer);
  answer.then(
    () => {
      if (cache.get(key) === entry) entry.expiry = setTimeout(() => forgetCachedRead(key), READ_DEFAULTS.cacheRetention);
    },
    () => {
      if (cache.get(key) === entry) forgetCachedRead(key);
    },
  );
  return answer;
}

/** Keeps `value` as the answer under `key` for 5 minutes, e.g. what a save returned, so no reader sees the old one. */
export function primeCachedRead<T>(key: string, value: T): void {
  const entry = keep(key, Promise.resolve(value));
  entry.expiry = setTimeout(() => forgetCachedRead(key), READ_DEFAULTS.cacheRetention);
}

/** Drops the answer kept under `key`, or every kept answer without a key (tests, a sign-out). */
export function forgetCachedRead(key?: string): void {
  const keys = key === undefined ? [...cache.keys()] : [key];
  for (const k of keys) {
    const entry = cache.get(k);
    if (entry?.expiry) clearTimeout(entry.expiry);
    cache.delete(k);
  }
}
