import { useId, type InputHTMLAttributes, type Ref } from 'react';
import styled from 'styled-components';

/** Stripe's Payment Element palette, so the sandbox form looks like the real one. */
export const elementColors = {
  text: '#30313d',
  label: '#30313d',
  border: '#e6e6e6',
  focus: '#0570de',
  danger: '#df1b41',
  placeholder: '#87909f',
} as const;

interface CardInputFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

/** One labelled input of the card form, with Stripe-style error text under it. */
export function CardInputField({ label, error, ref, ...input }: CardInputFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <Field>
      <Label htmlFor={id}>{label}</Label>
      <Input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        $invalid={Boolean(error)}
        {...input}
      />
      {error && (
        <ErrorText id={errorId} role="alert">
          {error}
        </ErrorText>
      )}
    </Field>
  );
}

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
`;

const Label = styled.label`
  font-size: 0.875rem;
  color: ${elementColors.label};
`;

const Input = styled.input<{ $invalid: boolean }>`
  width: 100%;
  padding: 12px;
  font-size: 1rem;
  color: ${elementColors.text};
  background: #fff;
  border: 1px solid ${({ $invalid }) => ($invalid ? elementColors.danger : elementColors.border)};
  border-radius: 5px;
  box-shadow:
    0 1px 1px rgba(0, 0, 0, 0.03),
    0 3px 6px rgba(0, 0, 0, 0.02);
  transition:
    border-color 0.15s,
    box-shadow 0.15s;

  &::placeholder {
    color: ${elementColors.placeholder};
  }
  &:focus {
    outline: none;
    border-color: ${({ $invalid }) => ($invalid ? elementColors.danger : elementColors.focus)};
    box-shadow: 0 0 0 3px ${({ $invalid }) => ($invalid ? 'rgba(223, 27, 65, 0.25)' : 'rgba(5, 112, 222, 0.25)')};
  }
  &:disabled {
    background: #f6f8fa;
    color: ${elementColors.placeholder};
  }
`;

const ErrorText = styled.p`
  font-size: 0.875rem;
  color: ${elementColors.danger};
`;
