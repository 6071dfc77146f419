import { useCallback, useEffect, type ChangeEvent, type RefObject } from 'react';
import { preloadPaymentSuccessPage } from '../../pageChunks';
import styled from 'styled-components';
import { formatDollars, monthlyTotalCents, SEAT_PRICE_CENTS } from '../../domain/pricing';
import type { CheckoutField } from '../../domain/validation';
import type { PaymentGateway } from '../../payments/gateway';
import { PaymentForm } from '../payment/PaymentForm';
import { colors } from '../theme';
import { CheckoutActor } from './checkoutActor';
import { PaymentReceivedNotice } from './OrderNotices';
import {
  selectCanSubmit,
  selectCardReentryNeeded,
  selectConfirmingTax,
  selectLocationError,
  selectPaymentFormSecret,
  selectFieldsLocked,
  selectFieldErrors,
  selectForm,
  selectPaymentFormKey,
  selectPaymentError,
  selectPendingSeats,
  selectProcessing,
} from './checkoutSelectors';
import { TaxConfirmation } from './TaxConfirmation';
import { SubmitButton } from './SubmitButton';
import { FIELD_LIMITS } from '../shared/fieldLimits';
import { TextField } from '../shared/TextField';
import { ExistingSubscriptionNotice } from './ExistingSubscriptionNotice';

interface CheckoutFormProps {
  firstNameRef: RefObject<HTMLInputElement | null>;
}

/**
 * The payment form (spec §2): name and email, the card form keyed by client secret and update counter, the
 * submit button and the billing note. Our own validation messages show, so the browser's are off (noValidate).
 */
/** The success page's chunk is fetched this long after the buyer can pay (ms). */
const PRELOAD_AFTER_MS = 1_500;

export function CheckoutForm({ firstNameRef }: CheckoutFormProps) {
  const actorRef = CheckoutActor.useActorRef();
  const form = CheckoutActor.useSelector(selectForm);
  const errors = CheckoutActor.useSelector(selectFieldErrors);
  const processing = CheckoutActor.useSelector(selectProcessing);
  const fieldsLocked = CheckoutActor.useSelector(selectFieldsLocked);
  const canSubmit = CheckoutActor.useSelector(selectCanSubmit);
  const paymentFormKey = CheckoutActor.useSelector(selectPaymentFormKey);
  const clientSecret = CheckoutActor.useSelector(selectPaymentFormSecret);
  const locationError = CheckoutActor.useSelector(selectLocationError);
  const confirmingTax = CheckoutActor.useSelector(selectConfirmingTax);
  const seats = CheckoutActor.useSelector(selectPendingSeats);
  const paymentError = CheckoutActor.useSelector(selectPaymentError);
  const cardReentryNeeded = CheckoutActor.useSelector(selectCardReentryNeeded);
  useEffect(() => {
    if (!canSubmit) return undefined;
    // Not while the card field is still getting ready: a buyer types name, email and card for longer than this.
    const timer = setTimeout(preloadPaymentSuccessPage, PRELOAD_AFTER_MS);
    return () => clearTimeout(timer);
  }, [canSubmit]);

  const change = (field: CheckoutField) => (event: ChangeEvent<HTMLInputElement>) =>
    actorRef.send({ type: 'FIELD_CHANGED', field, value: event.target.value });
  const onReady = useCallback(
    (gateway: PaymentGateway) => {
      if (clientSecret) actorRef.send({ type: 'PAYMENT_FORM_READY', clientSecret, gateway });
    },
    [actorRef, clientSecret],
  );
  const onCardDetailsChange = useCallback((empty: boolean) => actorRef.send({ type: 'CARD_DETAILS_CHANGED', empty }), [actorRef]);

  return (
    <Form
      noValidate
      aria-labelledby="complete-order-title"
      onSubmit={(event) => {
        event.preventDefault();
        actorRef.send({ type: 'SUBMITTED' });
      }}
    >
      <Title id="complete-order-title">Complete Your Order</Title>
      <NameRow>
        <TextField
          ref={firstNameRef}
          label="First Name"
          name="firstName"
          autoComplete="given-name"
          required
          maxLength={FIELD_LIMITS.namePart}
          disabled={fieldsLocked}
          value={form.firstName}
          error={errors.firstName}
          onChange={change('firstName')}
        />
        <TextField
          label="Last Name"
          name="lastName"
          autoComplete="family-name"
          required
          maxLength={FIELD_LIMITS.namePart}
          disabled={fieldsLocked}
          value={form.lastName}
          error={errors.lastName}
          onChange={change('lastName')}
        />
      </NameRow>
      <TextField
        label="Email Address"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={FIELD_LIMITS.email}
        disabled={fieldsLocked}
        value={form.email}
        error={errors.email}
        onChange={change('email')}
      />
      <ExistingSubscriptionNotice />
      <Subtitle>Payment Information</Subtitle>
      {cardReentryNeeded && <CardReentry role="alert">{CARD_REENTRY_MESSAGE}</CardReentry>}
      {paymentFormKey && clientSecret && (
        <PaymentForm
          key={paymentFormKey}
          clientSecret={clientSecret}
          disabled={processing}
          onReady={onReady}
          onCardDetailsChange={onCardDetailsChange}
          locationError={locationError}
        />
      )}
      <PaymentReceivedNotice />
      {confirmingTax ? (
        <TaxConfirmation />
      ) : (
        <SubmitButton type="submit" disabled={!canSubmit}>
          {processing ? 'Processing...' : 'YES! I Want To Train My Team With AI'}
        </SubmitButton>
      )}
      {paymentError && <PaymentError role="alert">{paymentError}</PaymentError>}
      <Note>
        {`${formatDollars(SEAT_PRICE_CENTS)} per seat/${formatDollars(monthlyTotalCents(seats))} total billed monthly. Cancel anytime with one click. Offer valid exclusively through the referrer's referral.`}
      </Note>
    </Form>
  );
}

const Form = styled.form`
  display: flex;
  flex-direction: column;
  gap: 16px;
`;

const Title = styled.h2`
  font-size: 1.375rem;
`;

const Subtitle = styled.h3`
  margin-top: 8px;
  font-size: 1.0625rem;
`;

const NameRow = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 12px;
`;

/** Said at the card field when a seat change re-created the payment form after the buyer typed a card. */
export const CARD_REENTRY_MESSAGE = 'Your team size changed: please enter your card again';

const CardReentry = styled.p`
  color: ${colors.danger};
  font-weight: 600;
`;

/** The last payment failure, by the pay button: the §8 toast leaves after 4 s, this stays until the next try. */
const PaymentError = styled.p`
  color: ${colors.danger};
  font-weight: 600;
  text-align: center;
`;

const Note = styled.p`
  font-size: 0.8125rem;
  color: ${colors.muted};
  text-align: center;
`;
