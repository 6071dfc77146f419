/**
 * Sends what the outbox holds, at least once: a run claims due rows (FOR UPDATE SKIP LOCKED, a 60 s lease so a
 * crashed process's rows go next run), sends outside the transaction, then marks them sent or retries with backoff
 * (30 s doubling, at most an hour). Links are minted at send time and go only into the mail; without SMTP_URL none is
 * minted and the mail is 'held', its tokens `[hidden]`. A requested link resolves here to the email's newest
 * subscription, or 'dropped'.
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Database, Transaction } from '../db/client';
import { accounts, orders, outbox } from '../db/schema';
import type { OutboxMailParts } from './mailParts';
import { renderMail } from './mailTemplates';
import { OWNER_MAIL_PREFIX, renderOwnerMail } from './ownerMail';
import { postWebhook } from './webhooks';
import { SEAT_INVITATION } from './seatEvents';

const MAX_ATTEMPTS = 10;
const CLAIM_SECONDS = 60;
const FIRST_RETRY_SECONDS = 30;
const LONGEST_RETRY_SECONDS = 60 * 60;

export interface Mailer {
  send(mail: { to: string; subject: string; text: string; html: string }): Promise<void>;
}

/** `SMTP_URL`, From `MAIL_FROM` */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

export interface OutboxContext {
  db: Database;
  config: Config;
  log: FastifyBaseLogger;
  /** Null without SMTP_URL: mails are held. */
  mailer: Mailer | null;
  mail: OutboxMailParts;
}

type OutboxRow = typeof outbox.$inferSelect;

interface OutboxReport {
  sent: number;
  held: number;
  dropped: number;
  retried: number;
  failed: number;
}

const HIDDEN_TOKEN = '[hidden]';

function siteUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

const backoffSeconds = (attempts: number) => Math.min(FIRST_RETRY_SECONDS * 2 ** (attempts - 1), LONGEST_RETRY_SECONDS);

export async function deliverDue(context: OutboxContext, limit = 20): Promise<OutboxReport> {
  const { db } = context;
  const claimed = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        sql`${outbox.status} = 'pending' and ${outbox.nextAttemptAt} <= now() and (${outbox.lockedUntil} is null or ${outbox.lockedUntil} < now())`,
      )
      .orderBy(outbox.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, attempts: sql`${outbox.attempts} + 1` })
      .where(
        sql`${outbox.id} in (${sql.join(
          due.map((row) => sql`${row.id}`),
          sql`, `,
        )})`,
      )
      .returning();
  });
  const report: OutboxReport = { sent: 0, held: 0, dropped: 0, retried: 0, failed: 0 };
  for (const row of claimed) {
    try {
      const outcome = await deliver(context, row);
      await db
        .update(outbox)
        .set({
          status: outcome.status,
          sentAt: outcome.status === 'sent' ? new Date() : null,
          lockedUntil: null,
          lastError: null,
          rendered: outcome.rendered ? withTokensHidden(outcome.rendered) : null,
          ...(outcome.transactionId ? { transactionId: outcome.transactionId } : {}),
        })
        .where(eq(outbox.id, row.id));
      report[outcome.status] += 1;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= MAX_ATTEMPTS;
      context.log.warn(
        { outboxId: row.id, topic: row.topic, attempts: row.attempts, err: message },
        giveUp ? 'Outbox row failed for good' : 'Outbox row failed; retrying later',
      );
      await db
        .update(outbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lockedUntil: null,
          lastError: message.slice(0, 500),
          nextAttemptAt: sql`now() + make_interval(secs => ${backoffSeconds(row.attempts)})`,
        })
        .where(and(eq(outbox.id, row.id), eq(outbox.status, 'pending')));
      report[giveUp ? 'failed' : 'retried'] += 1;
    }
  }
  return report;
}

/** Every mail link carries its single-use token as `?token=`. */
const LINK_TOKEN = /([?&]token=)[A-Za-z0-9_-]+/g;

