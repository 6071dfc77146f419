import { useEffect } from 'react';
import { CheckoutActor } from './checkoutActor';
import { selectPaymentAtRisk } from './checkoutSelectors';

/**
 * While a card payment is being confirmed, or was taken and its order is not finalized yet, leaving the page asks
 * for confirmation (the browser's own `beforeunload` dialog; its wording is the browser's).
 */
export function useLeaveWarning(): void {
  const atRisk = CheckoutActor.useSelector(selectPaymentAtRisk);
  useEffect(() => {
    if (!atRisk) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [atRisk]);
}
