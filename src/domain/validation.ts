/**
 * Checkout form validation. Source: spec §5 (messages verbatim).
 * Pure: takes the three fields, returns an error message per invalid field.
 */

export interface CheckoutForm {
  firstName: string;
  lastName: string;
  email: string;
}

export type CheckoutField = keyof CheckoutForm;

/** The fields in the order the form shows them. */
export const CHECKOUT_FIELDS: readonly CheckoutField[] = ['firstName', 'lastName', 'email'];

export type FieldErrors = Partial<Record<CheckoutField, string>>;

/** Spec §5: some text, '@', some text, a dot, some text; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const FIELD_ERROR_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
} as const;

/** Returns the errors for `form`; an empty object means the form may be submitted. */
export function validateCheckoutForm(form: CheckoutForm): FieldErrors {
  const errors: FieldErrors = {};
  if (!form.firstName.trim()) errors.firstName = FIELD_ERROR_MESSAGES.firstNameRequired;
  if (!form.lastName.trim()) errors.lastName = FIELD_ERROR_MESSAGES.lastNameRequired;
  const email = form.email.trim();
  if (!email) errors.email = FIELD_ERROR_MESSAGES.emailRequired;
  else if (!EMAIL_PATTERN.test(email)) errors.email = FIELD_ERROR_MESSAGES.emailInvalid;
  return errors;
}

/** True when `errors` holds no message. */
export function hasFieldErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some(Boolean);
}

/** The buyer's full name as the spec stores it: first and last name joined by a space, trimmed. */
export function fullName(form: Pick<CheckoutForm, 'firstName' | 'lastName'>): string {
  return `${form.firstName.trim()} ${form.lastName.trim()}`.trim();
}
