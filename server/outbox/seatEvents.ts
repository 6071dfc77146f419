/**
 * A seat's events, as ./orderEvents.ts: the invitation (its link minted when sent), the buyer's mail when seats are
 * suspended, and the `seat.*` webhooks. One row per event (`dedupeKey`).
 */
import type { Config } from '../config';
import type { Transaction } from '../db/client';
import { outbox, type seats } from '../db/schema';

type SeatRow = typeof seats.$inferSelect;

/** Its row's payload names the seat. */
export const SEAT_INVITATION = 'seat_invitation';

type SeatEvent =
  | { kind: 'invited'; seat: SeatRow }
  | { kind: 'invitation_resent'; seat: SeatRow; resendId: string }
  | { kind: 'claimed'; seat: SeatRow }
  | { kind: 'revoked'; seat: SeatRow; reason: 'buyer' | 'reassigned' | 'subscription_ended' }
  | { kind: 'suspended'; transactionId: string; changeId: string; names: string; count: number };

/** Flat: the outbox payload holds strings and numbers. */
function seatPayload(seat: SeatRow) {
  return { seatId: seat.id, seatNumber: seat.seatNumber, seatEmail: seat.email, seatName: seat.name, role: 'member' };
}

/** @throws database errors: the change rolls back with it. */
export async function raiseSeatEvent(tx: Transaction, config: Pick<Config, 'SUCCESS_SITE_WEBHOOK_URL'>, event: SeatEvent): Promise<void> {
  const rows: (typeof outbox.$inferInsert)[] = [];
  const webhook = (topic: string, key: string, payload: Record<string, string | number | null>, transactionId: string) => {
    if (config.SUCCESS_SITE_WEBHOOK_URL) rows.push({ kind: 'webhook', topic, dedupeKey: `webhook:${key}`, transactionId, payload });
  };
  switch (event.kind) {
    case 'invited':
    case 'invitation_resent': {
      const { seat } = event;
      const key = event.kind === 'invited' ? `${SEAT_INVITATION}:${seat.id}` : `${SEAT_INVITATION}:${seat.id}:${event.resendId}`;
      rows.push({
        kind: 'mail',
        topic: SEAT_INVITATION,
        dedupeKey: `mail:${key}`,
        transactionId: seat.transactionId,
        payload: seatPayload(seat),
      });
      if (event.kind === 'invited')
        webhook(
          'seat.invited',
          `seat.invited:${seat.id}`,
          { event: 'seat.invited', ...seatPayload(seat), seatStatus: 'invited' },
          seat.transactionId,
        );
      break;
    }
    case 'claimed':
      webhook(
        'seat.claimed',
        `seat.claimed:${event.seat.id}`,
        { event: 'seat.claimed', ...seatPayload(event.seat), seatStatus: 'claimed' },
        event.seat.transactionId,
      );
      break;
    case 'revoked':
      webhook(
        'seat.revoked',
        `seat.revoked:${event.seat.id}`,
        { event: 'seat.revoked', ...seatPayload(event.seat), seatStatus: 'revoked', reason: event.reason },
        event.seat.transactionId,
      );
      break;
    case 'suspended':
      rows.push({
        kind: 'mail',
        topic: 'seats_suspended',
        dedupeKey: `mail:seats_suspended:${event.transactionId}:${event.changeId}`,
        transactionId: event.transactionId,
        payload: { names: event.names, count: event.count },
      });
      break;
  }
  if (rows.length > 0) await tx.insert(outbox).values(rows).onConflictDoNothing({ target: outbox.dedupeKey });
}
