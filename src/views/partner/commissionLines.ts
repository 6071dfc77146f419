/**
 * A referred practice's commissions as the referrer reads them: one line per paid invoice, with what it earned net
 * of what refunds and disputes took back (a 'reversal' entry nets into the commission it reverses, on the same
 * invoice; docs/decisions/0035), the day a held one becomes payable (src/domain/commissions.ts
 * commissionPayableFrom), and a clawback (taken from a payout already made) as a line of its own. Money in cents.
 */
import type { LedgerEntry } from '../../contract/commissions';
import { commissionPayableFrom, formatCents } from '../../domain/commissions';

interface CommissionLine {
  key: number;
  /** The day the invoice was paid (ISO 8601). */
  earnedAt: string;
  /** What the line counts for now, in cents: an earned commission less what was taken back of it; a clawback's negative amount. */
  netCents: number;
  /** How it stands, in words: 'held, payable from Dec 24, 2026', 'payable', '$200.00 earned, all taken back: …', … */
  words: string;
}

const day = (date: Date | string) => new Date(date).toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

const STATE_WORDS: Record<LedgerEntry['state'], string> = {
  held: 'held',
  payable: 'payable',
  in_payout: 'in a payout being paid',
  paid: 'paid',
  reversed: 'taken back',
};

/** The lines of one practice's entries (oldest first, as the server answers them): one per payment, its net. */
export function commissionLines(entries: readonly LedgerEntry[]): CommissionLine[] {
  const takenBack = new Map<string, number>();
  /** Why the last reversal of each invoice took money back, from its text ('Reversal: the practice was refunded $1,000'). */
  const why = new Map<string, string>();
  for (const entry of entries) {
    if (entry.kind !== 'reversal') continue;
    takenBack.set(entry.invoiceId, (takenBack.get(entry.invoiceId) ?? 0) - entry.amountCents);
    if (entry.amountCents < 0) why.set(entry.invoiceId, entry.rule.replace(/^Reversal:\s*/, ''));
  }
  const lines: CommissionLine[] = [];
  for (const entry of entries) {
    if (entry.kind === 'reversal') continue;
    if (entry.kind === 'clawback') {
      lines.push({
        key: entry.id,
        earnedAt: entry.earnedAt,
        netCents: entry.amountCents,
        words:
          entry.amountCents < 0
            ? `${formatCents(-entry.amountCents)} taken back from your next payout: ${entry.rule.replace(/^Clawback:\s*/, '')}`
            : `${formatCents(entry.amountCents)} given back to your next payout: ${entry.rule.replace(/^Clawback given back:\s*/, '')}`,
      });
      continue;
    }
    const taken = takenBack.get(entry.invoiceId) ?? 0;
    const net = entry.amountCents - taken;
    const state =
      entry.state === 'held' ? `held, payable from ${day(commissionPayableFrom(new Date(entry.earnedAt)))}` : STATE_WORDS[entry.state];
    const because = why.get(entry.invoiceId) ?? 'after a refund or dispute';
    const words = entry.selfReferral
      ? 'nothing: your own purchase earns no commission'
      : taken <= 0
        ? state
        : net <= 0
          ? `${formatCents(entry.amountCents)} earned, all taken back: ${because}`
          : `${formatCents(entry.amountCents)} earned, ${formatCents(taken)} taken back: ${because}; ${state}`;
    lines.push({ key: entry.id, earnedAt: entry.earnedAt, netCents: net, words });
  }
  return lines;
}