/** So the table holds no live link (test/server/security/secretsAtRest.test.ts). */
function withTokensHidden(mail: { to: string; subject: string; text: string }): { to: string; subject: string; text: string } {
  return { ...mail, text: mail.text.replace(LINK_TOKEN, `$1${HIDDEN_TOKEN}`) };
}

interface Delivery {
  status: 'sent' | 'held' | 'dropped';
  transactionId?: string;
  rendered?: { to: string; subject: string; text: string };
}

async function deliver(context: OutboxContext, row: OutboxRow): Promise<Delivery> {
  const { db, config, log, mail: parts } = context;
  if (row.topic.startsWith(parts.referrerMail.topicPrefix)) return parts.referrerMail.deliver({ ...context, site: siteUrl(config) }, row);
  if (row.topic.startsWith(OWNER_MAIL_PREFIX)) return deliverOwnerMail(context, row);
  const { passwordLinks } = parts;
  const member = row.topic === passwordLinks.requestTopic ? await passwordLinks.whomFor(db, String(row.payload.email ?? '')) : null;
  const topic = member === 'account_link' ? 'account_link' : member ? passwordLinks.memberTopic : row.topic;
  const seat = member === 'account_link' ? null : member;
  const requested =
    !seat && row.kind === 'mail' && (!row.transactionId || member) && typeof row.payload.email === 'string' ? row.payload.email : null;
  const transactionId = seat
    ? seat.transactionId
    : requested === null
      ? row.transactionId
      : await parts.manageLinks.newestSubscriptionOf(db, requested);
  if (!transactionId) {
    if (requested === null) throw new Error(`Outbox row ${row.id} names no order`);
    log.info({ outboxId: row.id, topic: row.topic }, 'Mail dropped: no subscription for the requested email');
    return { status: 'dropped' };
  }
  const [order] = await db
    .select({ order: orders, account: accounts })
    .from(orders)
    .leftJoin(accounts, eq(accounts.transactionId, orders.transactionId))
    .where(eq(orders.transactionId, transactionId));
  if (!order) throw new Error(`Order ${transactionId} not found`);
  const resolved = requested === null && !seat ? {} : { transactionId };
  const buyer = { email: order.account?.email ?? order.order.email ?? '', name: order.account?.name ?? order.order.name ?? '' };
  if (row.kind === 'webhook') {
    if (!config.SUCCESS_SITE_WEBHOOK_URL || !config.SUCCESS_SITE_WEBHOOK_SECRET) throw new Error('SUCCESS_SITE_WEBHOOK_URL is not set');
    const body = JSON.stringify({
      id: `whk_${row.id}`,
      type: row.topic,
      created: row.createdAt.toISOString(),
      data: {
        transactionId: order.order.transactionId,
        email: buyer.email,
        seats: order.order.quantity,
        monthlyTotalCents: order.order.amountCents,
        // Tax apart, beside the amount before it (docs/operations.md, "The agreement site's webhooks").
        monthlyTaxCents: order.order.taxCents,
        taxState: order.order.taxState,
        status: order.order.status,
        ...row.payload,
      },
    });
    await postWebhook(config.SUCCESS_SITE_WEBHOOK_URL, config.SUCCESS_SITE_WEBHOOK_SECRET, body);
    return { status: 'sent' };
  }
  if (!buyer.email) throw new Error(`Order ${transactionId} has no email yet`);
  // A held mail gets no link: one minted for it would sit readable in the row for as long as it lives.
  const minutes = topic === 'account_link' ? config.ACCOUNT_LINK_MINUTES : config.CONFIRMATION_LINK_DAYS * 24 * 60;
  const site = siteUrl(config);
  const link = async (purpose: 'manage' | 'agreement') =>
    `${site}/account?token=${context.mailer ? await parts.manageLinks.issue(db, transactionId, purpose, minutes) : HIDDEN_TOKEN}`;
  const invitation =
    row.topic === SEAT_INVITATION ? await parts.invitations.invitationOf(db, row.payload, site, context.mailer !== null) : null;
  if (invitation === 'gone') return { status: 'dropped' };
  const newPasswordToken = seat ? (context.mailer ? await passwordLinks.mint(db, seat.seatId) : HIDDEN_TOKEN) : null;
  if (seat && newPasswordToken === null) return { status: 'dropped' };
  const newPassword = newPasswordToken ? `${site}/sign-in/new-password?token=${newPasswordToken}` : '';
  const to = seat?.email ?? invitation?.to ?? buyer.email;
  const manage = invitation || seat ? '' : await link('manage');
  const agreement = topic === 'order_confirmation' ? await link('agreement') : manage;
  // Each link works once, so the Team section's is a link of its own.
  const freeSeats = topic === 'order_confirmation' ? await parts.invitations.freeSeatsOf(db, order.order) : 0;
  const team = freeSeats > 0 ? `${await link('manage')}#team` : `${manage}#team`;
  const mail = renderMail(topic, {
    buyer,
    seats: order.order.quantity,
    monthlyTotalCents: order.order.amountCents,
    tax: { cents: order.order.taxCents, state: order.order.taxState },
    payload: { ...row.payload, freeSeats, seatName: seat?.name ?? row.payload.seatName ?? null },
    links: { manage, agreement, join: invitation?.join ?? '', team, newPassword },
    trainingPlatformUrl: config.TRAINING_PLATFORM_URL ?? null,
  });
  if (!context.mailer) {
    log.info({ outboxId: row.id, topic: row.topic, to }, 'Mail held: no SMTP_URL (see /admin → Mail)');
    return { status: 'held', ...resolved, rendered: { to, subject: mail.subject, text: mail.text } };
  }
  await context.mailer.send({ to, ...mail });
  log.info({ outboxId: row.id, topic: row.topic, to }, 'Mail sent');
  return { status: 'sent', ...resolved, rendered: { to, subject: mail.subject, text: mail.text } };
}

