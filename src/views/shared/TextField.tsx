import { useId, type InputHTMLAttributes, type Ref } from 'react';
import styled, { css } from 'styled-components';
import { elementColors } from '../payment/elementColors';
import { colors, radii } from '../theme';
import { nearLimit } from './fieldLimits';

/** How the field looks: the checkout form's, or the card form's (Stripe's Payment Element, so both card forms match). */
type Look = 'form' | 'card';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** The message shown in red under the field (spec §5 for the buyer's details, the card rules for a card). */
  error?: string;
  look?: Look;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A labelled text input with its error message under it, tied to it for screen readers; with a `maxLength`, it
 * shows how many characters are used once within 10% of it (fieldLimits.ts).
 */
export function TextField({ label, error, look = 'form', ref, ...input }: TextFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const length = typeof input.value === 'string' ? input.value.length : 0;
  const counter = input.maxLength !== undefined && nearLimit(length, input.maxLength) ? `${length} / ${input.maxLength}` : null;
  return (
    <Field>
      <Label htmlFor={id} $look={look}>
        {label}
      </Label>
      <Input
        ref={ref}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        $invalid={Boolean(error)}
        $look={look}
        {...input}
      />
      {counter && (
        <Counter id={`${id}-counter`} aria-live="polite" $look={look}>
          {counter} characters
        </Counter>
      )}
      {error && (
        <ErrorText id={errorId} role="alert" $look={look}>
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

const labelLooks = {
  form: css`
    font-size: 0.875rem;
    font-weight: 600;
    color: ${colors.ink};
  `,
  card: css`
    font-size: 0.875rem;
    color: ${elementColors.label};
  `,
};

const Label = styled.label<{ $look: Look }>`
  ${({ $look }) => labelLooks[$look]}
`;

const inputLooks = {
  form: css<{ $invalid: boolean }>`
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
  `,
  card: css<{ $invalid: boolean }>`
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
  `,
};

const Input = styled.input<{ $invalid: boolean; $look: Look }>`
  ${({ $look }) => inputLooks[$look]}
`;

const errorLooks = {
  form: css`
    font-size: 0.8125rem;
    color: ${colors.danger};
  `,
  card: css`
    font-size: 0.875rem;
    color: ${elementColors.danger};
  `,
};

const ErrorText = styled.p<{ $look: Look }>`
  ${({ $look }) => errorLooks[$look]}
`;

const Counter = styled.span<{ $look: Look }>`
  align-self: flex-end;
  font-size: 0.75rem;
  color: ${({ $look }) => ($look === 'card' ? elementColors.label : colors.muted)};
`;
