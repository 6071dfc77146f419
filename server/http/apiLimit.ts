import type { FastifyInstance } from 'fastify';

/**
 * Counts every route of `scope` against the API's one per-address limit (server/app.ts); a route with its own
 * `config.rateLimit` keeps only that.
 */
export function countAgainstApiLimit(scope: FastifyInstance): void {
  const limit = scope.rateLimit();
  scope.addHook('onRoute', (route) => {
    if (route.config?.rateLimit != null) return;
    const own = route.onRequest;
    route.onRequest = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), limit];
  });
}
