import { useEffect, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { notify } from '../toasts/lazyToasts';
import { CheckoutActor } from './checkoutActor';

interface CheckoutEventTargets {
  /** Where 'scroll to the checkout form' scrolls. */
  checkoutForm: RefObject<HTMLElement | null>;
  /** The First Name input, focused on request. */
  firstName: RefObject<HTMLInputElement | null>;
}

/** Acts on what the checkout machine emits: toasts, scrolling, focus and the move to /payment-success. */
export function useCheckoutEvents(targets: CheckoutEventTargets): void {
  const actorRef = CheckoutActor.useActorRef();
  const [, navigate] = useLocation();

  useEffect(() => {
    const subscriptions = [
      actorRef.on('toast', (event) => notify(event.toast)),
      actorRef.on('scrollRequested', () => targets.checkoutForm.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' })),
      actorRef.on('focusRequested', ({ field }) => {
        const input =
          field === 'firstName'
            ? targets.firstName.current
            : targets.checkoutForm.current?.querySelector<HTMLInputElement>(`input[name="${field}"]`);
        input?.focus();
      }),
      actorRef.on('cardFocusRequested', ({ gateway }) => gateway.focusCard()),
      actorRef.on('paymentCompleted', () => navigate('/payment-success')),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [actorRef, navigate, targets.checkoutForm, targets.firstName]);
}
