/**
 * What the outbox worker (./outboxWorker.ts) asks the features it writes about when it sends: each feature hands
 * its part in from its index.ts and server/app.ts (featureMail) puts them together once, so the outbox, early in
 * the feature order (architecture.md, "Layout"), imports none of them. Every part is required: a mail cannot lose
 * its links silently.
 */
import type { Config } from '../config';
import type { Database } from '../db/client';

/** A row's fields a feature's own mail reads. */
export interface FeatureMailRow {
  id: number;
  topic: string;
  payload: Record<string, string | number | null>;
}

/** How a feature's own mail went, as the worker records it (the text it keeps with its links' tokens hidden). */
export interface FeatureMailDelivery {
  status: 'sent' | 'held' | 'dropped';
  rendered?: { to: string; subject: string; text: string };
}

/** What a feature's own mail is sent with. */
export interface FeatureMailContext {
  db: Database;
  config: Config;
  /** Null without SMTP_URL: the mail is held, no link minted. */
  mailer: { send(mail: { to: string; subject: string; text: string; html: string }): Promise<void> } | null;
  /** The site's own address, no trailing slash. */
  site: string;
  log: { info(details: object, message: string): void };
}

export interface OutboxMailParts {
  /** The account's single-use links to the manage page, and the order a requested link resolves to. */
  manageLinks: {
    /** A new link to /account for order `transactionId`, valid `minutes`: its token. */
    issue(db: Database, transactionId: string, purpose: 'manage' | 'agreement', minutes: number): Promise<string>;
    /** The newest subscription whose login email is `email`, or null (the request is dropped, unmailed). */
    newestSubscriptionOf(db: Database, email: string): Promise<string | null>;
  };
  /** The team's invitations (the seats). */
  invitations: {
    /**
     * The invitation of the seat `payload.seatId`: to whom, and its /join link (`[hidden]` for the token when `mint`
     * is false); 'gone' when the seat no longer waits to be claimed.
     */
    invitationOf(
      db: Database,
      payload: Record<string, string | number | null>,
      site: string,
      mint: boolean,
    ): Promise<{ to: string; join: string } | 'gone'>;
    /** Seats of an order still to be given, for the confirmation mail. */
    freeSeatsOf(db: Database, order: { transactionId: string; quantity: number }): Promise<number>;
  };
  /** "Forgot your password?" on /sign-in (the sign-in, docs/decisions/0039). */
  passwordLinks: {
    /** The topic of a request; its payload holds the email as typed. */
    requestTopic: string;
    /** The topic of a member's "set a new password" mail (./mailTemplates.ts). */
    memberTopic: string;
    /** Whom a request is for at send time: a member with a live claimed seat, or 'account_link' for anyone else. */
    whomFor(db: Database, email: string): Promise<{ seatId: string; email: string; name: string; transactionId: string } | 'account_link'>;
    /** A new "set a new password" token for seat `seatId`, or null when the seat holds no login any more. */
    mint(db: Database, seatId: string): Promise<string | null>;
  };
  /** The referrer's mail (commissions), sent whole by its feature: every row whose topic starts with `topicPrefix`. */
  referrerMail: {
    topicPrefix: string;
    /** @throws for a row that cannot be sent now (the worker retries). */
    deliver(context: FeatureMailContext, row: FeatureMailRow): Promise<FeatureMailDelivery>;
  };
}
