/** The tax the owner files (docs/decisions/0074): its record and its report per state and month. */
import type { OrderListener } from '../checkout';
import { recordFirstPayment, recordMoneyChanged } from './record';

export { taxPeriodOf, taxReport } from './report';

export function taxListener(): OrderListener {
  return { firstPaid: recordFirstPayment, moneyChanged: recordMoneyChanged };
}
