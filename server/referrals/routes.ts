import type { FastifyInstance } from 'fastify';
import type { ReferralLinks } from './referralLinks';

export async function referralLinkRoute(app: FastifyInstance, { links }: { links: ReferralLinks }): Promise<void> {
  app.get<{ Params: { slug: string } }>('/r/:slug', { schema: { hide: true } }, (request, reply) =>
    links.follow(request, reply, request.params.slug.toLowerCase()),
  );
}
