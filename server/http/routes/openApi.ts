import type { FastifyInstance } from 'fastify';

export async function openApiRoute(app: FastifyInstance): Promise<void> {
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
