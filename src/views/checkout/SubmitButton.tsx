import styled from 'styled-components';
import { colors, radii } from '../theme';

/** The checkout's pay button: 'YES! I Want To Train My Team With AI', and the confirmation of a total with tax. */
export const SubmitButton = styled.button`
  margin-top: 8px;
  padding: 16px 20px;
  border: none;
  border-radius: ${radii.medium};
  background: ${colors.cta};
  color: #fff;
  font-size: 1.0625rem;
  font-weight: 800;
  cursor: pointer;
  box-shadow: 0 6px 16px rgba(22, 163, 74, 0.3);
  transition: background 0.15s;

  &:hover:not(:disabled) {
    background: ${colors.ctaDark};
  }
  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
    box-shadow: none;
  }
`;
