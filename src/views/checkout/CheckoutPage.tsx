import { useRef, useState } from 'react';
import styled from 'styled-components';
import type { ActorOptions } from 'xstate';
import { checkoutMachine } from '../../machines/checkoutMachine';
import { referrer } from '../../content/offer';
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

/** The checkout landing page (/): one checkout actor for the page's lifetime, rendered top to bottom per spec §2. */
export function CheckoutPage({ machine = checkoutMachine, inspect }: CheckoutPageProps) {
  const [input] = useState(() => checkoutInput());
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
      <CheckoutHeader />
      <main>
        <Hero />
        <Grid>
          <Left>
            <SeatSelector />
            <IncludedGrid />
            <OrderSummary />
          </Left>
          <Right>
            <PaymentPanel anchorRef={checkoutFormRef} firstNameRef={firstNameRef} />
            <Guarantee>
              <GuaranteeSeal size={96} />
            </Guarantee>
          </Right>
        </Grid>
        <BonusBlock />
        <Testimonials />
        <Faq />
      </main>
      <CheckoutFooter />
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

const Left = styled.div`
  grid-column: span 3;
  display: flex;
  flex-direction: column;
  gap: 24px;

  ${media.narrow} {
    grid-column: auto;
  }
`;

const Right = styled.div`
  grid-column: span 2;
  display: flex;
  flex-direction: column;
  gap: 16px;

  ${media.narrow} {
    grid-column: auto;
  }
`;

const Guarantee = styled.div`
  display: flex;
  justify-content: center;
  color: ${colors.muted};
`;
