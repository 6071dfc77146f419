import styled from 'styled-components';
import { colors, radii } from '../theme';

/** A compact solid button for an action inside a notice: 'Complete my order', 'Try again'. */
export const ActionButton = styled.button`
  align-self: flex-start;
  padding: 10px 16px;
  border: none;
  border-radius: ${radii.medium};
  background: ${colors.brand};
  color: #fff;
  font-weight: 700;
  cursor: pointer;
`;
