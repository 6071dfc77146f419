// First: the islands' styled components are numbered before any other's (see checkoutIslands.tsx).
import { Island } from './checkoutIslands';
import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import styled from 'styled-components';
import type { ActorOptions } from 'xstate';
import { checkoutMachine } from '../../machines/checkoutMachine';
import { useOfferContent } from '../../content/offerContent';
import { useOfferReferrer } from '../../content/offerReferrer';
import { colors, media } from '../theme';
import { BonusBlock } from './BonusBlock';
import { CheckoutActor, checkoutInput, type CheckoutLogic } from './checkoutActor';
import { CheckoutFooter } from './CheckoutFooter';
import { CheckoutHeader } from './CheckoutHeader';
import { GuaranteeSeal } from './GuaranteeSeal';
import { Hero } from './Hero';
import { IncludedGrid } from './IncludedGrid';
import { Testimonials } from './Testimonials';

export interface CheckoutPageProps {
  /** The checkout statechart; tests pass one with its server actors replaced. */
  machine?: CheckoutLogic;
  /** XState inspection observer (the Stately inspector, or a test that needs the page's actor). */
  inspect?: ActorOptions<CheckoutLogic>['inspect'];
}

/**
 * The checkout landing page (/) as one React tree: one checkout actor for the page's lifetime, the page top to
 * bottom per spec §2. Used by the tests and whenever the page is drawn in the browser (a payment to resume, a
 * recent purchase, a move from another route); the prerendered page is instead hydrated island by island
 * (src/mountIslands.tsx), the same components in the same places.
 */
export function CheckoutPage({ machine = checkoutMachine, inspect }: CheckoutPageProps) {
  const referrer = useOfferReferrer();
  const [input] = useState(() => checkoutInput(referrer.shortLabel));
  const actor = useActorRef(machine, { input, inspect });
  return (
    <CheckoutActor.Provider actor={actor}>
      <CheckoutLayout />
    </CheckoutActor.Provider>
  );
}

/** The page around its islands: what the buyer only reads is plain HTML once prerendered. */
function CheckoutLayout() {
  const { guarantee } = useOfferContent();
  return (
    <>
      <CheckoutHeader />
      <main>
        <Hero quote={<Island name="heroQuote" />} />
        <Grid>
          <Left>
            <PhoneSlot $order={1}>
              <Island name="seatSelector" />
            </PhoneSlot>
            <PhoneSlot $order={4}>
              <IncludedGrid />
            </PhoneSlot>
            <PhoneSlot $order={2}>
              <Island name="orderSummary" />
            </PhoneSlot>
          </Left>
          <Right>
            <PhoneSlot $order={3}>
              <Island name="paymentPanel" />
            </PhoneSlot>
            <Guarantee $order={5}>
              <GuaranteeSeal size={96} />
              <GuaranteeText>{guarantee}</GuaranteeText>
            </Guarantee>
          </Right>
        </Grid>
        <BonusBlock getStarted={<Island name="getStarted" />} />
        <Testimonials />
        <Island name="faq" />
      </main>
      <CheckoutFooter badges={<Island name="securityBadges" />} />
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
  flex-direction: column;
  align-items: center;
  gap: 8px;
  color: ${colors.muted};
`;

/** The guarantee's text the owner writes in the console (docs/decisions/0030). */
const GuaranteeText = styled.p`
  max-width: 36ch;
  text-align: center;
  font-size: 0.875rem;
`;
