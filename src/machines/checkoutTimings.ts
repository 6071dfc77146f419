/** The checkout's timings and confetti (spec §9), beside the statechart that runs them. */

/** Spec §9 timings, in ms. */
export const TIMINGS = {
  initDelay: 500,
  seatDebounce: 2000,
  firstNameFocus: 800,
  confetti: 4000,
} as const;

/** Confetti pieces, and the seat count that triggers them (spec §9: "50 pieces, 4 s, at exactly 2 seats"). */
export const CONFETTI_PIECES = 50;
export const CONFETTI_SEAT_COUNT = 2;
