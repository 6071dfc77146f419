/**
 * The page's tooltips as one group (spec §9 "Tooltip delay 700 ms, skip delay 300 ms"; WAI-ARIA Authoring
 * Practices, tooltip pattern; docs/decisions/0050-tooltips.md): a hint opens 700 ms after the pointer rests on its
 * control or the keyboard focuses it; within 300 ms of one closing, the next opens at once, so a person moving
 * along a row of controls is not made to wait again. One hint is open at a time; Escape dismisses it.
 * Every control reports when it becomes active (hovered or focused) and when it stops; the views render the
 * snapshot (`openId`).
 */
import { assertEvent, assign, setup } from 'xstate';

/** Spec §9, in ms. */
export const TOOLTIP_TIMINGS = { delay: 700, skipDelay: 300 } as const;

interface TooltipContext {
  /** The control that asked for its hint and is waiting for the delay. */
  waitingId: string | null;
  /** The control whose hint is shown. */
  openId: string | null;
}

type TooltipEvent =
  /** The pointer rests on the control `id`, or the keyboard focused it. */
  | { type: 'TRIGGER_ENTERED'; id: string }
  /** Neither pointer nor focus is on the control `id` any more. */
  | { type: 'TRIGGER_LEFT'; id: string }
  /** Escape: the open hint goes away until its control is entered again. */
  | { type: 'DISMISSED' };

export const tooltipMachine = setup({
  // Stryker disable next-line ObjectLiteral: TypeScript only, XState ignores `types` at run time
  types: {
    context: {} as TooltipContext,
    events: {} as TooltipEvent,
  },
  delays: {
    tooltipDelay: TOOLTIP_TIMINGS.delay,
    skipDelay: TOOLTIP_TIMINGS.skipDelay,
  },
  guards: {
    leftWaitingTrigger: ({ context, event }) => event.type === 'TRIGGER_LEFT' && event.id === context.waitingId,
    leftOpenTrigger: ({ context, event }) => event.type === 'TRIGGER_LEFT' && event.id === context.openId,
  },
  actions: {
    assignWaiting: assign({
      waitingId: ({ event }) => {
        assertEvent(event, 'TRIGGER_ENTERED');
        return event.id;
      },
    }),
    openWaiting: assign(({ context }) => ({ openId: context.waitingId, waitingId: null })),
    openEntered: assign(({ event }) => {
      assertEvent(event, 'TRIGGER_ENTERED');
      return { openId: event.id, waitingId: null };
    }),
    clearWaiting: assign({ waitingId: null }),
    close: assign({ openId: null }),
  },
}).createMachine({
  id: 'tooltip',
  context: { waitingId: null, openId: null },
  initial: 'closed',
  states: {
    closed: {
      on: { TRIGGER_ENTERED: { target: 'waiting', actions: 'assignWaiting' } },
    },
    /** A control asked; its hint opens once the delay has passed with the control still active. */
    waiting: {
      after: { tooltipDelay: { target: 'open', actions: 'openWaiting' } },
      on: {
        // Another control entered: the delay starts again for it.
        TRIGGER_ENTERED: { target: 'waiting', reenter: true, actions: 'assignWaiting' },
        TRIGGER_LEFT: { guard: 'leftWaitingTrigger', target: 'closed', actions: 'clearWaiting' },
      },
    },
    open: {
      on: {
        // Moving straight to another control shows its hint at once.
        TRIGGER_ENTERED: { actions: 'openEntered' },
        TRIGGER_LEFT: { guard: 'leftOpenTrigger', target: 'skipping', actions: 'close' },
        DISMISSED: { target: 'skipping', actions: 'close' },
      },
    },
    /** A hint just closed: for the skip delay, the next control's hint opens without waiting. */
    skipping: {
      after: { skipDelay: { target: 'closed' } },
      on: { TRIGGER_ENTERED: { target: 'open', actions: 'openEntered' } },
    },
  },
});
