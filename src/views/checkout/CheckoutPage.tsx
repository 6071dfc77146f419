import { useRef, useState } from 'react';
import styled from 'styled-components';
import type { ActorOptions } from 'xstate';
import { checkoutMachine } from '../../machines/checkoutMachine';
import { useOfferReferrer } from '../../content/offerReferrer';
import { HydratedLater } from '../shared/HydratedLater';
import { usePageTitle } from '../shared/usePageTitle';
import { colors, media } from '../theme';
import { BonusBlock } from './BonusBlock';
import { CheckoutActor, checkoutInput, type CheckoutLogic } from './checkoutActor';
import { CheckoutFooter } from './CheckoutFooter';
import { CheckoutHeader } from './CheckoutHeader';
import { Faq } from './Faq';
import { GuaranteeSeal } from './GuaranteeSeal';
import { Hero } from './Hero';
import { IncludedGrid } from './IncludedGrid';
import { OrderSummary } from './OrderSummary';
import { PaymentPanel } from './PaymentPanel';
import { SeatSelector } from './SeatSelector';
import { Testimonials } from './Testimonials';
import { useCheckoutEvents } from './useCheckoutEvents';
import { useLeaveWarning } from './useLeaveWarning';

export interface CheckoutPageProps {
  /** The checkout statechart; tests pass one with its server actors replaced. */
  machine?: CheckoutLogic;
  /** XState inspection observer (the Stately inspector, or a test that needs the page's actor). */
  inspect?: ActorOptions<CheckoutLogic>['inspect'];
}

/**
 * The checkout landing page (/): one checkout actor for the page's lifetime, rendered top to bottom per spec §2.
 * The parts the buyer reads but does not operate are hydrated after the seat selector, the summary and the
 * payment form (HydratedLater), so taking over the prerendered page is not one long task.
 */
export function CheckoutPage({ machine = checkoutMachine, inspect }: CheckoutPageProps) {
  const referrer = useOfferReferrer();
  const [input] = useState(() => checkoutInput(referrer.shortLabel));
  usePageTitle(`For Friends of Dr. ${referrer.name} Only`);
  return (
    <CheckoutActor.Provider logic={machine} options={{ input, inspect }}>
      <CheckoutLayout />
    </CheckoutActor.Provider>
  );
}

function CheckoutLayout() {
  const checkoutFormRef = useRef<HTMLElement>(null);
  const firstNameRef = useRef<HTMLInputElement>(null);
  useCheckoutEvents({ checkoutForm: checkoutFormRef, firstName: firstNameRef });
  useLeaveWarning();

  return (
    <>
      <HydratedLater>
        <CheckoutHeader />
      </HydratedLater>
      <main>
        <HydratedLater>
          <Hero />
        </HydratedLater>
        <Grid>
          <Left>
            <PhoneSlot $order={1}>
              <SeatSelector />
            </PhoneSlot>
            <PhoneSlot $order={4}>
              <HydratedLater>
                <IncludedGrid />
              </HydratedLater>
            </PhoneSlot>
            <PhoneSlot $order={2}>
              <OrderSummary />
            </PhoneSlot>
          </Left>
          <Right>
            <PhoneSlot $order={3}>
              <PaymentPanel anchorRef={checkoutFormRef} firstNameRef={firstNameRef} />
            </PhoneSlot>
            <Guarantee $order={5}>
              <HydratedLater>
                <GuaranteeSeal size={96} />
              </HydratedLater>
            </Guarantee>
          </Right>
        </Grid>
        <HydratedLater>
          <BonusBlock />
          <Testimonials />
          <Faq />
        </HydratedLater>
      </main>
      <HydratedLater>
        <CheckoutFooter />
      </HydratedLater>
    </>
  );
}

const Grid = styled.div`
  max-width: 1200px;
  margin: 0 auto;
  padding: 0 24px;
  display: grid;
  grid-template-columns: repeat(5, minmax(0, 1fr));
  gap: 24px;
  align-items: start;

  ${media.narrow} {
    grid-template-columns: minmax(0, 1fr);
    padding: 0 16px;
  }
`;

/*
 * Wide screens: the spec's two columns (seat selector, What's Included, order summary | payment form). Phones: one
 * column, the columns' boxes in buying order (seat selector, order summary, payment form, What's Included), so
 * the form is within reach; What's Included has nothing to focus, so the keyboard order stays the visual one.
 */
const Left = styled.div`
  grid-column: span 3;
  display: flex;
  flex-direction: column;
  gap: 24px;

  ${media.narrow} {
    display: contents;
  }
`;

const Right = styled.div`
  grid-column: span 2;
  display: flex;
  flex-direction: column;
  gap: 16px;

  ${media.narrow} {
    display: contents;
  }
`;

/** One box of a column; on phones it takes its place `$order` in the single column. */
const PhoneSlot = styled.div<{ $order: number }>`
  min-width: 0;

  ${media.narrow} {
    order: ${({ $order }) => $order};
  }
`;

const Guarantee = styled(PhoneSlot)`
  display: flex;
  justify-content: center;
  color: ${colors.muted};
`;
