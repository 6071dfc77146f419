/** The checkout's input for a page load (src/views/checkout/checkoutActor.ts): what is left of the 500 ms init delay. */
import { describe, expect, it, vi } from 'vitest';
import { checkoutInput } from '../../src/views/checkout/checkoutActor';

const LOCATION = { href: 'https://checkout.example.com/?ref=x', origin: 'https://checkout.example.com' };

describe('checkoutInput', () => {
  it('passes the rest of the 500 ms counted from navigation start, never less than 0', () => {
    const now = vi.spyOn(performance, 'now').mockReturnValue(380);
    try {
      expect(checkoutInput('dr-sample', LOCATION).initDelayMs).toBe(120);
      now.mockReturnValue(900);
      expect(checkoutInput('dr-sample', LOCATION).initDelayMs).toBe(0);
    } finally {
      now.mockRestore();
    }
  });

  it('sends the page address as affiliate_source and returns to /payment-success', () => {
    const input = checkoutInput('dr-sample', LOCATION);
    expect(input.affiliateSource).toBe(LOCATION.href);
    expect(input.returnUrl).toBe('https://checkout.example.com/payment-success');
  });
});
