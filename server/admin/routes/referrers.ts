/** The console's referrers. A leading "Dr." is stored without it, so the page never reads "Dr. Dr. …". */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CreateReferrerRequest, Referrer, UpdateReferrerRequest } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { UuidParams } from '../../../src/contract/fields';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { referrerDisplayName } from '../../../src/domain/referrerNames';
import { HttpError } from '../../http/httpError';
import { createReferrer, listReferrers, referrerJson, updateReferrer } from '../../referrals';

/** 400 when nothing else is left. */
function displayNameOf(typed: string): string {
  const name = referrerDisplayName(typed);
  if (!name) throw new HttpError(400, "Enter the referrer's name after 'Dr.', e.g. Jane Doe.");
  return name;
}

/** The default referrer is not disabled: the offer would fall back to the seeded placeholder (docs/decisions/0062). */
export async function adminReferrerRoutes(
  app: FastifyInstance,
  { db, config }: { db: Database; config: Pick<Config, 'DEFAULT_REFERRER_SLUG'> },
): Promise<void> {
  app.get(
    '/api/admin/referrers',
    { schema: { summary: 'Console: referrers', response: { 200: Type.Object({ referrers: Type.Array(Referrer) }), 401: ErrorResponse } } },
    async () => ({
      referrers: (await listReferrers(db)).map(referrerJson),
    }),
  );

  app.post<{ Body: CreateReferrerRequest }>(
    '/api/admin/referrers',
    { schema: { summary: 'Console: add a referrer', body: CreateReferrerRequest, response: { 201: Referrer, '4xx': ErrorResponse } } },
    async (request, reply) => {
      const created = await createReferrer(db, { ...request.body, displayName: displayNameOf(request.body.displayName) });
      if (!created) throw new HttpError(409, `The link /r/${request.body.slug} is taken: choose another.`);
      request.log.info({ referrer: created.slug }, 'Referrer added');
      return reply.code(201).send(referrerJson(created));
    },
  );

  app.patch<{ Params: { id: string }; Body: UpdateReferrerRequest }>(
    '/api/admin/referrers/:id',
    {
      schema: {
        summary: 'Console: edit, disable or enable a referrer',
        params: UuidParams,
        body: UpdateReferrerRequest,
        response: { 200: Referrer, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      const { displayName, status } = request.body;
      if (status === 'disabled') {
        const target = (await listReferrers(db)).find((referrer) => referrer.id === request.params.id);
        if (target?.slug === config.DEFAULT_REFERRER_SLUG)
          throw new HttpError(
            409,
            `Dr. ${target.displayName} is the referrer the offer names for visitors without a link, so it stays enabled: edit the name and quote instead.`,
          );
      }
      const changes = displayName === undefined ? request.body : { ...request.body, displayName: displayNameOf(displayName) };
      const updated = await updateReferrer(db, request.params.id, changes);
      if (!updated) throw new HttpError(404, 'No such referrer.');
      request.log.info({ referrer: updated.slug, status: updated.status }, 'Referrer changed');
      return referrerJson(updated);
    },
  );
}
