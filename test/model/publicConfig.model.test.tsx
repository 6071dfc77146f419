/**
 * Model-based test of the payment form's configuration (src/machines/publicConfigMachine.ts, its view
 * src/views/payment/PaymentForm.tsx): generated paths of GET /api/config answering the sandbox's configuration or
 * failing, run against the real form. Held to the spec (pageRules.ts): 'Loading payment form...' until the answer;
 * the sandbox's card form once it came; a read failed on the network or with a 5xx asked again three times before
 * the form says why (decision 0051), a 4xx at once, in the server's words.
 */
import { render, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { ApiError } from '../../src/api/client';
import { publicConfigMachine } from '../../src/machines/publicConfigMachine';
import { PaymentForm } from '../../src/views/payment/PaymentForm';
import { SANDBOX_CONFIG } from '../views/support/fakeFetch';
import { answersOf, describePageModel } from './pageModel';
import { PAYMENT_FORM } from './pageRules';

const NETWORK = new ApiError(PAYMENT_FORM.configUnreachable, 0);
const UNAVAILABLE = new ApiError('The server is restarting.', 503);
const REFUSED = new ApiError('Unknown page.', 400);

describePageModel({
  name: 'publicConfig',
  machine: publicConfigMachine,
  callsByState: { 'publicConfig.loading': 'config' },
  routes: [{ method: 'GET', path: /^\/api\/config(\?|$)/, kind: 'config' }],
  eventsAt: (snapshot: AnyMachineSnapshot): AnyEventObject[] =>
    answersOf(snapshot, 'publicConfig.loading', [SANDBOX_CONFIG], [NETWORK, UNAVAILABLE, REFUSED]),
  render() {
    render(<PaymentForm clientSecret="pi_sbx_1_secret_a" disabled={false} onReady={vi.fn()} onCardDetailsChange={vi.fn()} />);
  },
  act(event) {
    throw new Error(`The model test cannot make ${event.type} happen`);
  },
  expectShows(state, history, requests) {
    expect(
      requests.every((request) => request.method === 'GET' && request.path.startsWith('/api/config')),
      'only the configuration',
    ).toBe(true);
    const answer = history.at(-1)?.event as { output?: unknown; error?: ApiError } | undefined;
    expect(screen.queryByText(PAYMENT_FORM.loading) !== null, PAYMENT_FORM.loading).toBe(answer === undefined);
    expect(screen.queryByLabelText('Card number') !== null, "the sandbox's card form").toBe(answer?.output === SANDBOX_CONFIG);
    // The server's words, or the product's when it was not reached.
    if (answer?.error)
      expect(screen.getByRole('alert')).toHaveTextContent(
        answer.error.status === 0 ? PAYMENT_FORM.configUnreachable : answer.error.message,
      );
    else expect(screen.queryByRole('alert')).toBeNull();
  },
});
