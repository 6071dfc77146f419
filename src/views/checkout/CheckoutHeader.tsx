import styled from 'styled-components';
import { useOfferReferrer } from '../../content/offerReferrer';
import { colors, media } from '../theme';
import { Logo } from './Logo';

/** The sticky header: logo, the referral badge (centred when wide, below when narrow) and 'Secure Checkout'. */
export function CheckoutHeader() {
  const referrer = useOfferReferrer();
  return (
    <Bar>
      <Inner>
        <LogoArea>
          <Logo />
        </LogoArea>
        <Badge>{`For Friends of Dr. ${referrer.name} Only`}</Badge>
        <Secure>
          <LockIcon />
          Secure Checkout
        </Secure>
      </Inner>
    </Bar>
  );
}

function LockIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor" />
      <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}

const Bar = styled.header`
  position: sticky;
  top: 0;
  z-index: 50;
  background: rgba(255, 255, 255, 0.96);
  backdrop-filter: blur(6px);
  border-bottom: 1px solid ${colors.border};
`;

const Inner = styled.div`
  max-width: 1200px;
  margin: 0 auto;
  padding: 12px 24px;
  display: grid;
  grid-template-columns: 1fr auto 1fr;
  grid-template-areas: 'logo badge secure';
  align-items: center;
  gap: 12px;

  ${media.narrow} {
    padding: 10px 16px;
    gap: 8px;
    grid-template-columns: minmax(0, 1fr) auto;
    grid-template-areas:
      'logo secure'
      'badge badge';
  }
`;

const LogoArea = styled.div`
  grid-area: logo;
  min-width: 0;
`;

const Badge = styled.p`
  grid-area: badge;
  justify-self: center;
  padding: 6px 14px;
  border-radius: 999px;
  background: ${colors.warningSoft};
  border: 1px solid #fed7aa;
  color: #9a3412;
  font-size: 0.875rem;
  font-weight: 700;
  text-align: center;
`;

const Secure = styled.p`
  grid-area: secure;
  justify-self: end;
  display: inline-flex;
  align-items: center;
  gap: 6px;
  color: ${colors.success};
  font-size: 0.875rem;
  font-weight: 600;
  white-space: nowrap;

  ${media.narrow} {
    font-size: 0.8125rem;
  }
`;
