import type { ReactNode } from 'react';
import styled from 'styled-components';
import { heroHeadline, offerLine } from '../../content/offer';
import { useOfferReferrer } from '../../content/offerReferrer';
import { colors, media, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';

/** The hero: headline, the offer line and the referrer's quote (`quote`: the island HeroQuote). */
export function Hero({ quote }: { quote: ReactNode }) {
  return (
    <Section>
      <Headline>{heroHeadline}</Headline>
      <OfferLine>{offerLine}</OfferLine>
      {quote}
    </Section>
  );
}

/** The referrer's quote, a button that takes the buyer to the checkout form. */
export function HeroQuote() {
  const actorRef = CheckoutActor.useActorRef();
  const referrer = useOfferReferrer();
  return (
    <QuoteButton type="button" onClick={() => actorRef.send({ type: 'QUOTE_CLICKED' })}>
      <QuoteText>{`“${referrer.quote}”`}</QuoteText>
      <Attribution>{`— Dr. ${referrer.name}`}</Attribution>
    </QuoteButton>
  );
}

const Section = styled.section`
  max-width: 900px;
  margin: 0 auto;
  padding: 48px 24px 32px;
  text-align: center;
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 20px;

  ${media.narrow} {
    padding: 32px 16px 24px;
  }
`;

const Headline = styled.h1`
  font-size: clamp(1.75rem, 4vw, 2.75rem);
  font-weight: 800;
  letter-spacing: -0.02em;
`;

const OfferLine = styled.p`
  font-size: clamp(1rem, 2vw, 1.25rem);
  font-weight: 600;
  color: ${colors.brandDark};
`;

const QuoteButton = styled.button`
  display: flex;
  flex-direction: column;
  gap: 8px;
  max-width: 720px;
  padding: 20px 24px;
  border: 1px solid #bfdbfe;
  border-left: 4px solid ${colors.brand};
  border-radius: ${radii.medium};
  background: ${colors.brandSoft};
  color: ${colors.text};
  text-align: left;
  cursor: pointer;
  transition:
    transform 0.15s,
    box-shadow 0.15s;

  &:hover {
    transform: translateY(-1px);
    box-shadow: 0 6px 18px rgba(29, 78, 216, 0.15);
  }
`;

const QuoteText = styled.span`
  font-size: 1.0625rem;
  font-style: italic;
`;

const Attribution = styled.span`
  font-weight: 700;
  color: ${colors.brandDark};
`;
