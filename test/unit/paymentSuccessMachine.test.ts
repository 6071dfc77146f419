/**
 * The success-page statechart (spec §2, §4, §8, and the 3-D Secure redirect return) with its storage, clipboard,
 * finalize and config actors swapped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { PaymentRecordReading, PaymentSuccessRecord } from '../../src/api/paymentRecord';
import type { PaymentReturn } from '../../src/api/paymentReturn';
import { resetPublicConfigCache } from '../../src/api/publicConfig';
import { paymentSuccessMachine, type PaymentSuccessEmitted } from '../../src/machines/paymentSuccessMachine';
import { SANDBOX_CONFIG } from '../views/support/fakeFetch';

const record: PaymentSuccessRecord = {
  success: true,
  token: 'handoff-token',
  loginDetails: { email: 'ada@example.com', password: 'Pw3xAmpLe9Pw3xAmpLe9', productPurchased: 'AI Training Subscription (Monthly)' },
  signInLinkEmailed: false,
  seatCount: 3,
  totalAmount: 1000,
  email: 'ada@example.com',
  name: 'Ada Palmer',
  transactionId: 'txn_1',
};

/** The query string 3-D Secure's redirect brings the buyer back with. */
const RETURN_SEARCH = '?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_2&redirect_status=succeeded';

interface StartOptions {
  copyFails?: boolean;
  configFails?: boolean;
  /** The page's query string (machine input). */
  search?: string;
  finalizeFails?: boolean;
}

