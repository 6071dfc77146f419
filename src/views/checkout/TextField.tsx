import { useId, type InputHTMLAttributes, type Ref } from 'react';
import styled from 'styled-components';
import { colors, radii } from '../theme';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The spec §5 message shown in red under the field. */
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input of the checkout form with its error message under it. */
export function TextField({ label, error, ref, ...input }: TextFieldProps) {
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
  font-weight: 600;
  color: ${colors.ink};
`;

const Input = styled.input<{ $invalid: boolean }>`
  width: 100%;
  padding: 11px 12px;
  border: 1px solid ${({ $invalid }) => ($invalid ? colors.danger : colors.border)};
  border-radius: ${radii.small};
  background: ${colors.surface};
  color: ${colors.ink};

  &:focus {
    outline: none;
    border-color: ${({ $invalid }) => ($invalid ? colors.danger : colors.brand)};
    box-shadow: 0 0 0 3px ${({ $invalid }) => ($invalid ? 'rgba(220, 38, 38, 0.2)' : 'rgba(29, 78, 216, 0.2)')};
  }
  &:disabled {
    background: ${colors.page};
    color: ${colors.muted};
  }
`;

const ErrorText = styled.p`
  font-size: 0.8125rem;
  color: ${colors.danger};
`;
