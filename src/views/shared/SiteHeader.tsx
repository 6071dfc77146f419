import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Logo } from '../checkout/Logo';
import { colors, media } from '../theme';

/**
 * The product's header on every page but the checkout (the success page, /account, /sign-in, /sign-in/new-password,
 * /join, /partner, the console): the logo and the business name, and on the right what the page passes (a link,
 * who is signed in). The checkout's own header is CheckoutHeader; both draw the same Logo (inline SVG and text: no
 * image or font to load).
 */
export function SiteHeader({ children }: { children?: ReactNode }) {
  return (
    <Bar>
      <Inner>
        <Logo />
        {children && <Aside>{children}</Aside>}
      </Inner>
    </Bar>
  );
}

const Bar = styled.header`
  background: ${colors.surface};
  border-bottom: 1px solid ${colors.border};
`;

const Inner = styled.div`
  max-width: 1120px;
  margin: 0 auto;
  padding: 12px 24px;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;

  ${media.narrow} {
    padding: 10px 16px;
  }
`;

const Aside = styled.div`
  display: flex;
  align-items: center;
  gap: 12px;
  font-size: 0.875rem;
  color: ${colors.text};

  a {
    color: ${colors.brandDark};
    font-weight: 700;
  }
`;
