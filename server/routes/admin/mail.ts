/** The console's view of the outbox's mails and the re-send of a held or failed one (server/admin/mail.ts). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { OutboxMail } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { listMails, requeueMail } from '../../admin/mail';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';

/** Registers GET /api/admin/mail and POST /api/admin/mail/:id/resend (signed in). */
export async function adminMailRoutes(
  app: FastifyInstance,
  { db, config, nudgeOutbox }: { db: Database; config: Pick<Config, 'SMTP_URL'>; nudgeOutbox: () => void },
): Promise<void> {
  app.get(
    '/api/admin/mail',
    {
      schema: {
        summary: 'Console: the newest 200 mails of the outbox, held ones with their text (tokens hidden)',
        response: { 200: Type.Object({ mails: Type.Array(OutboxMail) }), 401: ErrorResponse },
      },
    },
    async () => ({ mails: await listMails(db) }),
  );

  app.post<{ Params: { id: string } }>(
    '/api/admin/mail/:id/resend',
    {
      schema: {
        summary: 'Console: send a held or failed mail again, rendered afresh with new links',
        params: Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,14}$' }) }),
        response: { 200: OutboxMail, '4xx': ErrorResponse },
      },
    },
    async (request) => {
      if (!config.SMTP_URL) throw new HttpError(409, 'Set SMTP_URL first: without it the mail would be held again.');
      const mail = await requeueMail(db, Number(request.params.id));
      if (mail === 'unknown') throw new HttpError(404, 'No such mail.');
      if (mail === 'not_resendable') throw new HttpError(409, 'Only a held or failed mail can be sent again.');
      nudgeOutbox();
      return mail;
    },
  );
}
