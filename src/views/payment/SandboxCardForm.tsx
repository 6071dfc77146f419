import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { AuthenticationChallenge } from './AuthenticationChallenge';
import { TextField } from '../shared/TextField';
import { elementColors } from './elementColors';
import { formatCardNumber, formatExpiry, validateCard, type CardField, type CardFormValues } from '../../payments/cardValidation';
import type { PaymentFormProps } from './PaymentFormProps';
import { createSandboxGateway, type AuthenticationOutcome } from '../../payments/sandboxGateway';
import { CARD_FORM_COUNTRIES } from '../../domain/tax';

const EMPTY_CARD: CardFormValues = { number: '', expiry: '', cvc: '', country: 'US', postalCode: '' };

/** True when no card field holds anything (the country always holds one: it is not typed). */
const isEmpty = ({ country: _country, ...typed }: CardFormValues) => Object.values(typed).every((value) => value === '');

const FORMATTERS: Record<CardField, (raw: string) => string> = {
  number: formatCardNumber,
  expiry: formatExpiry,
  cvc: (raw) => raw.replace(/\D/g, '').slice(0, 4),
  country: (raw) => raw,
  postalCode: (raw) => raw.slice(0, 10),
};

/**
 * The sandbox provider's card form, laid out like Stripe's Payment Element (tabs, card the only method). It
 * checks the card in the browser and hands the checkout a gateway for `clientSecret` once mounted.
 */
export function SandboxCardForm({ disabled, onReady, onCardDetailsChange, locationError }: PaymentFormProps) {
  const tabId = useId();
  const panelId = useId();
  const countryId = useId();
  const [values, setValues] = useState<CardFormValues>(EMPTY_CARD);
  const valuesRef = useRef<CardFormValues>(EMPTY_CARD);
  const [touched, setTouched] = useState<Partial<Record<CardField, boolean>>>({});
  const [showAllErrors, setShowAllErrors] = useState(false);
  const [challenge, setChallenge] = useState<((outcome: AuthenticationOutcome) => void) | null>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const onReadyRef = useRef(onReady);
  const onCardDetailsChangeRef = useRef(onCardDetailsChange);
  useEffect(() => {
    onReadyRef.current = onReady;
    onCardDetailsChangeRef.current = onCardDetailsChange;
  });

  const gateway = useMemo(
    () =>
      createSandboxGateway({
        readCard: () => valuesRef.current,
        onInvalidCard: () => setShowAllErrors(true),
        authenticate: () => new Promise((resolve) => setChallenge(() => resolve)),
        focusCard: () => numberRef.current?.focus(),
      }),
    [],
  );
  useEffect(() => onReadyRef.current(gateway), [gateway]);

  const errors = validateCard(values);
  // The server's word on the location shows at its field until the buyer changes that field.
  const serverError = (field: CardField) => (locationError?.field === field && !touched[field] ? locationError.message : undefined);
  const errorOf = (field: CardField) => (showAllErrors || touched[field] ? errors[field] : undefined) ?? serverError(field);
  const inputProps = (field: CardField) => ({
    value: values[field],
    disabled,
    error: errorOf(field),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const previous = valuesRef.current;
      const next = { ...previous, [field]: FORMATTERS[field](event.target.value) };
      valuesRef.current = next;
      setValues(next);
      const empty = isEmpty(next);
      if (empty !== isEmpty(previous)) onCardDetailsChangeRef.current(empty);
    },
    onBlur: () => setTouched((current) => ({ ...current, [field]: valuesRef.current[field] !== '' || current[field] })),
  });
  const country = inputProps('country');
  const countryError = country.error;

  const choose = (outcome: AuthenticationOutcome) => {
    challenge?.(outcome);
    setChallenge(null);
  };

  return (
    <Element>
      <Tabs role="tablist" aria-label="Payment method">
        <Tab type="button" role="tab" id={tabId} aria-selected="true" aria-controls={panelId}>
          <CardIcon />
          Card
        </Tab>
      </Tabs>
      <Panel role="tabpanel" id={panelId} aria-labelledby={tabId}>
        <TextField
          look="card"
          ref={numberRef}
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          {...inputProps('number')}
        />
        <Row>
          <TextField
            look="card"
            label="Expiration date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            {...inputProps('expiry')}
          />
          <TextField look="card" label="Security code" inputMode="numeric" autoComplete="cc-csc" placeholder="CVC" {...inputProps('cvc')} />
        </Row>
        <Row>
          <CountryField>
            <CountryLabel htmlFor={countryId}>Country</CountryLabel>
            <CountrySelect
              id={countryId}
              autoComplete="country"
              value={country.value}
              disabled={disabled}
              aria-invalid={countryError ? true : undefined}
              aria-describedby={countryError ? `${countryId}-error` : undefined}
              onChange={(event) => {
                setTouched((current) => ({ ...current, country: true }));
                country.onChange(event as unknown as ChangeEvent<HTMLInputElement>);
              }}
            >
              {Object.entries(CARD_FORM_COUNTRIES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </CountrySelect>
            {countryError && (
              <CountryError id={`${countryId}-error`} role="alert">
                {countryError}
              </CountryError>
            )}
          </CountryField>
          <TextField
            look="card"
            label="ZIP"
            autoComplete="postal-code"
            placeholder="12345"
            {...inputProps('postalCode')}
            onChange={(event) => {
              setTouched((current) => ({ ...current, postalCode: current.postalCode || locationError?.field === 'postalCode' }));
              inputProps('postalCode').onChange(event);
            }}
          />
        </Row>
      </Panel>
      {challenge && <AuthenticationChallenge onChoose={choose} />}
    </Element>
  );
}

function CardIcon() {
  return (
    <svg width="20" height="14" viewBox="0 0 20 14" aria-hidden="true" focusable="false">
      <rect x="0.5" y="0.5" width="19" height="13" rx="2" fill="none" stroke="currentColor" />
      <rect x="0.5" y="3.5" width="19" height="2.5" fill="currentColor" />
    </svg>
  );
}

const Element = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
  color: ${elementColors.text};
`;

const Tabs = styled.div`
  display: flex;
`;

const Tab = styled.button`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 4px;
  min-width: 120px;
  padding: 10px 12px;
  font-size: 0.875rem;
  font-weight: 600;
  color: ${elementColors.focus};
  background: #fff;
  border: 1px solid ${elementColors.focus};
  border-radius: 5px;
  box-shadow: 0 0 0 1px ${elementColors.focus};
  cursor: default;
`;

const Panel = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

const CountryField = styled.div`
  display: flex;
  flex-direction: column;
  gap: 4px;
  min-width: 0;
`;

const CountryLabel = styled.label`
  font-size: 0.875rem;
  color: ${elementColors.label};
`;

const CountrySelect = styled.select`
  width: 100%;
  padding: 12px;
  font-size: 1rem;
  color: ${elementColors.text};
  background: #fff;
  border: 1px solid ${({ 'aria-invalid': invalid }) => (invalid ? elementColors.danger : elementColors.border)};
  border-radius: 5px;

  &:focus {
    outline: none;
    border-color: ${elementColors.focus};
    box-shadow: 0 0 0 3px rgba(5, 112, 222, 0.25);
  }
`;

const CountryError = styled.p`
  font-size: 0.875rem;
  color: ${elementColors.danger};
`;

const Row = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 12px;
`;
