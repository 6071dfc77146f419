/**
 * Spec §4: initialisation runs once, about 500 ms after the page opens, also under React StrictMode (which
 * mounts, unmounts and mounts again in development).
 */
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { CheckoutPage } from '../../src/views/checkout/CheckoutPage';
import { SESSION, testCheckoutMachine, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance } from './support/timers';

registerCheckoutTestEnvironment();

describe('initialisation under React StrictMode', () => {
  it('creates the subscription intent exactly once, after 500 ms', async () => {
    const createIntent = vi.fn(async () => SESSION);
    const location = memoryLocation({ path: '/' });
    render(
      <StrictMode>
        <Router hook={location.hook}>
          <CheckoutPage machine={testCheckoutMachine({ createIntent })} />
        </Router>
      </StrictMode>,
    );
    await advance(499);
    expect(createIntent).not.toHaveBeenCalled();
    expect(screen.getByText('Initializing secure checkout...')).toBeInTheDocument();
    await advance(1);
    await advance(10_000);
    expect(createIntent).toHaveBeenCalledTimes(1);
    expect(createIntent).toHaveBeenCalledWith({ affiliateId: 'dr-sample', affiliateSource: window.location.href });
    expect(screen.getByLabelText('First Name')).toBeInTheDocument();
  });
});
