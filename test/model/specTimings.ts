/**
 * The checkout's timings, written from the spec (§9 "Seat update debounce 2000 ms; … initialisation delay 500 ms;
 * first-name focus delay 800 ms"; "Confetti: … 4 s"; §2 'Get Started' focuses the first name after 800 ms) and not
 * read from src/machines/checkoutTimings.ts: the model test holds each timer the chart sets to these.
 */
import type { AnyEventObject } from 'xstate';

/** Spec §9, in ms. */
const SPEC_TIMINGS = {
  initDelay: 500,
  seatDebounce: 2000,
  firstNameFocus: 800,
  confetti: 4000,
} as const;

/**
 * The spec's delay for the timer whose event is `event` (an `after` transition's `xstate.after.<delay>.<state>`, or
 * the confetti's and the focus's own events), in ms.
 * @throws when the spec names no delay for that event: a new timer needs its rule here first.
 */
export function specDelayOf(event: AnyEventObject): number {
  if (event.type === 'CONFETTI_ENDED') return SPEC_TIMINGS.confetti;
  if (event.type === 'FIRST_NAME_FOCUS_DUE') return SPEC_TIMINGS.firstNameFocus;
  const delay = /^xstate\.after\.(\w+)\./.exec(event.type)?.[1];
  if (delay === 'initDelay' || delay === 'seatDebounce') return SPEC_TIMINGS[delay];
  throw new Error(`The spec names no delay for ${event.type}`);
}
