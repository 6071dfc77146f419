import type { ReactNode } from 'react';
import styled from 'styled-components';
import { bonus } from '../../content/offer';
import { colors, media, radii } from '../theme';
import { CheckoutActor } from './checkoutActor';

/** The sign-up bonus, with its 'Get Started' link (`getStarted`: the island GetStartedLink). */
export function BonusBlock({ getStarted }: { getStarted: ReactNode }) {
  return (
    <Block aria-labelledby="bonus-title">
      <Gift />
      <Text>
        <Title id="bonus-title">{bonus.title}</Title>
        <Detail>{bonus.detail}</Detail>
      </Text>
      {getStarted}
    </Block>
  );
}

/** 'Get Started': a link to the checkout form (first name focused after 800 ms). */
export function GetStartedLink() {
  const actorRef = CheckoutActor.useActorRef();
  return (
    <GetStarted
      href="#checkout-form"
      onClick={(event) => {
        event.preventDefault();
        actorRef.send({ type: 'GET_STARTED_CLICKED' });
      }}
    >
      {bonus.cta}
    </GetStarted>
  );
}

function Gift() {
  return (
    <svg width="56" height="56" viewBox="0 0 56 56" aria-hidden="true" focusable="false" style={{ flex: 'none' }}>
      <circle cx="28" cy="28" r="28" fill="#fff" opacity="0.15" />
      <rect x="14" y="24" width="28" height="18" rx="2" fill="#fff" />
      <rect x="12" y="18" width="32" height="8" rx="2" fill="#fde68a" />
      <rect x="26" y="18" width="4" height="24" fill={colors.accent} />
      <path d="M28 18c-3-6-10-6-9-1 1 3 9 1 9 1zm0 0c3-6 10-6 9-1-1 3-9 1-9 1z" fill="#fde68a" />
    </svg>
  );
}

const Block = styled.section`
  max-width: 1152px;
  width: calc(100% - 48px);
  margin: 40px auto 0;
  padding: 28px 32px;
  display: flex;
  align-items: center;
  gap: 24px;
  border-radius: ${radii.large};
  background: linear-gradient(120deg, ${colors.brandDark}, ${colors.brand});
  color: #fff;

  ${media.narrow} {
    width: calc(100% - 32px);
    margin-top: 32px;
    padding: 24px 20px;
    flex-direction: column;
    text-align: center;
  }
`;

const Text = styled.div`
  flex: 1;
  display: flex;
  flex-direction: column;
  gap: 6px;
`;

const Title = styled.h2`
  color: #fff;
  font-size: 1.375rem;
`;

const Detail = styled.p`
  color: #dbeafe;
`;

const GetStarted = styled.a`
  flex: none;
  padding: 14px 28px;
  border-radius: ${radii.medium};
  background: ${colors.accent};
  color: ${colors.ink};
  font-weight: 800;
  text-decoration: none;

  &:hover {
    background: #fbbf24;
  }
`;
