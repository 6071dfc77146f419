import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { AuthenticationOutcome } from '../../payments/sandboxGateway';

interface AuthenticationChallengeProps {
  onChoose: (outcome: AuthenticationOutcome) => void;
}

/**
 * The sandbox's in-page authentication challenge, modelled on Stripe's 3D Secure 2 test page: the buyer
 * completes or fails the authentication the card asked for. A modal dialog: focus starts on 'Complete
 * authentication', Tab stays inside, Escape closes it as a failed authentication (as closing Stripe's 3D Secure
 * frame does), and focus goes back where it was.
 */
export function AuthenticationChallenge({ onChoose }: AuthenticationChallengeProps) {
  const titleId = useId();
  const completeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    completeRef.current?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onChoose('failed');
      return;
    }
    if (event.key !== 'Tab') return;
    const buttons = [...(dialogRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? [])];
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <Backdrop>
      <Dialog ref={dialogRef} role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown}>
        <Title id={titleId}>3D Secure 2 Test Page</Title>
        <Text>
          This is a sandbox authentication. Your bank would normally ask you to confirm this payment here. Complete or fail the
          authentication to continue.
        </Text>
        <Actions>
          <Button type="button" ref={completeRef} $primary onClick={() => onChoose('completed')}>
            Complete authentication
          </Button>
          <Button type="button" onClick={() => onChoose('failed')}>
            Fail authentication
          </Button>
        </Actions>
      </Dialog>
    </Backdrop>
  );
}

const Backdrop = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1000;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 16px;
  background: rgba(15, 23, 42, 0.55);
`;

const Dialog = styled.div`
  width: min(440px, 100%);
  padding: 28px;
  background: #fff;
  border-radius: 12px;
  box-shadow: 0 20px 50px rgba(0, 0, 0, 0.3);
  text-align: center;
`;

const Title = styled.h2`
  font-size: 1.25rem;
  margin-bottom: 12px;
`;

const Text = styled.p`
  color: #475569;
  margin-bottom: 24px;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  justify-content: center;
`;

const Button = styled.button<{ $primary?: boolean }>`
  padding: 10px 18px;
  border-radius: 6px;
  border: 1px solid ${({ $primary }) => ($primary ? '#0570de' : '#cbd5e1')};
  background: ${({ $primary }) => ($primary ? '#0570de' : '#fff')};
  color: ${({ $primary }) => ($primary ? '#fff' : '#0f172a')};
  font-weight: 600;
  cursor: pointer;
`;
