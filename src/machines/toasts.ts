/**
 * The toast catalogue of spec §8, verbatim. Machines emit these; the views show them with react-hot-toast.
 */

export interface ToastMessage {
  title: string;
  description: string;
  /** 'destructive' for errors (spec §8: "destructive variant unless noted"). */
  variant: 'default' | 'destructive';
}

const destructive = (title: string, description: string): ToastMessage => ({ title, description, variant: 'destructive' });

export const TOASTS = {
  initializationError: destructive('Initialization Error', 'Failed to initialize checkout. Please refresh the page and try again.'),
  updateError: destructive('Update Error', 'Failed to update subscription. Please refresh and try again.'),
  updateFailed: destructive('Update Failed', 'Failed to update team size. Please try again.'),
  paymentFailed: (message: string) => destructive('Payment Failed', message),
  loadFailed: destructive('Error', 'Failed to load payment details. Please contact support.'),
  noPaymentData: destructive('No Payment Data', 'No payment information found. Please complete a purchase first.'),
  noToken: destructive('Error', 'No authentication token found. Please contact support.'),
  /** Not in spec §8: the success-site address could not be read, so the hand-off did not start. */
  redirectFailed: destructive('Error', 'Could not open the training agreement. Please try again.'),
  copyFailed: destructive('Copy Failed', 'Failed to copy to clipboard'),
  copied: (what: 'Email' | 'Password'): ToastMessage => ({
    title: 'Copied!',
    description: `${what} copied to clipboard`,
    variant: 'default',
  }),
  subscriptionUpdated: (seats: number): ToastMessage => ({
    title: 'Subscription Updated',
    description: `Team size updated to ${seats} ${seats === 1 ? 'member' : 'members'}.`,
    variant: 'default',
  }),
} as const;
