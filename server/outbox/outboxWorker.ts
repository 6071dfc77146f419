/**
 * Sends what the outbox holds (issue: after the purchase, "email that cannot be lost"). A run claims due rows
 * (FOR UPDATE SKIP LOCKED, so several processes never claim the same row; the claim is a 60 s lease, so a row
 * claimed by a process that crashed before sending is sent by the next run), renders and sends each outside the
 * transaction, and marks it sent, or schedules a retry with exponential backoff (30 s doubling, at most an hour;
 * 'failed' after MAX_ATTEMPTS). Delivery is at least once: a crash between sending and marking sends again.
 * A mail's links are minted here, at send time, and go only into the mail; the log names a mail by topic,
 * recipient and outbox id, never its text. Without SMTP_URL no link is minted: the mail is rendered
 * into the row with `[hidden]` for each token and 'held' (the console re-queues it once SMTP is set); a sent mail's
 * text is kept the same way, tokens hidden, so the console can open it. A requested
 * link ('account_link' with the email in its payload) is resolved here: to the email's newest subscription, or
 * 'dropped', unmailed, for an email with none. So is "Forgot your password?" ('password_link'): a member with a live
 * claimed seat gets a "set a new password" link minted here, anyone else the 'account_link' mail. What the mail reads
 * of the account, the team, the sign-in and the referrers' commissions, they hand in (./mailParts.ts).
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

/** Attempts before a row is given up as 'failed'. */
const MAX_ATTEMPTS = 10;
const CLAIM_SECONDS = 60;
const FIRST_RETRY_SECONDS = 30;
const LONGEST_RETRY_SECONDS = 60 * 60;

/** Sends one mail. */
export interface Mailer {
  send(mail: { to: string; subject: string; text: string; html: string }): Promise<void>;
}

/** A Mailer over SMTP with nodemailer (`SMTP_URL`, From `MAIL_FROM`). */
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
  /** What the mail reads of other features (server/app.ts featureMail). */
  mail: OutboxMailParts;
}

type OutboxRow = typeof outbox.$inferSelect;

/** What one run did, in rows. */
interface OutboxReport {
  sent: number;
  held: number;
  /** Requested links to an email with no subscription: nothing mailed. */
  dropped: number;
  retried: number;
  failed: number;
}

/** What a held mail shows in place of each link's token. */
const HIDDEN_TOKEN = '[hidden]';

/** The site's own address for links in mails: PUBLIC_URL, else this server on localhost. */
function siteUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string {
  return (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
}

/** Seconds before attempt `attempts + 1`. */
const backoffSeconds = (attempts: number) => Math.min(FIRST_RETRY_SECONDS * 2 ** (attempts - 1), LONGEST_RETRY_SECONDS);

/** Claims up to `limit` due rows and sends them. */
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

/** A link's token in a mail's text: every mail link carries its single-use token as `?token=` (base64url). */
const LINK_TOKEN = /([?&]token=)[A-Za-z0-9_-]+/g;

/**
 * A mail's text as the outbox keeps it for the console (/admin → Mail, held and sent alike): each link's token
 * `[hidden]`, so the table holds no live link (test/server/security/secretsAtRest.test.ts).
 */
function withTokensHidden(mail: { to: string; subject: string; text: string }): { to: string; subject: string; text: string } {
  return { ...mail, text: mail.text.replace(LINK_TOKEN, `$1${HIDDEN_TOKEN}`) };
}

/** How one row went: its new status, the order a requested link resolved to, the mail's text (tokens hidden when kept). */
interface Delivery {
  status: 'sent' | 'held' | 'dropped';
  transactionId?: string;
  rendered?: { to: string; subject: string; text: string };
}

async function deliver(context: OutboxContext, row: OutboxRow): Promise<Delivery> {
  const { db, config, log, mail: parts } = context;
  if (row.topic.startsWith(parts.referrerMail.topicPrefix)) return parts.referrerMail.deliver({ ...context, site: siteUrl(config) }, row);
  if (row.topic.startsWith(OWNER_MAIL_PREFIX)) return deliverOwnerMail(context, row);
  // "Forgot your password?": a member's own mail, or the /account link request for anyone else.
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
        status: order.order.status,
        ...row.payload,
      },
    });
    await postWebhook(config.SUCCESS_SITE_WEBHOOK_URL, config.SUCCESS_SITE_WEBHOOK_SECRET, body);
    return { status: 'sent' };
  }
  if (!buyer.email) throw new Error(`Order ${transactionId} has no email yet`);
  // A requested link lives ACCOUNT_LINK_MINUTES; the links of other mails CONFIRMATION_LINK_DAYS. A held mail
  // gets none: a link minted for it would sit in the row, readable, for as long as it lives.
  const minutes = topic === 'account_link' ? config.ACCOUNT_LINK_MINUTES : config.CONFIRMATION_LINK_DAYS * 24 * 60;
  const site = siteUrl(config);
  const link = async (purpose: 'manage' | 'agreement') =>
    `${site}/account?token=${context.mailer ? await parts.manageLinks.issue(db, transactionId, purpose, minutes) : HIDDEN_TOKEN}`;
  // An invitation goes to the invitee, with its own link to /join.
  const invitation =
    row.topic === SEAT_INVITATION ? await parts.invitations.invitationOf(db, row.payload, site, context.mailer !== null) : null;
  if (invitation === 'gone') return { status: 'dropped' };
  // A member's "set a new password" link, to the member.
  const newPasswordToken = seat ? (context.mailer ? await passwordLinks.mint(db, seat.seatId) : HIDDEN_TOKEN) : null;
  if (seat && newPasswordToken === null) return { status: 'dropped' };
  const newPassword = newPasswordToken ? `${site}/sign-in/new-password?token=${newPasswordToken}` : '';
  const to = seat?.email ?? invitation?.to ?? buyer.email;
  const manage = invitation || seat ? '' : await link('manage');
  const agreement = topic === 'order_confirmation' ? await link('agreement') : manage;
  // The confirmation's link to the Team section is a link of its own (each works once).
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

/** An owner mail (./ownerMail.ts) to every owner; dropped when there is none, held without SMTP_URL. */
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

/** Runs deliverDue every `intervalMs` (and when nudged); returns a function that stops it after the current run. */
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
 * The retention sweep's part: deletes rows sent, dropped or given up more than `retentionDays` days ago; pending
 * and held mail is kept whatever its age. Returns how many went.
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
