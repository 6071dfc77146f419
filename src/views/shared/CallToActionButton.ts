import styled from 'styled-components';
import { colors, radii } from '../theme';

/**
 * A page's one call to action, solid green and large: the checkout's 'YES! I Want To Train My Team With AI' and the
 * success page's 'Sign Training Agreement →'. Each page adds what differs: where it sits and how it looks while off.
 */
export const CallToActionButton = styled.button`
  padding: 16px 20px;
  border: none;
  border-radius: ${radii.medium};
  background: ${colors.cta};
  color: #fff;
  font-size: 1.0625rem;
  font-weight: 800;
  cursor: pointer;

  &:hover:not(:disabled) {
    background: ${colors.ctaDark};
  }
`;
