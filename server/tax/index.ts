/**
 * The tax the owner files (docs/decisions/0074): a record of tax collected per taxed payment and refund, written
 * from the one lifecycle's announcements in its transaction (./record.ts), and the report per state and month the
 * console reads (./report.ts).
 */
import type { OrderListener } from '../checkout';
import { recordFirstPayment, recordMoneyChanged } from './record';

export { taxPeriodOf, taxReport } from './report';

/** What the tax record hears: the first payment, then renewals, prorations and refunds. */
export function taxListener(): OrderListener {
  return { firstPaid: recordFirstPayment, moneyChanged: recordMoneyChanged };
}
