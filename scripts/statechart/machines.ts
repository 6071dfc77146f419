/**
 * Every statechart of src/machines, in the order docs/statechart.md shows them: the buyer's pages first, then the
 * team's and the referrer's, then the console's. test/unit/statechartDocs.test.ts fails when a machine exported
 * from src/machines is missing here, so a new page's machine is drawn the day it is written.
 */
import type { AnyStateMachine } from 'xstate';
import { accountMachine } from '../../src/machines/accountMachine';
import { checkoutMachine } from '../../src/machines/checkoutMachine';
import { commissionsMachine } from '../../src/machines/commissionsMachine';
import { consoleDashboardMachine } from '../../src/machines/consoleDashboardMachine';
import { consoleOrderMachine } from '../../src/machines/consoleOrderMachine';
import { consoleOrdersMachine } from '../../src/machines/consoleOrdersMachine';
import { consoleSessionMachine } from '../../src/machines/consoleSessionMachine';
import { consoleTaxMachine } from '../../src/machines/consoleTaxMachine';
import { existingSubscriptionMachine } from '../../src/machines/existingSubscriptionMachine';
import { joinMachine } from '../../src/machines/joinMachine';
import { mailMachine } from '../../src/machines/mailMachine';
import { newPasswordMachine } from '../../src/machines/newPasswordMachine';
import { offerContentMachine } from '../../src/machines/offerContentMachine';
import { partnerMachine } from '../../src/machines/partnerMachine';
import { publicConfigMachine } from '../../src/machines/publicConfigMachine';
import { paymentSuccessMachine } from '../../src/machines/paymentSuccessMachine';
import { referrerFormMachine } from '../../src/machines/referrerFormMachine';
import { referrersMachine } from '../../src/machines/referrersMachine';
import { refundMachine } from '../../src/machines/refundMachine';
import { signInMachine } from '../../src/machines/signInMachine';
import { teamMachine } from '../../src/machines/teamMachine';
import { tooltipMachine } from '../../src/machines/tooltipMachine';

interface DrawnMachine {
  /** The section's heading: what the machine drives, and where. */
  title: string;
  /** Its file, from the repository's root. */
  source: string;
  machine: AnyStateMachine;
}

const drawn = (title: string, file: string, machine: AnyStateMachine): DrawnMachine => ({
  title,
  source: `src/machines/${file}`,
  machine,
});

export const DRAWN_MACHINES: readonly DrawnMachine[] = [
  drawn('Checkout (/)', 'checkoutMachine.ts', checkoutMachine),
  drawn("Checkout: the payment form's configuration (/)", 'publicConfigMachine.ts', publicConfigMachine),
  drawn('Payment success (/payment-success)', 'paymentSuccessMachine.ts', paymentSuccessMachine),
  drawn('Manage page (/account)', 'accountMachine.ts', accountMachine),
  drawn('Checkout: an existing subscription (beside the checkout)', 'existingSubscriptionMachine.ts', existingSubscriptionMachine),
  drawn('Hints on every page (tooltips)', 'tooltipMachine.ts', tooltipMachine),
  drawn("The buyer's team (success page and /account)", 'teamMachine.ts', teamMachine),
  drawn("An invitee's page (/join)", 'joinMachine.ts', joinMachine),
  drawn('Sign-in for the training platform (/sign-in)', 'signInMachine.ts', signInMachine),
  drawn('A new password (/sign-in/new-password)', 'newPasswordMachine.ts', newPasswordMachine),
  drawn("The referrer's page (/partner)", 'partnerMachine.ts', partnerMachine),
  drawn("The console's session (/admin)", 'consoleSessionMachine.ts', consoleSessionMachine),
  drawn("The console's dashboard (/admin)", 'consoleDashboardMachine.ts', consoleDashboardMachine),
  drawn("The console's orders (/admin/orders, /admin/cancellations)", 'consoleOrdersMachine.ts', consoleOrdersMachine),
  drawn('One order in the console (/admin/orders/{transactionId})', 'consoleOrderMachine.ts', consoleOrderMachine),
  drawn("An order's refund (inside the console's order)", 'refundMachine.ts', refundMachine),
  drawn("The console's referrers (/admin/referrers)", 'referrersMachine.ts', referrersMachine),
  drawn('Adding a referrer (/admin/referrers)', 'referrerFormMachine.ts', referrerFormMachine),
  drawn("The console's commissions (/admin/commissions)", 'commissionsMachine.ts', commissionsMachine),
  drawn("The console's tax report (/admin/tax)", 'consoleTaxMachine.ts', consoleTaxMachine),
  drawn("The offer's content (/admin/content)", 'offerContentMachine.ts', offerContentMachine),
  drawn("The console's mail (/admin/mail)", 'mailMachine.ts', mailMachine),
];
