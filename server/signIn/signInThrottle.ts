/**
 * The console's per-account sign-in throttle: at most OWNER_SIGN_IN_FAILURES_PER_15_MINUTES failed
 * sign-ins per owner email in 15 minutes, from whatever addresses they come (rotating IPv6 addresses get around
 * the per-address limit, not this one); past it every sign-in to that email, the right password too, answers 429
 * until the window ends. Counted by @fastify/rate-limit's own store (`createRateLimit`, peeked without counting
 * first, counted on a failure): shared through Redis when REDIS_URL is set, per process otherwise. Known and
 * unknown emails are counted alike, so the throttle tells nothing about which exist.
 *
 * The attempts for one email run one at a time in this process (peek, verify, count), so a burst of parallel
 * guesses cannot all pass the peek before the first failure is counted.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Emails are compared in lower case (the console's owners too). */
export const normalEmail = (email: string) => email.trim().toLowerCase();

/** The window the failures are counted in, in ms. */
const WINDOW_MS = 15 * 60 * 1000;

/** What a throttled attempt gives back instead of the sign-in's result. */
export const THROTTLED = Symbol('throttled');

/**
 * Runs `signIn` for `email` unless that email has had `maxFailures` failures in the window; a null result is a
 * failure and is counted. Returns `signIn`'s result, or THROTTLED without calling it.
 */
type SignInThrottle = <T>(request: FastifyRequest, email: string, signIn: () => Promise<T | null>) => Promise<T | null | typeof THROTTLED>;

/**
 * The throttle over `app`'s rate-limit store (the plugin must be registered on `app` or a parent).
 * The store's key is a hash of the lower-cased email, so no email is kept in Redis. `purpose` keeps the counts
 * of different sign-ins apart ('owner' for the console, 'person' for /sign-in).
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
