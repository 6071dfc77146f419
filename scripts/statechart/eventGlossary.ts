/**
 * What each statechart event means, for docs/statechart.md. The generator fails when a machine has an event
 * that is not described here, so the glossary cannot fall behind the machines.
 */
export const EVENT_GLOSSARY: Record<string, string> = {
  SEAT_ADDED: "The buyer pressed 'Increase seats'.",
  TRIGGER_ENTERED: 'A control with a hint became active: the pointer rests on it (not a touch) or the keyboard focused it.',
  TRIGGER_LEFT: 'Neither the pointer nor the focus is on that control any more.',
  DISMISSED: 'Escape was pressed while a hint was open.',
  SEAT_REMOVED: "The buyer pressed 'Decrease seats' (ignored at one seat).",
  FIELD_CHANGED: 'The buyer edited First Name, Last Name or Email Address; clears that field’s error.',
  PAYMENT_FORM_READY: 'The card form for the current client secret is mounted and can confirm a payment.',
  CARD_DETAILS_CHANGED:
    'The card form’s fields went from empty to typed in, or back; a seat change then re-creates the form with the buyer told to type the card again.',
  SUBMITTED: "The buyer pressed 'YES! I Want To Train My Team With AI'.",
  QUOTE_CLICKED: 'The buyer clicked the referrer’s quote in the hero (scrolls to the form).',
  GET_STARTED_CLICKED: "The buyer clicked 'Get Started' in the bonus block (scrolls, then focuses First Name after 800 ms).",
  FIRST_NAME_FOCUS_DUE: 'Internal: the 800 ms after Get Started have passed.',
  CONFETTI_ENDED: 'Internal: the 4 s of confetti are over.',
  ORDER_RETRY_CLICKED:
    "The buyer pressed 'Complete my order' (a charged order whose finalize failed) or 'Check again' (an earlier payment of this browser that could not be checked): finalize runs again, the card is never charged again.",
  INIT_RETRY_CLICKED:
    "The buyer pressed 'Try again' after the checkout could not be created: call 1 runs again at once (docs/decisions/0012).",
  COPY_CLICKED: 'The buyer pressed the copy button of the email or the password (the success page, or new credentials on /account).',
  SIGN_AGREEMENT_CLICKED: "The buyer pressed 'Sign Training Agreement →'.",
  RETURN_RETRY_CLICKED:
    "The buyer pressed 'Try again' after the payment they returned with (3-D Secure) could not be finalized: finalize runs again, never a charge.",
  LINK_REQUESTED: "/account: the buyer asked for a sign-in link ('Email me a link').",
  CANCEL_CLICKED: "/account: the buyer pressed 'Cancel subscription' (with an optional reason).",
  RESUME_CLICKED: "/account: the buyer pressed 'Undo cancellation'.",
  SEATS_SUBMITTED: "/account: the buyer pressed 'Change seats' with a new number of seats (what it costs now is read first).",
  SEATS_CONFIRMED: "/account: the buyer confirmed the seat change after seeing what it costs now ('Pay $… and change seats').",
  SEATS_ABANDONED: "/account: the buyer pressed 'Keep my seats' after seeing what the change costs now.",
  CARD_SUBMITTED: "/account: the buyer pressed 'Update card' with a new card.",
  PORTAL_CLICKED: "/account (Stripe mode): the buyer pressed one of the provider portal's buttons.",
  NEW_CREDENTIALS_CLICKED: "/account: the buyer pressed 'Get new login credentials' (asked once more first).",
  NEW_CREDENTIALS_CONFIRMED: "/account: the buyer pressed 'Yes, replace my password'.",
  NEW_CREDENTIALS_ABANDONED: "/account: the buyer pressed 'Keep my password'.",
  SIGN_OUT_CLICKED: "/account: the buyer pressed 'Sign out'.",
  EMAIL_CHANGED: 'The checkout’s Email Address changed (the notice before a second purchase checks it once it settles).',
};
