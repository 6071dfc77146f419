/** The checkout page's content and navigation aids (spec §2), with the statechart's actors faked. */
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { bonus, faq, heroHeadline, includedItems, offerLine, securityBadges } from '../../src/content/offer';
import { render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { OfferContentContext } from '../../src/content/offerContent';
import { DEFAULT_GUARANTEE } from '../../src/domain/offerContent';
import { CheckoutPage } from '../../src/views/checkout/CheckoutPage';
import { sampleReferrer } from '../../src/domain/offerReferrer';
import { renderCheckout, SESSION, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance } from './support/timers';

let scrollIntoView: MockInstance<Element['scrollIntoView']>;

registerCheckoutTestEnvironment();

beforeEach(() => {
  scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView');
});

afterEach(() => {
  scrollIntoView.mockRestore();
});

describe('checkout page', () => {
  it('shows every section of spec §2, top to bottom', async () => {
    renderCheckout();

    const header = screen.getByRole('banner');
    expect(within(header).getByText(`For Friends of Dr. ${sampleReferrer.name} Only`)).toBeInTheDocument();
    expect(within(header).getByText('Secure Checkout')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: heroHeadline })).toBeInTheDocument();
    expect(
      screen.getByText('Complete Your Order Now To Access The Realtime System Only $500/Month With Second Seat FREE (Save $6,000/Year)'),
    ).toBeInTheDocument();
    expect(offerLine).toContain('Save $6,000/Year');
    expect(screen.getByRole('button', { name: new RegExp(sampleReferrer.quote.slice(0, 30)) })).toBeInTheDocument();

    expect(screen.getByRole('heading', { name: "What's Included" })).toBeInTheDocument();
    for (const item of includedItems) expect(screen.getByText(item.title)).toBeInTheDocument();

    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Seat #', 'Deliverable', 'Price']);
    expect(screen.getByText('Total (monthly)')).toBeInTheDocument();
    expect(screen.getByText('HI & AZ residents may see applicable GET/sales tax.')).toBeInTheDocument();

    expect(screen.getByText(bonus.title)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toBeInTheDocument();
    // Until the owner enters testimonials there are none: no invented names (docs/decisions/0030).
    expect(screen.queryByRole('heading', { name: 'What Chiropractors Are Saying' })).not.toBeInTheDocument();
    expect(screen.getByText(DEFAULT_GUARANTEE)).toBeInTheDocument();
    for (const item of faq) expect(screen.getByRole('button', { name: item.question })).toBeInTheDocument();
    for (const label of securityBadges) expect(screen.getByText(label)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Money-back guarantee' })).toBeInTheDocument();
  });

  it("shows the owner's testimonials and guarantee (spec §1)", () => {
    const content = {
      testimonials: [
        { name: 'Dr. Ana Ruiz', practice: 'Ruiz Chiropractic', quote: 'We answer fewer calls.' },
        { name: 'Dr. Ben Okafor', practice: 'Okafor Spine', quote: 'Notes done by five.' },
      ],
      guarantee: 'Thirty days or your money back.',
    };
    render(
      <Router hook={memoryLocation({ path: '/' }).hook}>
        <OfferContentContext.Provider value={content}>
          <CheckoutPage />
        </OfferContentContext.Provider>
      </Router>,
    );
    const section = screen.getByRole('region', { name: 'What Chiropractors Are Saying' });
    for (const item of content.testimonials) {
      expect(within(section).getByText(item.name)).toBeInTheDocument();
      expect(within(section).getByText(item.practice)).toBeInTheDocument();
      expect(within(section).getByText(`“${item.quote}”`)).toBeInTheDocument();
    }
    expect(screen.getByText(content.guarantee)).toBeInTheDocument();
  });

  it("shows 'Initializing secure checkout...' until the session exists, then the payment form", async () => {
    renderCheckout();
    expect(screen.getByText('Initializing secure checkout...')).toBeInTheDocument();
    expect(screen.queryByText('Complete Your Order')).not.toBeInTheDocument();

    await advance(499);
    expect(screen.getByText('Initializing secure checkout...')).toBeInTheDocument();

    await advance(1);
    expect(screen.queryByText('Initializing secure checkout...')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Complete Your Order' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Payment Information' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Card' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Card number')).toBeInTheDocument();
    expect(
      screen.getByText(
        "$500 per seat/$500 total billed monthly. Cancel anytime with one click. Offer valid exclusively through the referrer's referral.",
      ),
    ).toBeInTheDocument();
  });

  it("shows 'Loading payment form...' while the payment form is not ready", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => undefined)),
    );
    renderCheckout();
    await advance(500);
    expect(screen.getByText('Loading payment form...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'YES! I Want To Train My Team With AI' })).toBeDisabled();
  });

  it('reports a failed initialisation with a toast and in the payment panel', async () => {
    renderCheckout({ createIntent: async () => Promise.reject(new Error('Failed to create subscription intent')) });
    await advance(500);

    expect(screen.getByText('Initialization Error')).toBeInTheDocument();
    const messages = screen.getAllByText('Failed to initialize checkout. Please refresh the page and try again.');
    expect(messages).toHaveLength(2);
    expect(screen.queryByText('Initializing secure checkout...')).not.toBeInTheDocument();
  });

  it("after a failed initialisation locks the seat buttons and offers 'Try again', which opens the checkout", async () => {
    let attempts = 0;
    renderCheckout({
      createIntent: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('Failed to create subscription intent');
        return SESSION;
      },
    });
    await advance(500);
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Decrease seats' })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await advance(0);
    expect(attempts).toBe(2);
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('First Name')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Increase seats' })).toBeEnabled();
  });

  it('scrolls to the checkout form when the referrer quote is clicked', async () => {
    renderCheckout();
    fireEvent.click(screen.getByRole('button', { name: new RegExp(sampleReferrer.quote.slice(0, 30)) }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(document.getElementById('checkout-form'));
  });

  it("'Get Started' scrolls to the form at once and focuses First Name after 800 ms", async () => {
    renderCheckout();
    await advance(500);

    fireEvent.click(screen.getByRole('link', { name: 'Get Started' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    const firstName = screen.getByLabelText('First Name');
    expect(firstName).not.toHaveFocus();

    await advance(799);
    expect(firstName).not.toHaveFocus();
    await advance(1);
    expect(firstName).toHaveFocus();
  });

  it('opens one FAQ answer at a time, and closes the open one when clicked again', () => {
    renderCheckout();
    const [first, second] = faq.map((item) => screen.getByRole('button', { name: item.question }));

    fireEvent.click(first!);
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(faq[0].answer)).toBeVisible();

    fireEvent.click(second!);
    expect(first).toHaveAttribute('aria-expanded', 'false');
    expect(second).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(faq[0].answer)).not.toBeVisible();

    fireEvent.click(second!);
    expect(second).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(faq[1].answer)).not.toBeVisible();
  });
});
