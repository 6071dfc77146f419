/** The order detail's commission: the referrer's ledger entries for this order (read-only). */
import type { LedgerEntry } from '../../contract/commissions';
import { consoleDay } from '../../domain/orderStatus';
import { formatDollars } from '../../domain/pricing';
import { Card, Muted, StackedTable, SubHeading } from '../shared/panelStyles';

const KIND_WORDS: Record<LedgerEntry['kind'], string> = { earned: 'Earned', reversal: 'Reversed', clawback: 'Clawed back' };
const STATE_WORDS: Record<LedgerEntry['state'], string> = {
  held: 'Held (guarantee window)',
  payable: 'Payable',
  in_payout: 'In a payout',
  paid: 'Paid',
  reversed: 'Reversed',
};

/** One row per ledger entry, oldest first: what it was for, the rule it used, its amount (cents shown as dollars). */
export function OrderCommissions({ entries }: { entries: LedgerEntry[] }) {
  return (
    <>
      <SubHeading>Referrer’s commission</SubHeading>
      <Card>
        {entries.length === 0 ? (
          <Muted>No commission: the order came without a referrer’s link, or nothing has been paid yet.</Muted>
        ) : (
          <StackedTable aria-label="Commission ledger">
            <thead>
              <tr>
                <th>Date</th>
                <th>Entry</th>
                <th>Invoice</th>
                <th>Rule</th>
                <th className="number">Amount</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Date">{consoleDay(entry.earnedAt)}</td>
                  <td data-label="Entry">
                    {KIND_WORDS[entry.kind]}
                    {entry.selfReferral && ' (own link: no commission)'}
                  </td>
                  <td data-label="Invoice">
                    {entry.invoiceId} ({formatDollars(entry.invoiceCents)})
                  </td>
                  <td data-label="Rule">{entry.rule}</td>
                  <td data-label="Amount" className="number">
                    {formatDollars(entry.amountCents)}
                  </td>
                  <td data-label="State">{STATE_WORDS[entry.state]}</td>
                </tr>
              ))}
            </tbody>
          </StackedTable>
        )}
      </Card>
    </>
  );
}
