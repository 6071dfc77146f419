/**
 * The parts of the prerendered `/` the buyer operates (docs/decisions/0027-islands.md): each is a React root of
 * its own in the browser (src/mountIslands.tsx), hydrated over the server's HTML, and all share the page's one
 * checkout actor; everything around them stays the server's HTML, never hydrated. The whole page as one tree
 * (src/views/checkout/CheckoutPage.tsx: tests, and a page drawn in the browser) renders the same components in
 * the same places through `Island`.
 *
 * Imported before any other module that defines a styled component (CheckoutPage.tsx imports it first), so that
 * styled-components numbers these components alike in the renderer and in the browser, which evaluates only
 * this part of the page: their class names then match the server's.
 */
import { LazyToaster } from '../toasts/lazyToasts';
import { GetStartedLink } from './BonusBlock';
import { SecurityBadges } from './CheckoutFooter';
import { Faq } from './Faq';
import { HeroQuote } from './Hero';
import { OrderSummary } from './OrderSummary';
import { PaymentPanel } from './PaymentPanel';
import { SeatSelector } from './SeatSelector';

/** Each island's component, by the name its element carries (`data-island`). */
export const CHECKOUT_ISLANDS = {
  heroQuote: HeroQuote,
  seatSelector: SeatSelector,
  orderSummary: OrderSummary,
  paymentPanel: PaymentPanel,
  getStarted: GetStartedLink,
  faq: Faq,
  securityBadges: SecurityBadges,
  toasts: LazyToaster,
} as const;

export type IslandName = keyof typeof CHECKOUT_ISLANDS;

/** The attribute that marks an island's element in the page. */
export const ISLAND_ATTRIBUTE = 'data-island';

/** Where `display: contents` leaves the layout as if the island's element were not there. */
const LAYOUT_NEUTRAL = { display: 'contents' } as const;

/**
 * The island `name`: its component inside an element of its own, which the browser hydrates as a root. The
 * element takes no part in the layout (`display: contents`), so the page looks the same with it.
 */
export function Island({ name }: { name: IslandName }) {
  const Component = CHECKOUT_ISLANDS[name];
  return (
    <div {...{ [ISLAND_ATTRIBUTE]: name }} style={LAYOUT_NEUTRAL}>
      <Component />
    </div>
  );
}