/** Dropped when there is no owner, held without SMTP_URL. */
async function deliverOwnerMail(context: OutboxContext, row: OutboxRow): Promise<Delivery> {
  const mail = await renderOwnerMail(context.db, siteUrl(context.config), row);
  if (!mail) {
    context.log.warn({ outboxId: row.id, topic: row.topic }, 'Owner mail dropped: no owner to send it to');
    return { status: 'dropped' };
  }
  if (!context.mailer) {
    context.log.info({ outboxId: row.id, topic: row.topic }, 'Mail held: no SMTP_URL (see /admin → Mail)');
    return { status: 'held', rendered: { to: mail.to, subject: mail.subject, text: mail.text } };
  }
  await context.mailer.send(mail);
  context.log.info({ outboxId: row.id, topic: row.topic }, 'Mail sent');
  return { status: 'sent', rendered: { to: mail.to, subject: mail.subject, text: mail.text } };
}

/** Also when nudged; the returned function stops it after the current run. */
export function startOutboxWorker(context: OutboxContext, intervalMs: number): { stop(): Promise<void>; nudge(): void } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const run = () => {
    if (stopped) return;
    running = running
      .then(async () => {
        for (;;) {
          const report = await deliverDue(context);
          if (report.sent + report.held + report.dropped + report.retried + report.failed === 0) break;
        }
      })
      .catch((error: unknown) => context.log.error({ err: error }, 'Outbox run failed'));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return {
    nudge: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The retention sweep's part: rows sent, dropped or given up more than `retentionDays` days ago; pending and held
 * mail stays. Returns how many.
 */
export async function deleteSettledOutboxRows(tx: Transaction, retentionDays: number): Promise<number> {
  const deleted = await tx
    .delete(outbox)
    .where(
      and(
        inArray(outbox.status, ['sent', 'dropped', 'failed']),
        lt(outbox.createdAt, sql`now() - make_interval(days => ${retentionDays})`),
      ),
    )
    .returning({ id: outbox.id });
  return deleted.length;
}
