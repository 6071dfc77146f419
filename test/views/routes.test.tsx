/** The app's routes (spec §2): /index redirects home, unknown paths show the 404 page and log the path. */
import { act, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/App';
import { sampleReferrer } from '../../src/domain/offerReferrer';
import { brand } from '../../src/domain/product';
import { loadNotFoundPage, loadPaymentSuccessPage } from '../../src/pageChunks';
import { testCheckoutMachine } from './support/checkoutHarness';
import { advance } from './support/timers';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: false });
});

afterEach(() => {
  vi.useRealTimers();
});

function renderApp(path: string) {
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <App checkout={{ machine: testCheckoutMachine() }} />
    </Router>,
  );
  return location;
}

describe('routes', () => {
  // The pages after the checkout carry its brand (the logo and the business name) in one banner, drawn by the
  // route before the page's chunk arrives: nothing on them could pass for another site.
  it.each(['/join', '/sign-in', '/sign-in/new-password', '/partner', '/admin', '/admin/orders'])(
    '%s carries the brand in its one header',
    (path) => {
      renderApp(path);
      const banners = screen.getAllByRole('banner');
      expect(banners).toHaveLength(1);
      expect(banners[0]).toHaveTextContent(brand.name);
      expect(screen.queryByText('Secure Checkout')).not.toBeInTheDocument();
    },
  );

  it("/index shows 'Redirecting to Home' and 'Please wait...', and replaces itself with /", () => {
    const navigate = vi.fn();
    render(
      <Router hook={() => ['/index', navigate]}>
        <App />
      </Router>,
    );
    expect(screen.getByRole('heading', { name: 'Redirecting to Home' })).toBeInTheDocument();
    expect(screen.getByText('Please wait...')).toBeInTheDocument();
    expect(navigate).toHaveBeenCalledWith('/', { replace: true });
  });

  it('/index lands on the checkout page', () => {
    const location = renderApp('/index');
    expect(location.history).toEqual(['/']);
    expect(screen.getByText('Secure Checkout')).toBeInTheDocument();
    expect(screen.queryByText('Redirecting to Home')).not.toBeInTheDocument();
  });

  it('/ is the checkout page', () => {
    renderApp('/');
    expect(screen.getByText('Initializing secure checkout...')).toBeInTheDocument();
    expect(document.title).toBe(`For Friends of Dr. ${sampleReferrer.name} Only – AI Training for Chiropractors`);
  });

  it('/payment-success has its own title', async () => {
    renderApp('/payment-success');
    await act(() => loadPaymentSuccessPage());
    await advance(0);
    expect(document.title).toBe('Payment Successful – AI Training for Chiropractors');
  });

  it('shows the 404 page for an unknown path and logs the path', async () => {
    const consoleError = vi.mocked(console.error);
    const logged: unknown[][] = [];
    consoleError.mockImplementation((...args: unknown[]) => {
      logged.push(args);
    });
    renderApp('/no-such-page');
    await act(() => loadNotFoundPage());
    await advance(0);

    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('Oops! Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    expect(logged).toContainEqual(['404 Error: User attempted to access non-existent route:', '/no-such-page']);
    expect(document.title).toBe('Page not found – AI Training for Chiropractors');
  });

  it('after a route change, the new page’s heading has the focus (a screen reader announces it)', async () => {
    const consoleError = vi.mocked(console.error);
    consoleError.mockImplementation(() => undefined);
    renderApp('/no-such-page');
    await act(() => loadNotFoundPage());
    await advance(0);
    // The first page load leaves the focus where the browser puts it.
    expect(document.activeElement).toBe(document.body);
    act(() => screen.getByRole('link', { name: 'Return to Home' }).click());
    await advance(0);
    const heading = screen.getAllByRole('heading', { level: 1 })[0]!;
    expect(heading).toHaveFocus();
    expect(heading).toHaveAttribute('tabindex', '-1');
  });
});
