/**
 * The spec's toast rules, written from the spec (§4, §8) and not read from the statechart under test: which
 * toasts a checkout transition must show, with their titles and descriptions. The model tests compare what the
 * page shows after each step with this.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';

interface ExpectedToast {
  title: string;
  description: string;
}

/** Spec §8, verbatim. */
const SPEC = {
  initializationError: {
    title: 'Initialization Error',
    description: 'Failed to initialize checkout. Please refresh the page and try again.',
  },
  updateError: { title: 'Update Error', description: 'Failed to update subscription. Please refresh and try again.' },
  updateFailed: { title: 'Update Failed', description: 'Failed to update team size. Please try again.' },
  paymentFailedDefault: 'An error occurred during payment. Please try again.',
} as const;

const RESULT = /^xstate\.(done|error)\.actor\.\d+\.checkout\.(.+)$/;

/**
 * The toasts the page must show for `event`, taken in `before` (the snapshot the event arrived in).
 * - call 1 fails: 'Initialization Error' (§8);
 * - call 2 succeeds: 'Subscription Updated', 'Team size updated to N member(s).' with N the seats committed (§4);
 * - call 2 fails: 'Update Failed' and 'Update Error' (§4);
 * - the card is refused or its confirmation fails: 'Payment Failed' with the message, or the §8 default; the same
 *   when the location step before it fails (decision 0071), but not for a ZIP refused at its field;
 * - nothing else, and never a payment failure once the card was charged (finalize and resume failures).
 */
export function expectedToasts(event: AnyEventObject, before: AnyMachineSnapshot): ExpectedToast[] {
  const result = RESULT.exec(event.type);
  if (!result) return [];
  const [, kind, state] = result;
  if (state === 'init.creatingIntent' && kind === 'error') return [SPEC.initializationError];
  if (state === 'updating' && kind === 'done') {
    const seats = before.context.pendingSeats as number;
    return [{ title: 'Subscription Updated', description: `Team size updated to ${seats} ${seats === 1 ? 'member' : 'members'}.` }];
  }
  if (state === 'updating' && kind === 'error') return [SPEC.updateFailed, SPEC.updateError];
  if (state === 'submitting' && kind === 'done') {
    const output = event.output as { status: string; message?: string };
    return output.status === 'failed' ? [{ title: 'Payment Failed', description: output.message || SPEC.paymentFailedDefault }] : [];
  }
  if (state === 'locating' && kind === 'done') {
    const output = event.output as { kind: string; message?: string };
    return output.kind === 'failed' ? [{ title: 'Payment Failed', description: output.message || SPEC.paymentFailedDefault }] : [];
  }
  if ((state === 'submitting' || state === 'locating') && kind === 'error') {
    const message = (event.error as Error | undefined)?.message;
    return [{ title: 'Payment Failed', description: message || SPEC.paymentFailedDefault }];
  }
  return [];
}

/** The toasts on the page now: title and description of each, sorted. */
export function visibleToasts(container: ParentNode = document): ExpectedToast[] {
  const toaster = container.querySelector('[data-rht-toaster]');
  if (!toaster) return [];
  return [...toaster.querySelectorAll('[role="status"], [role="alert"]')]
    .map((item) => {
      const title = item.querySelector('strong');
      return { title: title?.textContent ?? '', description: title?.nextElementSibling?.textContent ?? '' };
    })
    .sort(byText);
}

export function byText(a: ExpectedToast, b: ExpectedToast): number {
  return `${a.title}|${a.description}`.localeCompare(`${b.title}|${b.description}`);
}
