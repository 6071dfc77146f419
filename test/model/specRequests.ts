/**
 * The requests the checkout page must send (spec §3, §7), written from the spec and not from the statechart
 * under test: which call a step makes and its exact body. The model tests record every request the page's real
 * client sends and compare them with this after each step.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { PRODUCT_ID } from '../../src/domain/product';

export interface SentRequest {
  path: string;
  body: unknown;
}

/** What the page was last told by the server: the session of call 1, with the ids call 2 replaced. */
export interface KnownSession {
  clientSecret: string;
  subscriptionId: string;
  subscriptionItemId: string;
  customerId: string;
  transactionId: string;
}

/** The order a resumed page finalizes (from this browser's pending-payment record). */
interface ResumedOrder {
  subscriptionId: string;
  customerId: string;
  transactionId: string;
  name: string;
  email: string;
}

export const CALL_PATHS = {
  create: '/api/create-anon-subscription-intent',
  update: '/api/update-anon-subscription-intent',
  finalize: '/api/finalize-anon-subscription',
} as const;

interface RequestWorld {
  /** spec §3: the referrer's short label. */
  affiliateId: string;
  /** spec §3: the current page address. */
  pageAddress: string;
  session: KnownSession | null;
  resumed: ResumedOrder | null;
}

/**
 * The requests a step must send: the call of each invoking state the step entered.
 * - entering `init.creatingIntent`: call 1 with productId, quantity 1, affiliate_id and affiliate_source (§3, §4);
 * - entering `updating`: call 2 for the pending seats with the current session's ids and productId (§4, §7);
 * - entering `finalizing` or `resuming`: call 3 with the paid order's ids, the trimmed email and 'first last' (§7).
 */
export function expectedRequests(before: AnyMachineSnapshot | null, after: AnyMachineSnapshot, world: RequestWorld): SentRequest[] {
  const sent: SentRequest[] = [];
  const isEntry = (state: string | object) => after.matches(state) && !before?.matches(state);
  if (isEntry({ init: 'creatingIntent' })) {
    sent.push({
      path: CALL_PATHS.create,
      body: { productId: PRODUCT_ID, quantity: 1, affiliate_id: world.affiliateId, affiliate_source: world.pageAddress },
    });
  }
  if (isEntry('updating') && world.session) {
    const { subscriptionId, subscriptionItemId, transactionId } = world.session;
    sent.push({
      path: CALL_PATHS.update,
      body: { subscriptionId, subscriptionItemId, quantity: after.context.pendingSeats, transactionId, productId: PRODUCT_ID },
    });
  }
  if (isEntry('finalizing') || isEntry('resuming')) {
    const form = after.context.form as { firstName: string; lastName: string; email: string };
    const order = world.resumed ?? {
      subscriptionId: world.session?.subscriptionId ?? '',
      customerId: world.session?.customerId ?? '',
      transactionId: world.session?.transactionId ?? '',
      name: `${form.firstName.trim()} ${form.lastName.trim()}`,
      email: form.email.trim(),
    };
    const { subscriptionId, customerId, transactionId, email, name } = order;
    sent.push({ path: CALL_PATHS.finalize, body: { subscriptionId, customerId, transactionId, email, name } });
  }
  return sent;
}
