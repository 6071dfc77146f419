/**
 * GET /api/openapi.json: the wire contract (src/contract/) as OpenAPI 3.1, built by @fastify/swagger from the routes'
 * schemas; /api routes and /healthz only.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** Before any route is added, so every route is seen. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Referral checkout API',
        version: '1',
        description:
          'The checkout calls (spec §7), the payment-success return, the hand-off redemption for the agreement ' +
          'site, and the sandbox card confirmation. Every error answers `{ "error": "…" }`.',
      },
      components: {
        securitySchemes: {
          handoffApiKey: { type: 'http', scheme: 'bearer', description: 'HANDOFF_API_KEY' },
          checkoutSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'Checkout-Signature',
            description:
              't=<Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with SUCCESS_SITE_WEBHOOK_SECRET>, within 300 s of the server clock (docs/operations.md)',
          },
        },
      },
    },
    transform: ({ schema, url }) => {
      const listed = url.startsWith('/api/') || url === '/healthz';
      return { schema: listed ? schema : { ...schema, hide: true }, url };
    },
  });
}
