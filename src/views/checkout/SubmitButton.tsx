import styled from 'styled-components';
import { CallToActionButton } from '../shared/CallToActionButton';

/**
 * The checkout's pay button: 'YES! I Want To Train My Team With AI', and the confirmation of a total with tax. Off
 * until the form can be sent, so it says it cannot be clicked rather than that it is busy.
 */
export const SubmitButton = styled(CallToActionButton)`
  margin-top: 8px;
  box-shadow: 0 6px 16px rgba(22, 163, 74, 0.3);
  transition: background 0.15s;

  &:disabled {
    opacity: 0.55;
    cursor: not-allowed;
    box-shadow: none;
  }
`;
