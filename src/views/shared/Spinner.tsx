import styled, { keyframes } from 'styled-components';
import { colors } from '../theme';

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

/** A small decorative spinner; the text beside it carries the meaning. */
export const Spinner = styled.span.attrs({ 'aria-hidden': true })<{ $size?: number }>`
  display: inline-block;
  flex: none;
  width: ${({ $size = 20 }) => $size}px;
  height: ${({ $size = 20 }) => $size}px;
  border: 2px solid ${colors.border};
  border-top-color: ${colors.brand};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

/** A spinner with a status line, announced politely to screen readers. */
export function LoadingStatus({ children, size }: { children: string; size?: number }) {
  return (
    <Status role="status">
      <Spinner $size={size} />
      <span>{children}</span>
    </Status>
  );
}

const Status = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 12px;
  padding: 32px 16px;
  color: ${colors.muted};
`;
