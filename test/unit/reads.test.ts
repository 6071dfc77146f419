/**
 * Spec §9 "3 retries with exponential backoff up to 30 s, cache retention 5 minutes" (docs/decisions/0051), under
 * vitest's fake clock: reads retry network failures and 5xx, never a 4xx; what is cached is kept 5 minutes.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import { createActor } from 'xstate';
import { adminApi } from '../../src/api/adminApi';
import { readJson } from '../../src/api/client';
import { loadPublicConfig } from '../../src/api/publicConfig';
import { cachedRead, forgetCachedRead, primeCachedRead, readWithRetry, retryDelay } from '../../src/api/reads';
import { consoleSessionMachine } from '../../src/machines/consoleSessionMachine';

const offline = () => new ApiError('Failed', 0);
const serverError = () => new ApiError('Failed', 503);

/** A read that fails with `failures` in turn, then answers `answer`; counts its calls. */
function scriptedRead<T>(failures: ApiError[], answer: T) {
  const read = vi.fn(async () => {
    const failure = failures[read.mock.calls.length - 1];
    if (failure) throw failure;
    return answer;
  });
  return read;
}

/** Settles `promise` without an unhandled rejection while the clock runs; `.result()` gives its outcome. */
function watch<T>(promise: Promise<T>) {
  let outcome: { value: T } | { error: unknown } | null = null;
  promise.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  return { result: () => outcome };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  forgetCachedRead();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('retryDelay', () => {
  it('doubles from 1 s and never exceeds 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('readWithRetry', () => {
  it('tries again 1 s, 2 s and 4 s after network failures and 5xx, then answers', async () => {
    const read = scriptedRead([offline(), serverError(), offline()], 'answer');
    const outcome = watch(readWithRetry(read));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(read).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(read).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(4000);
    expect(read).toHaveBeenCalledTimes(4);
    expect(outcome.result()).toEqual({ value: 'answer' });
  });

  it('gives up after the third retry with the last failure', async () => {
    const last = serverError();
    const read = scriptedRead([offline(), offline(), offline(), last, offline()], 'never');
    const outcome = watch(readWithRetry(read));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(4);
    expect(outcome.result()).toEqual({ error: last });
  });

  it.each([400, 401, 404, 409, 429])('never retries a %i', async (status) => {
    const refusal = new ApiError('No', status);
    const read = scriptedRead([refusal], 'never');
    const outcome = watch(readWithRetry(read));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(1);
    expect(outcome.result()).toEqual({ error: refusal });
  });

  it('does not retry an answer it could not read', async () => {
    const read = vi.fn(async () => {
      throw new SyntaxError('Unexpected token <');
    });
    const outcome = watch(readWithRetry(read));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(1);
    expect(outcome.result()).toMatchObject({ error: expect.any(SyntaxError) });
  });
});

describe('readJson', () => {
  it('GETs again after a dropped connection and a 502, with the server’s answer in the end', async () => {
    const replies: Array<() => Promise<Response>> = [
      () => Promise.reject(new TypeError('Failed to fetch')),
      async () => ({ ok: false, status: 502, json: async () => ({ error: 'Bad gateway' }) }) as Response,
      async () => ({ ok: true, status: 200, json: async () => ({ orders: [] }) }) as Response,
    ];
    const fetchMock = vi.fn((_url: string, _init?: RequestInit) => replies[fetchMock.mock.calls.length - 1]!());
    vi.stubGlobal('fetch', fetchMock);
    const outcome = watch(readJson('/api/admin/orders', 'Could not reach the server'));
    await vi.advanceTimersByTimeAsync(3000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(fetchMock.mock.calls.every(([, init]) => init?.method === 'GET')).toBe(true);
    expect(outcome.result()).toEqual({ value: { orders: [] } });
  });
});

describe('cachedRead', () => {
  it('shares one request between readers and keeps its answer for 5 minutes', async () => {
    const read = vi.fn(async () => ({ provider: 'sandbox' }));
    const first = watch(cachedRead('config', read));
    const second = watch(cachedRead('config', read));
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(1);
    expect(first.result()).toEqual(second.result());

    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    await cachedRead('config', read);
    expect(read).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(1);
    await cachedRead('config', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure: the next reader asks again', async () => {
    const read = scriptedRead([new ApiError('No', 401)], 'content');
    await expect(cachedRead('content', read)).rejects.toThrow('No');
    await expect(cachedRead('content', read)).resolves.toBe('content');
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('answers what a save returned instead of the older answer', async () => {
    const read = vi.fn(async () => 'before');
    await cachedRead('content', read);
    primeCachedRead('content', 'saved');
    await expect(cachedRead('content', read)).resolves.toBe('saved');
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    await expect(cachedRead('content', read)).resolves.toBe('before');
  });

  it('keeps separate answers under separate keys', async () => {
    await cachedRead('a', async () => 1);
    await expect(cachedRead('b', async () => 2)).resolves.toBe(2);
  });
});

describe('the pages’ reads', () => {
  /** Answers GET `path` with `replies` in turn (a thrown TypeError is a dropped connection). */
  function stubServer(replies: Array<{ status: number; body: unknown } | 'offline'>) {
    const fetchMock = vi.fn(async (_url: string) => {
      const reply = replies[Math.min(fetchMock.mock.calls.length - 1, replies.length - 1)]!;
      if (reply === 'offline') throw new TypeError('Failed to fetch');
      return { ok: reply.status < 300, status: reply.status, json: async () => reply.body } as Response;
    });
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }

  it('the console stays on its loading state through a dropped connection, then shows the owner', async () => {
    const owner = { email: 'owner@example.com' };
    const fetchMock = stubServer(['offline', { status: 200, body: owner }]);
    const actor = createActor(consoleSessionMachine).start();
    await vi.advanceTimersByTimeAsync(999);
    expect(actor.getSnapshot().value).toBe('checking');
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(actor.getSnapshot().context.owner).toEqual(owner);
  });

  it('the console asks to sign in at the first 401, without retrying', async () => {
    const fetchMock = stubServer([{ status: 401, body: { error: 'Please sign in.' } }]);
    const actor = createActor(consoleSessionMachine).start();
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toBe('signedOut');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('the public configuration is read again after a 503, kept 5 minutes, then read afresh', async () => {
    const config = { paymentProvider: 'sandbox', stripePublishableKey: null, successSite: { local: 'a', production: 'b' } };
    const fetchMock = stubServer([
      { status: 503, body: {} },
      { status: 200, body: config },
    ]);
    const first = watch(loadPublicConfig());
    await vi.advanceTimersByTimeAsync(1000);
    expect(first.result()).toEqual({ value: config });
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    await loadPublicConfig();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await loadPublicConfig();
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('the offer’s content is kept, and a save replaces what is kept', async () => {
    const before = { testimonials: [], guarantee: 'Before' };
    const saved = { testimonials: [], guarantee: 'Saved' };
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      const body = init?.method === 'PUT' ? saved : before;
      return { ok: true, status: 200, json: async () => body } as Response;
    });
    vi.stubGlobal('fetch', fetchMock);
    expect(await adminApi.content()).toEqual(before);
    expect(await adminApi.content()).toEqual(before);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await adminApi.saveContent(saved);
    expect(await adminApi.content()).toEqual(saved);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
