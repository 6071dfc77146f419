import toast from 'react-hot-toast';
import styled from 'styled-components';
import type { ToastMessage } from '../../machines/toasts';

const Title = styled.strong`
  display: block;
  font-weight: 700;
`;

const Description = styled.span`
  display: block;
  font-size: 0.875rem;
`;

/** Shows a toast the machines emitted: title and description; the destructive variant as an error toast, announced at once. */
export function showToast(message: ToastMessage): string {
  const body = (
    <span>
      <Title>{message.title}</Title>
      <Description>{message.description}</Description>
    </span>
  );
  return message.variant === 'destructive'
    ? toast.error(body, { ariaProps: { role: 'alert', 'aria-live': 'assertive' } })
    : toast.success(body);
}
