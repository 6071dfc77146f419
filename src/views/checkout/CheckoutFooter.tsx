import type { ReactNode } from 'react';
import styled from 'styled-components';
import { securityBadgeHints, securityBadges } from '../../content/offer';
import { Tooltip } from '../shared/Tooltip';
import { colors, media } from '../theme';

/** The footer around `badges`: the security badges' island on `/` (decision 0027). */
export function CheckoutFooter({ badges }: { badges: ReactNode }) {
  return <Footer>{badges}</Footer>;
}

/** The security badge labels, each with its meaning as a hint on hover and keyboard focus. */
export function SecurityBadges() {
  return (
    <Badges aria-label="Security">
      {securityBadges.map((label, index) => (
        <li key={label}>
          <Tooltip id={`security-badge-hint-${index + 1}`} text={securityBadgeHints[label]}>
            {(describedBy) => (
              // Focusable, so a keyboard reaches the hint as a pointer does (WAI-ARIA tooltip pattern).
              <Badge tabIndex={0} aria-describedby={describedBy}>
                <Shield />
                {label}
              </Badge>
            )}
          </Tooltip>
        </li>
      ))}
    </Badges>
  );
}

function Shield() {
  return (
    <svg width="18" height="18" viewBox="0 0 18 18" aria-hidden="true" focusable="false">
      <path d="M9 1l7 3v5c0 4-3 7-7 8-4-1-7-4-7-8V4z" fill={colors.success} />
      <path d="M5.5 9l2.3 2.3L12.5 6.5" fill="none" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}

const Footer = styled.footer`
  margin-top: 56px;
  padding: 28px 24px;
  background: ${colors.ink};

  ${media.narrow} {
    margin-top: 40px;
  }
`;

const Badges = styled.ul`
  list-style: none;
  margin: 0 auto;
  padding: 0;
  max-width: 1200px;
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 16px 32px;
`;

const Badge = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 8px;
  color: #e2e8f0;
  font-size: 0.875rem;
  font-weight: 600;
  cursor: help;

  &:focus-visible {
    outline: 2px solid #fff;
    outline-offset: 4px;
    border-radius: 2px;
  }
`;
