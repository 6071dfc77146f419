import type { FastifyInstance } from 'fastify';

/**
 * Counts every route registered in `scope` (and its children) against the API's one per-address limit, the
 * store @fastify/rate-limit keeps for the whole server (server/app.ts registers it, `global: false`). A route with
 * its own `config.rateLimit` keeps only that limit, as @fastify/rate-limit does for a route of its own.
 */
export function countAgainstApiLimit(scope: FastifyInstance): void {
  const limit = scope.rateLimit();
  scope.addHook('onRoute', (route) => {
    if (route.config?.rateLimit != null) return;
    const own = route.onRequest;
    route.onRequest = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), limit];
  });
}
