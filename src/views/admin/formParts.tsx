/** Parts of the console's forms: a labelled field with its hint, its "required" mark and its own error. */
import type { ReactElement, ReactNode } from 'react';
import { cloneElement } from 'react';
import styled from 'styled-components';
import { colors, radii } from '../theme';

interface FormFieldProps {
  /** The control's id; its hint and error are `{id}-hint` and `{id}-error`. */
  id: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** The input, textarea or select, given `id`, `aria-describedby`, `aria-invalid` and `required` here. */
  children: ReactElement<Record<string, unknown>>;
  wide?: boolean;
}

/** A field: label (followed by * when required, outside the accessible name: the control itself says required), the control, a hint under it, and its error under that. */
export function FormField({ id, label, required, hint, error, children, wide }: FormFieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <Slot $wide={wide}>
      <span>
        <Label htmlFor={id}>{label}</Label>
        {required && <Required aria-hidden="true"> *</Required>}
      </span>
      {cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, required })}
      {hint && <Hint id={`${id}-hint`}>{hint}</Hint>}
      {error && (
        <FieldError id={`${id}-error`} role="alert">
          {error}
        </FieldError>
      )}
    </Slot>
  );
}

/** "* required", said once above a form. */
export function RequiredNote() {
  return (
    <Hint as="p">
      Fields marked <Required>*</Required> are required.
    </Hint>
  );
}

const Slot = styled.div<{ $wide?: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 4px;
  flex: ${({ $wide }) => ($wide ? '1 1 100%' : '1 1 220px')};
  min-width: 0;
  font-size: 0.875rem;

  input,
  textarea {
    min-height: 44px;
    width: 100%;
    box-sizing: border-box;
    padding: 8px 10px;
    border: 1px solid ${colors.muted};
    border-radius: ${radii.small};
    font: inherit;
    color: ${colors.ink};
    background: ${colors.surface};
  }
  [aria-invalid='true'] {
    border-color: ${colors.danger};
  }
`;

const Label = styled.label`
  color: ${colors.ink};
`;

const Required = styled.span`
  color: ${colors.danger};
  font-weight: 700;
`;

const Hint = styled.span`
  color: ${colors.muted};
  font-size: 0.8125rem;
`;

const FieldError = styled.span`
  color: ${colors.danger};
  font-weight: 600;
`;
