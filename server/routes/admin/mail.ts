/** The console's view of the outbox's mails (server/admin/mail.ts). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { OutboxMail } from '../../../src/contract/admin';
import { ErrorResponse } from '../../../src/contract/checkout';
import { listMails } from '../../admin/mail';
import type { Database } from '../../db/client';

/** Registers GET /api/admin/mail (signed in). */
export async function adminMailRoutes(app: FastifyInstance, { db }: { db: Database }): Promise<void> {
  app.get(
    '/api/admin/mail',
    {
      schema: {
        summary: 'Console: the newest 200 mails of the outbox, held ones with their text',
        response: { 200: Type.Object({ mails: Type.Array(OutboxMail) }), 401: ErrorResponse },
      },
    },
    async () => ({ mails: await listMails(db) }),
  );
}
