/** GET /api/openapi.json: the calls as an OpenAPI 3.1 document (server/http/openApi.ts builds it from src/contract/); registered inside the /api scope, rate-limited like the rest. */
import type { FastifyInstance } from 'fastify';

export async function openApiRoute(app: FastifyInstance): Promise<void> {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
