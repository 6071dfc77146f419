import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MailList, MailQuery, OutboxMail } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { listMails, requeueMail } from '../mail';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { HttpError } from '../../http/httpError';

/** `delivery` is 'held' without SMTP_URL, so the console can say so. */
export async function adminMailRoutes(
  app: FastifyInstance,
  { db, config, nudgeOutbox }: { db: Database; config: Pick<Config, 'SMTP_URL'>; nudgeOutbox: () => void },
): Promise<void> {
  app.get<{ Querystring: MailQuery }>(
    '/api/admin/mail',
    {
      schema: {
        summary:
          "Console: the newest 200 mails of the outbox (?to= part of the recipient's email), held ones with their text (tokens hidden), and whether mail is sent",
        querystring: MailQuery,
        response: { 200: MailList, '4xx': ErrorResponse },
      },
    },
    async (request) => ({ mails: await listMails(db, request.query), delivery: config.SMTP_URL ? 'smtp' : 'held' }) satisfies MailList,
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
