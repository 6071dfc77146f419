import { useState, type InputHTMLAttributes } from 'react';
import styled from 'styled-components';
import { colors } from '../theme';
import { nearLimit } from './fieldLimits';

interface LimitedInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'maxLength'> {
  /** The server's limit for this field (fieldLimits.ts). */
  maxLength: number;
}

/**
 * An uncontrolled input of a panel form (inside its label) that holds to `maxLength` and shows "n / max characters"
 * once within 10% of it, as the checkout's TextField does.
 */
export function LimitedInput({ maxLength, onChange, defaultValue, ...input }: LimitedInputProps) {
  const [length, setLength] = useState(typeof defaultValue === 'string' ? defaultValue.length : 0);
  return (
    <>
      <input
        {...input}
        defaultValue={defaultValue}
        maxLength={maxLength}
        onChange={(event) => {
          setLength(event.currentTarget.value.length);
          onChange?.(event);
        }}
      />
      {nearLimit(length, maxLength) && (
        <Counter aria-live="polite">
          {length} / {maxLength} characters
        </Counter>
      )}
    </>
  );
}

const Counter = styled.span`
  font-size: 0.75rem;
  font-weight: 400;
  color: ${colors.muted};
`;
