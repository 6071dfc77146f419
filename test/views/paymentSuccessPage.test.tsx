/** The payment-success page (spec §2, §4 "Success page", §8 toasts), with its statechart's actors faked. */
import { act, fireEvent, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_RECORD_KEY, savePaymentRecord, type PaymentRecordReading, type PaymentSuccessRecord } from '../../src/api/paymentRecord';
import { resetPublicConfigCache } from '../../src/api/publicConfig';
import { paymentSuccessMachine } from '../../src/machines/paymentSuccessMachine';
import { AppToaster } from '../../src/views/toasts/AppToaster';
import { PaymentSuccessPage } from '../../src/views/success/PaymentSuccessPage';
import { stubFetch } from './support/fakeFetch';
import { advance, deferred } from './support/timers';

const RECORD: PaymentSuccessRecord = {
  success: true,
  token: 'handoff-token',
  loginDetails: { email: 'ada@example.com', password: 'S3cret-pass', productPurchased: 'AI Training Subscription (Monthly)' },
  signInLinkEmailed: false,
  seatCount: 3,
  totalAmount: 1000,
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  transactionId: 'txn-42',
};

interface FakeSuccessActors {
  load?: () => Promise<PaymentRecordReading>;
  copy?: (text: string) => Promise<void>;
  resolveUrl?: (token: string) => Promise<string>;
}

function testMachine(actors: FakeSuccessActors = {}) {
  return paymentSuccessMachine.provide({
    actors: {
      ...(actors.load && { loadPaymentRecord: fromPromise<PaymentRecordReading>(actors.load) }),
      copyToClipboard: fromPromise<void, { text: string }>(({ input }) => (actors.copy ?? (async () => undefined))(input.text)),
      resolveSuccessSiteUrl: fromPromise<string, { token: string }>(({ input }) =>
        (actors.resolveUrl ?? (async (token) => `https://agreement.example.com/?token=${token}`))(input.token),
      ),
    },
  });
}

/** Renders /payment-success; `search` is the address's query string (without '?'). */
function renderSuccess(actors: FakeSuccessActors = {}, search = '') {
  const redirect = vi.fn<(url: string) => void>();
  const location = memoryLocation({ path: '/payment-success', searchPath: search, record: true });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <PaymentSuccessPage machine={testMachine(actors)} redirect={redirect} />
      <AppToaster />
    </Router>,
  );
  return { redirect, location };
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
  // Each test reads the public configuration afresh (where people sign in), from its own stubbed fetch.
  resetPublicConfigCache();
});

afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('payment-success page', () => {
  it("shows 'Loading payment details...' until the record is read", async () => {
    const reading = deferred<PaymentRecordReading>();
    renderSuccess({ load: () => reading.promise });
    expect(screen.getByText('Loading payment details...')).toBeInTheDocument();

    reading.resolve({ kind: 'found', record: RECORD });
    await advance();
    expect(screen.queryByText('Loading payment details...')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
  });

  it('shows the order, the credentials and the agreement hand-off from the stored record', async () => {
    savePaymentRecord(RECORD);
    renderSuccess();
    await advance();

    expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(screen.getByText('Your AI training subscription has been activated')).toBeInTheDocument();
    expect(screen.getByText('Transaction ID').nextSibling).toHaveTextContent('txn-42');
    expect(screen.getByText('Product').nextSibling).toHaveTextContent('AI Training Subscription (Monthly)');
    expect(screen.getByText('Seats').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('$1,000/month')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'IMPORTANT: Save Your Login Credentials' })).toBeInTheDocument();
    expect(screen.getByText('S3cret-pass')).toBeInTheDocument();
    expect(screen.getByText(/must sign the training agreement before/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Training Agreement →' })).toBeEnabled();
    expect(screen.getByText('Required to complete account setup')).toBeInTheDocument();
  });

  it('says where the buyer signs in to the training: the training platform, with its address', async () => {
    stubFetch();
    savePaymentRecord(RECORD);
    renderSuccess();
    await advance();
    const where = screen.getByTestId('where-to-sign-in');
    expect(where).toHaveTextContent('you sign in to the training on the training platform, with the email and password above');
    expect(where).toHaveTextContent('(academy.example.com)');
    expect(screen.getByRole('link', { name: 'Go to the training platform' })).toHaveAttribute(
      'href',
      'https://academy.example.com/sign-in',
    );
  });

  it('without credentials, says a sign-in link was emailed and where the account is, instead of the credentials', async () => {
    savePaymentRecord({ ...RECORD, token: null, loginDetails: null, signInLinkEmailed: true });
    renderSuccess();
    await advance();

    expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
    expect(screen.getByText('Transaction ID').nextSibling).toHaveTextContent('txn-42');
    expect(screen.getByText('Product').nextSibling).toHaveTextContent('AI Training Subscription (Monthly)');
    expect(screen.getByText('$1,000/month')).toBeInTheDocument();
    const notice = screen.getByRole('region', { name: 'We’ve emailed you a sign-in link' });
    expect(notice).toHaveTextContent('We sent it to ada@example.com.');
    expect(screen.getByRole('link', { name: `${window.location.origin}/account` })).toHaveAttribute('href', '/account');
    expect(screen.queryByRole('heading', { name: 'IMPORTANT: Save Your Login Credentials' })).not.toBeInTheDocument();
    expect(screen.queryByText('S3cret-pass')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it("toasts 'No Payment Data' and links back to the checkout when nothing is stored", async () => {
    renderSuccess();
    await advance();
    expect(screen.getByText('No Payment Data')).toBeInTheDocument();
    expect(screen.getByText('No payment information found. Please complete a purchase first.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to checkout' })).toHaveAttribute('href', '/');
  });

  it('without a record, sends a buyer whose purchase this browser remembers to /account, without the toast', async () => {
    // What the checkout remembered when it finalized (decision 0007), after the hand-off cleared the record.
    window.localStorage.setItem(
      'recentPurchase',
      JSON.stringify({
        transactionId: 'txn-42',
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        seats: 1,
        totalAmount: 500,
        name: 'Ada Palmer',
        email: 'ada@example.com',
        completedAt: Date.now(),
      }),
    );
    try {
      renderSuccess();
      await advance();
      expect(screen.getByRole('heading', { name: 'Your purchase is complete' })).toHaveFocus();
      expect(screen.getByText('ada@example.com')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Manage your subscription' })).toHaveAttribute('href', '/account');
      expect(screen.queryByText('No Payment Data')).not.toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Return to checkout' })).not.toBeInTheDocument();
    } finally {
      window.localStorage.removeItem('recentPurchase');
    }
  });

  it('toasts an error when the stored record cannot be read', async () => {
    window.sessionStorage.setItem(PAYMENT_RECORD_KEY, '{not json');
    renderSuccess();
    await advance();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to load payment details. Please contact support.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to checkout' })).toBeInTheDocument();
  });

  describe('after a 3-D Secure redirect return (nothing stored)', () => {
    const RETURN_SEARCH = 'payment_intent=pi_3Ret&payment_intent_client_secret=pi_3Ret_secret_Abc&redirect_status=succeeded';

    it('finalizes from the address, shows the order and stores the record', async () => {
      const finalize = deferred<void>();
      const bodies: unknown[] = [];
      stubFetch({
        '/api/finalize-from-payment-intent': (body) => {
          bodies.push(body);
          return { status: 200, body: RECORD };
        },
      });
      // The checkout wrote this browser's pending payment just before confirming it.
      window.localStorage.setItem(
        'pendingPayment',
        JSON.stringify({
          transactionId: 't',
          subscriptionId: 's',
          customerId: 'c',
          seats: 1,
          totalAmount: 500,
          name: 'Ada Palmer',
          email: 'ada@example.com',
          savedAt: Date.now(),
        }),
      );
      const { location } = renderSuccess(
        {
          load: async () => {
            await finalize.promise;
            return { kind: 'missing' };
          },
        },
        RETURN_SEARCH,
      );
      expect(screen.getByText('Loading payment details...')).toBeInTheDocument();
      expect(location.history).toEqual([`/payment-success?${RETURN_SEARCH}`]);

      finalize.resolve();
      await advance();

      expect(bodies).toEqual([{ paymentIntentId: 'pi_3Ret', clientSecret: 'pi_3Ret_secret_Abc', email: 'ada@example.com' }]);
      window.localStorage.removeItem('pendingPayment');
      expect(screen.getByRole('heading', { name: 'Payment Successful!' })).toBeInTheDocument();
      expect(screen.getByText('S3cret-pass')).toBeInTheDocument();
      expect(JSON.parse(window.sessionStorage.getItem(PAYMENT_RECORD_KEY) ?? 'null')).toEqual(RECORD);
      // The client secret left the address: the return address was replaced by the bare page.
      expect(location.history).toEqual(['/payment-success']);
    });

    it("toasts 'Failed to load payment details. Please contact support.' when the server refuses", async () => {
      stubFetch({ '/api/finalize-from-payment-intent': () => ({ status: 404, body: { error: 'Unknown checkout' } }) });
      const { location } = renderSuccess({}, RETURN_SEARCH);
      await advance();

      // Kept, so a reload tries again.
      expect(location.history).toEqual([`/payment-success?${RETURN_SEARCH}`]);
      expect(screen.getByText('Error')).toBeInTheDocument();
      expect(screen.getByText('Failed to load payment details. Please contact support.')).toBeInTheDocument();
      expect(screen.getByRole('heading', { name: 'We could not read your payment details' })).toBeInTheDocument();
      expect(window.sessionStorage.getItem(PAYMENT_RECORD_KEY)).toBeNull();
    });
  });

  it('copies the email and the password, and reports a failed copy', async () => {
    const copy = vi.fn(async (text: string) => {
      if (text === 'S3cret-pass') throw new Error('denied');
    });
    savePaymentRecord(RECORD);
    renderSuccess({ copy });
    await advance();

    fireEvent.click(screen.getByRole('button', { name: 'Copy email' }));
    await advance();
    expect(copy).toHaveBeenLastCalledWith('ada@example.com');
    expect(screen.getByText('Copied!')).toBeInTheDocument();
    expect(screen.getByText('Email copied to clipboard')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    await advance();
    expect(copy).toHaveBeenLastCalledWith('S3cret-pass');
    expect(screen.getByText('Copy Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to copy to clipboard')).toBeInTheDocument();
  });

  it("toasts 'Password copied to clipboard' after copying the password", async () => {
    savePaymentRecord(RECORD);
    renderSuccess();
    await advance();
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    await advance();
    expect(screen.getByText('Password copied to clipboard')).toBeInTheDocument();
  });

  it('refuses the hand-off without a token', async () => {
    savePaymentRecord({ ...RECORD, token: '' });
    const { redirect } = renderSuccess();
    await advance();
    fireEvent.click(screen.getByRole('button', { name: 'Sign Training Agreement →' }));
    await advance();
    expect(screen.getByText('No authentication token found. Please contact support.')).toBeInTheDocument();
    expect(redirect).not.toHaveBeenCalled();
  });

  it("reads 'Redirecting...', clears the record, sends the browser to the success site with the token, then links only to /account", async () => {
    const url = deferred<string>();
    savePaymentRecord(RECORD);
    const { redirect } = renderSuccess({ resolveUrl: () => url.promise });
    await advance();

    fireEvent.click(screen.getByRole('button', { name: 'Sign Training Agreement →' }));
    expect(screen.getByRole('button', { name: 'Redirecting...' })).toBeDisabled();

    url.resolve('https://agreement.example.com/?token=handoff-token');
    await advance();
    expect(redirect).toHaveBeenCalledWith('https://agreement.example.com/?token=handoff-token');
    expect(window.sessionStorage.getItem(PAYMENT_RECORD_KEY)).toBeNull();
    // Shown again (Back, the page cache), the page no longer uses the token the agreement site redeems.
    expect(screen.getByRole('heading', { name: 'On to your training agreement' })).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Manage your team from your account' })).toHaveAttribute('href', '/account');
    expect(screen.queryAllByRole('button')).toEqual([]);
    expect(document.body.innerHTML).not.toContain('handoff-token');
  });
});
