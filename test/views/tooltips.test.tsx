/**
 * The hints (spec §9 "Tooltip delay 700 ms, skip delay 300 ms"; WAI-ARIA tooltip pattern) on the checkout's seat
 * buttons and security badges, under vitest's fake clock: hover or focus, the delay, the skip delay, Escape.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { UpdateIntentResponse } from '../../src/contract/checkout';
import { securityBadgeHints } from '../../src/content/offer';
import { tooltipMachine } from '../../src/machines/tooltipMachine';
import { SecurityBadges } from '../../src/views/checkout/CheckoutFooter';
import { CopyField } from '../../src/views/shared/CopyField';
import { TooltipGroupContext } from '../../src/views/shared/Tooltip';
import { renderCheckout, registerCheckoutTestEnvironment } from './support/checkoutHarness';
import { advance, deferred } from './support/timers';

registerCheckoutTestEnvironment();

/** Spec §9, written here from the spec. */
const DELAY_MS = 700;
const SKIP_DELAY_MS = 300;

const visibleHint = () => screen.queryByRole('tooltip');

/** Renders the badges with a tooltip group of their own (the page's would carry state between tests). */
function renderBadges() {
  const group = createActor(tooltipMachine).start();
  render(
    <TooltipGroupContext.Provider value={group}>
      <SecurityBadges />
    </TooltipGroupContext.Provider>,
  );
  return screen.getAllByRole('listitem').map((item) => item.firstElementChild!.firstElementChild as HTMLElement);
}

describe('hints', () => {
  it('describe each security badge, shown 700 ms after the pointer rests on it and gone when it leaves', async () => {
    const [ssl] = renderBadges();
    expect(ssl).toHaveAccessibleDescription(securityBadgeHints['256-bit SSL Encryption']);
    expect(visibleHint()).toBeNull();

    fireEvent.pointerEnter(ssl!.parentElement!);
    await advance(DELAY_MS - 1);
    expect(visibleHint()).toBeNull();
    await advance(1);
    expect(visibleHint()).toHaveTextContent(securityBadgeHints['256-bit SSL Encryption']);

    fireEvent.pointerLeave(ssl!.parentElement!);
    expect(visibleHint()).toBeNull();
  });

  it('open at once within 300 ms of one closing, and wait again after', async () => {
    const [ssl, payment, pci] = renderBadges();
    fireEvent.pointerEnter(ssl!.parentElement!);
    await advance(DELAY_MS);
    fireEvent.pointerLeave(ssl!.parentElement!);
    await advance(SKIP_DELAY_MS - 1);
    fireEvent.pointerEnter(payment!.parentElement!);
    expect(visibleHint()).toHaveTextContent(securityBadgeHints['Secure Payment']);

    fireEvent.pointerLeave(payment!.parentElement!);
    await advance(SKIP_DELAY_MS);
    fireEvent.pointerEnter(pci!.parentElement!);
    await advance(DELAY_MS - 1);
    expect(visibleHint()).toBeNull();
    await advance(1);
    expect(visibleHint()).toHaveTextContent(securityBadgeHints['PCI Compliant']);
  });

  it('open on keyboard focus and close on Escape', async () => {
    const [ssl] = renderBadges();
    act(() => ssl!.focus());
    await advance(DELAY_MS);
    expect(visibleHint()).toHaveAttribute('id', ssl!.getAttribute('aria-describedby'));

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(visibleHint()).toBeNull();
    // Still focused: the hint stays away until the badge is left and entered again.
    await advance(DELAY_MS);
    expect(visibleHint()).toBeNull();
  });

  it('ignore a touch', async () => {
    const [ssl] = renderBadges();
    fireEvent.pointerEnter(ssl!.parentElement!, { pointerType: 'touch' });
    await advance(DELAY_MS);
    expect(visibleHint()).toBeNull();
  });

  it('say what a copy button copies', () => {
    render(<CopyField label="Password" value="S3cret" copyLabel="Copy password" onCopy={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Copy password' })).toHaveAccessibleDescription('Copies your password to the clipboard');
  });

  it('say why the seat buttons are off, and what a seat costs', async () => {
    const update = deferred<UpdateIntentResponse>();
    renderCheckout({ updateIntent: () => update.promise });
    await advance(500);
    const minus = screen.getByRole('button', { name: 'Decrease seats' });
    const plus = screen.getByRole('button', { name: 'Increase seats' });
    expect(minus).toHaveAccessibleDescription('Your team has at least 1 seat');
    expect(plus).toHaveAccessibleDescription('Add a seat: your second seat is free');

    // The − button is off at 1 seat; its hint still shows on hover.
    fireEvent.pointerEnter(minus.parentElement!);
    await advance(DELAY_MS);
    expect(visibleHint()).toHaveTextContent('Your team has at least 1 seat');
    fireEvent.pointerLeave(minus.parentElement!);

    fireEvent.click(plus);
    expect(minus).toHaveAccessibleDescription('Remove a seat');
    expect(plus).toHaveAccessibleDescription('Add a seat: $500/month');
    await advance(2000);
    expect(plus).toHaveAccessibleDescription('Wait until your team size is updated');
  });
});
