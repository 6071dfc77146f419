import styled from 'styled-components';
import { brand } from '../../domain/product';
import { colors, media } from '../theme';

/** The brand's text logo with a small spine-and-spark mark. */
export function Logo() {
  return (
    <Wrapper>
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill={colors.brand} />
        <path d="M16 6v20" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
        <g fill="#fff">
          <rect x="12" y="8" width="8" height="3" rx="1.5" />
          <rect x="11" y="14.5" width="10" height="3" rx="1.5" />
          <rect x="12" y="21" width="8" height="3" rx="1.5" />
        </g>
        <circle cx="25" cy="7" r="2.5" fill={colors.accent} />
      </svg>
      <Name>{brand.name}</Name>
    </Wrapper>
  );
}

const Wrapper = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 10px;

  ${media.narrow} {
    gap: 8px;
    svg {
      width: 28px;
      height: 28px;
    }
  }
`;

const Name = styled.span`
  font-size: 1.125rem;
  font-weight: 800;
  letter-spacing: -0.01em;
  color: ${colors.ink};
  white-space: nowrap;

  ${media.narrow} {
    font-size: 1rem;
  }
`;
