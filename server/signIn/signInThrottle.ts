/**
 * The per-email sign-in throttle: past `maxFailures` failures in 15 minutes from any addresses (rotating IPv6 gets
 * around the per-address limit, not this), even the right password answers 429. Kept in @fastify/rate-limit's store
 * (Redis with REDIS_URL); unknown emails count alike. One email's attempts run one at a time in a process, so
 * parallel guesses cannot all pass the peek.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const normalEmail = (email: string) => email.trim().toLowerCase();

const WINDOW_MS = 15 * 60 * 1000;

export const THROTTLED = Symbol('throttled');

/** A null result is a failure and counts. */
type SignInThrottle = <T>(request: FastifyRequest, email: string, signIn: () => Promise<T | null>) => Promise<T | null | typeof THROTTLED>;

/**
 * The store's key is a hash of the email, so none is kept in Redis; `purpose` keeps the console's and /sign-in's
 * counts apart.
 */
export function ownerSignInThrottle(app: FastifyInstance, maxFailures: number, purpose = 'owner'): SignInThrottle {
  const keys = new WeakMap<FastifyRequest, string>();
  const failures = app.createRateLimit({
    max: maxFailures,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => keys.get(request) ?? '',
  });
  const running = new Map<string, Promise<unknown>>();

  return async (request, email, signIn) => {
    const key = `${purpose}-sign-in:${createHash('sha256').update(normalEmail(email)).digest('base64url')}`;
    keys.set(request, key);
    const attempt = async () => {
      const status = await failures(request, { increment: false });
      if (!status.isAllowed && status.remaining === 0) return THROTTLED;
      const result = await signIn();
      if (result === null) await failures(request);
      return result;
    };
    const run = (running.get(key) ?? Promise.resolve()).then(attempt);
    const settled = run.catch(() => undefined);
    running.set(key, settled);
    try {
      return await run;
    } finally {
      if (running.get(key) === settled) running.delete(key);
    }
  };
}
