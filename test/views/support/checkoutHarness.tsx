/**
 * Renders the real checkout page with the statechart's server and payment actors replaced, on an in-memory
 * location, with the app's toaster.
 */
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import toast from 'react-hot-toast';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import type { FinalizeResponse, SubscriptionSession, UpdateIntentResponse } from '../../../src/contract/checkout';
import { checkoutMachine, type ConfirmPaymentActorInput } from '../../../src/machines/checkoutMachine';
import type { FinalizeActorInput } from '../../../src/machines/checkoutOrder';
import type { LocateActorInput, Location } from '../../../src/machines/checkoutTax';
import type { PaymentConfirmation } from '../../../src/payments/gateway';
import { CheckoutPage } from '../../../src/views/checkout/CheckoutPage';
import { resetPublicConfigCache } from '../../../src/api/publicConfig';
import { AppToaster } from '../../../src/views/toasts/AppToaster';
import { stubFetch } from './fakeFetch';

export const SESSION: SubscriptionSession = {
  clientSecret: 'pi_sbx_1_secret_a',
  subscriptionId: 'sub_sbx_1',
  subscriptionItemId: 'si_sbx_1',
  customerId: 'cus_sbx_1',
  transactionId: 'txn-1',
};

export const FINALIZED: FinalizeResponse = {
  success: true,
  token: 'handoff-token',
  loginDetails: { email: 'ada@example.com', password: 'S3cret-pass', productPurchased: 'AI Training Subscription (Monthly)' },
  signInLinkEmailed: false,
};

type CreateInput = { affiliateId: string; affiliateSource: string };
type UpdateInput = { session: SubscriptionSession; quantity: number };
type FinalizeInput = FinalizeActorInput;

/** How the fake server and payment gateway answer; each defaults to success. */
interface FakeCheckoutServer {
  createIntent?: (input: CreateInput) => Promise<SubscriptionSession>;
  updateIntent?: (input: UpdateInput) => Promise<UpdateIntentResponse>;
  /** The location step (decision 0071); by default the session as it is, untaxed. */
  locate?: (input: LocateActorInput) => Promise<Location>;
  confirmPayment?: (input: ConfirmPaymentActorInput) => Promise<PaymentConfirmation>;
  finalize?: (input: FinalizeInput) => Promise<FinalizeResponse>;
}

/** The update call's answer for `quantity` seats: a new subscription and client secret, as the server gives. */
export function updatedSession(quantity: number): UpdateIntentResponse {
  return {
    clientSecret: `pi_sbx_${quantity}_secret_b`,
    subscriptionId: `sub_sbx_${quantity}`,
    subscriptionItemId: `si_sbx_${quantity}`,
    taxCents: 0,
  };
}

/** The location step's answer for a ZIP that owes no tax: the session as it is. */
async function untaxed({ session }: LocateActorInput): Promise<Location> {
  const { clientSecret, subscriptionId, subscriptionItemId } = session;
  return {
    kind: 'quoted',
    quote: { clientSecret, subscriptionId, subscriptionItemId, subtotalCents: 50_000, taxCents: 0, taxState: null },
  };
}

/** The checkout statechart with its invoked actors answered by `server`. */
export function testCheckoutMachine(server: FakeCheckoutServer = {}) {
  return checkoutMachine.provide({
    actors: {
      createSubscriptionIntent: fromPromise<SubscriptionSession, CreateInput>(({ input }) =>
        (server.createIntent ?? (async () => SESSION))(input),
      ),
      updateSubscriptionIntent: fromPromise<UpdateIntentResponse, UpdateInput>(({ input }) =>
        (server.updateIntent ?? (async ({ quantity }) => updatedSession(quantity)))(input),
      ),
      locateBuyer: fromPromise<Location, LocateActorInput>(({ input }) => (server.locate ?? untaxed)(input)),
      confirmPayment: fromPromise<PaymentConfirmation, ConfirmPaymentActorInput>(({ input }) =>
        (server.confirmPayment ?? (async () => ({ status: 'succeeded', paymentIntentId: 'pi_sbx_1' }) as const))(input),
      ),
      finalizeSubscription: fromPromise<FinalizeResponse, FinalizeInput>(({ input }) =>
        (server.finalize ?? (async () => FINALIZED))(input),
      ),
    },
  });
}

/** Renders the checkout page at `/` with `server`; `location.history` records where it navigated. */
export function renderCheckout(server: FakeCheckoutServer = {}) {
  const location = memoryLocation({ path: '/', record: true });
  const view = render(
    <Router hook={location.hook}>
      <CheckoutPage machine={testCheckoutMachine(server)} />
      <AppToaster />
    </Router>,
  );
  return { ...view, location };
}

/** Removes every toast (call before the page unmounts, so the toaster's update happens inside act). */
function clearToasts(): void {
  act(() => toast.remove());
}

/**
 * Registers, for the calling test file, the checkout page's test environment: before each test a fake clock, a
 * fresh payment configuration and the fake server behind fetch; after each, no toasts, the real clock and fetch.
 */
export function registerCheckoutTestEnvironment(): void {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    resetPublicConfigCache();
    stubFetch();
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(() => {
    clearToasts();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

/** True when the page holds the buyer back from leaving (its `beforeunload` handler cancels the event). */
export function leavingAsksFirst(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}