function start(reading: PaymentRecordReading, options: StartOptions = {}) {
  const copied: string[] = [];
  const cleared = vi.fn();
  const stored = vi.fn();
  const finalized: PaymentReturn[] = [];
  const machine = paymentSuccessMachine.provide({
    actors: {
      loadPaymentRecord: fromPromise(async () => reading),
      finalizeFromPaymentReturn: fromPromise(async ({ input }: { input: PaymentReturn }) => {
        finalized.push(input);
        if (options.finalizeFails) throw new Error('Unknown checkout');
        return record;
      }),
      copyToClipboard: fromPromise(async ({ input }: { input: { text: string } }) => {
        if (options.copyFails) throw new Error('denied');
        copied.push(input.text);
      }),
      resolveSuccessSiteUrl: fromPromise(async ({ input }: { input: { token: string } }) => {
        if (options.configFails) throw new Error('down');
        return `http://localhost:5174/?token=${input.token}`;
      }),
    },
    actions: { clearStoredRecord: cleared, storeReturnedRecord: ({ event }) => stored((event as unknown as { output: unknown }).output) },
  });
  const actor = createActor(machine, { input: { search: options.search ?? '' } });
  const emitted: PaymentSuccessEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  const toasts = () => emitted.flatMap((e) => (e.type === 'toast' ? [`${e.toast.title}: ${e.toast.description}`] : []));
  return { actor, emitted, copied, cleared, stored, finalized, toasts };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('payment-success statechart', () => {
  it('starts loading and shows a found record', async () => {
    const { actor } = start({ kind: 'found', record });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await settle();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(actor.getSnapshot().context.record).toEqual(record);
  });

  it('says there is no payment data when nothing is stored', async () => {
    const { actor, toasts } = start({ kind: 'missing' });
    await settle();
    expect(actor.getSnapshot().matches('noData')).toBe(true);
    expect(toasts()).toEqual(['No Payment Data: No payment information found. Please complete a purchase first.']);
  });

  it('says the details could not be loaded when the record is corrupt', async () => {
    const { actor, toasts } = start({ kind: 'corrupt' });
    await settle();
    expect(actor.getSnapshot().matches('corrupt')).toBe(true);
    expect(toasts()).toEqual(['Error: Failed to load payment details. Please contact support.']);
  });

  describe('after a 3-D Secure redirect return', () => {
    it('finalizes from the address when nothing is stored, stores the record and shows it', async () => {
      const { actor, emitted, finalized, stored, toasts } = start({ kind: 'missing' }, { search: RETURN_SEARCH });
      const visited: unknown[] = [];
      actor.subscribe((snapshot) => visited.push(snapshot.value));
      await settle();
      expect(visited).toEqual(['finalizingReturn', { ready: 'viewing' }]);
      expect(finalized).toEqual([{ paymentIntentId: 'pi_1', clientSecret: 'pi_1_secret_2', redirectStatus: 'succeeded' }]);
      expect(stored).toHaveBeenCalledWith(record);
      expect(actor.getSnapshot().context.record).toEqual(record);
      expect(toasts()).toEqual([]);
      expect(emitted).toContainEqual({ type: 'paymentReturnConsumed' });
    });

    it("shows the 'Error' toast and stops in returnFailed when finalize fails", async () => {
      const { actor, emitted, stored, toasts } = start({ kind: 'missing' }, { search: RETURN_SEARCH, finalizeFails: true });
      await settle();
      expect(actor.getSnapshot().matches('returnFailed')).toBe(true);
      expect(emitted).not.toContainEqual({ type: 'paymentReturnConsumed' });
      expect(stored).not.toHaveBeenCalled();
      expect(toasts()).toEqual(['Error: Failed to load payment details. Please contact support.']);
    });

    it('prefers a stored record to the address and does not finalize again', async () => {
      const { actor, finalized } = start({ kind: 'found', record }, { search: RETURN_SEARCH });
      await settle();
      expect(actor.getSnapshot().matches('ready')).toBe(true);
      expect(finalized).toEqual([]);
    });

    it('needs both payment_intent and its client secret; otherwise there is no payment data', async () => {
      const { actor, finalized } = start({ kind: 'missing' }, { search: '?payment_intent=pi_1&redirect_status=succeeded' });
      await settle();
      expect(actor.getSnapshot().matches('noData')).toBe(true);
      expect(finalized).toEqual([]);
    });
  });

  it('copies the email and the password with their toasts', async () => {
    const { actor, copied, toasts } = start({ kind: 'found', record });
    await settle();
    actor.send({ type: 'COPY_CLICKED', field: 'email' });
    await settle();
    actor.send({ type: 'COPY_CLICKED', field: 'password' });
    await settle();
    expect(copied).toEqual(['ada@example.com', 'Pw3xAmpLe9Pw3xAmpLe9']);
    expect(toasts()).toEqual(['Copied!: Email copied to clipboard', 'Copied!: Password copied to clipboard']);
  });

  it("raises 'Copy Failed' when the clipboard refuses", async () => {
    const { actor, toasts } = start({ kind: 'found', record }, { copyFails: true });
    await settle();
    actor.send({ type: 'COPY_CLICKED', field: 'password' });
    await settle();
    expect(toasts()).toEqual(['Copy Failed: Failed to copy to clipboard']);
    expect(actor.getSnapshot().matches({ ready: 'viewing' })).toBe(true);
  });

  it('clears the record and redirects to the success site with the token', async () => {
    const { actor, emitted, cleared } = start({ kind: 'found', record });
    await settle();
    actor.send({ type: 'SIGN_AGREEMENT_CLICKED' });
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    await settle();
    expect(cleared).toHaveBeenCalledTimes(1);
    expect(emitted).toContainEqual({ type: 'redirectRequested', url: 'http://localhost:5174/?token=handoff-token' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('shows a record without credentials and copies nothing from it (decision 0026)', async () => {
    const withoutCredentials: PaymentSuccessRecord = { ...record, token: null, loginDetails: null, signInLinkEmailed: true };
    const { actor, copied, toasts } = start({ kind: 'found', record: withoutCredentials });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'viewing' })).toBe(true);
    expect(actor.getSnapshot().context.record).toEqual(withoutCredentials);
    actor.send({ type: 'COPY_CLICKED', field: 'password' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: 'viewing' })).toBe(true);
    expect(copied).toEqual([]);
    expect(toasts()).toEqual([]);
  });

  it('refuses to redirect without a token', async () => {
    const { actor, toasts, cleared } = start({ kind: 'found', record: { ...record, token: '' } });
    await settle();
    actor.send({ type: 'SIGN_AGREEMENT_CLICKED' });
    await settle();
    expect(toasts()).toEqual(['Error: No authentication token found. Please contact support.']);
    expect(cleared).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('refuses to redirect when the stored record has no token at all', async () => {
    const { actor, toasts, emitted } = start({ kind: 'found', record: { ...record, token: undefined } as unknown as PaymentSuccessRecord });
    await settle();
    actor.send({ type: 'SIGN_AGREEMENT_CLICKED' });
    await settle();
    expect(toasts()).toEqual(['Error: No authentication token found. Please contact support.']);
    expect(emitted.filter((event) => event.type === 'redirectRequested')).toEqual([]);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('keeps the record and says so when the success-site address cannot be read', async () => {
    const { actor, cleared, toasts } = start({ kind: 'found', record }, { configFails: true });
    await settle();
    actor.send({ type: 'SIGN_AGREEMENT_CLICKED' });
    await settle();
    expect(cleared).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(toasts()).toEqual(['Error: Could not open the training agreement. Please try again.']);
  });
});

describe('payment-success statechart with its own clipboard and config actors', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    resetPublicConfigCache();
  });

  it("copies with the browser's clipboard and hands off to the success site from GET /api/config", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { clipboard: { writeText } });
    const fetchConfig = vi.fn(async (_url: string) => ({ ok: true, status: 200, json: async () => SANDBOX_CONFIG }) as Response);
    vi.stubGlobal('fetch', fetchConfig);
    const machine = paymentSuccessMachine.provide({
      actors: { loadPaymentRecord: fromPromise(async (): Promise<PaymentRecordReading> => ({ kind: 'found', record })) },
      actions: { clearStoredRecord: () => undefined },
    });
    const actor = createActor(machine, { input: { search: '' } });
    const emitted: PaymentSuccessEmitted[] = [];
    actor.on('*', (event) => emitted.push(event));
    actor.start();
    await settle();
    actor.send({ type: 'COPY_CLICKED', field: 'password' });
    await settle();
    expect(writeText).toHaveBeenCalledExactlyOnceWith('Pw3xAmpLe9Pw3xAmpLe9');
    actor.send({ type: 'SIGN_AGREEMENT_CLICKED' });
    await settle();
    expect(new URL(String(fetchConfig.mock.calls[0]?.[0]), 'http://localhost').pathname).toBe('/api/config');
    expect(emitted).toContainEqual({ type: 'redirectRequested', url: `${SANDBOX_CONFIG.successSite.local}/?token=handoff-token` });
    expect(actor.getSnapshot().status).toBe('done');
  });
});
