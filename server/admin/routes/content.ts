import type { FastifyInstance } from 'fastify';
import { OfferContentBody } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { readOfferContent, saveOfferContent } from '../../content';
import type { Database } from '../../db/client';

export async function adminContentRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get(
    '/api/admin/content',
    { schema: { summary: "Console: the offer's testimonials and guarantee", response: { 200: OfferContentBody, 401: ErrorResponse } } },
    async () => readOfferContent(db),
  );

  app.put<{ Body: OfferContentBody }>(
    '/api/admin/content',
    {
      schema: {
        summary: "Console: replace the offer's testimonials (0 to 3) and guarantee",
        body: OfferContentBody,
        response: { 200: OfferContentBody, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const saved = await saveOfferContent(db, request.body);
      request.log.info({ testimonials: saved.testimonials.length }, 'Offer content saved');
      return saved;
    },
  );
}
