/**
 * What the worker asks the features it writes about, each handed in from its index.ts (server/app.ts featureMail), so
 * the outbox, early in the feature order, imports none of them. Every part is required: a mail cannot lose its links
 * silently.
 */
import type { Config } from '../config';
import type { Database } from '../db/client';

export interface FeatureMailRow {
  id: number;
  topic: string;
  payload: Record<string, string | number | null>;
}

/** The text it keeps has its links' tokens hidden. */
export interface FeatureMailDelivery {
  status: 'sent' | 'held' | 'dropped';
  rendered?: { to: string; subject: string; text: string };
}

export interface FeatureMailContext {
  db: Database;
  config: Config;
  /** Null without SMTP_URL: the mail is held, no link minted. */
  mailer: { send(mail: { to: string; subject: string; text: string; html: string }): Promise<void> } | null;
  /** No trailing slash. */
  site: string;
  log: { info(details: object, message: string): void };
}

export interface OutboxMailParts {
  manageLinks: {
    issue(db: Database, transactionId: string, purpose: 'manage' | 'agreement', minutes: number): Promise<string>;
    /** Null: the request is dropped, unmailed. */
    newestSubscriptionOf(db: Database, email: string): Promise<string | null>;
  };
  invitations: {
    /** `[hidden]` for the token when `mint` is false; 'gone' when the seat waits no more. */
    invitationOf(
      db: Database,
      payload: Record<string, string | number | null>,
      site: string,
      mint: boolean,
    ): Promise<{ to: string; join: string } | 'gone'>;
    freeSeatsOf(db: Database, order: { transactionId: string; quantity: number }): Promise<number>;
  };
  /** docs/decisions/0039 */
  passwordLinks: {
    /** Its payload holds the email as typed. */
    requestTopic: string;
    memberTopic: string;
    /** At send time: a member with a live claimed seat, or 'account_link' for anyone else. */
    whomFor(db: Database, email: string): Promise<{ seatId: string; email: string; name: string; transactionId: string } | 'account_link'>;
    /** Null when the seat holds no login any more. */
    mint(db: Database, seatId: string): Promise<string | null>;
  };
  /** Every row whose topic starts with `topicPrefix`, sent whole by its feature. */
  referrerMail: {
    topicPrefix: string;
    /** @throws for a row that cannot be sent now (the worker retries). */
    deliver(context: FeatureMailContext, row: FeatureMailRow): Promise<FeatureMailDelivery>;
  };
}
