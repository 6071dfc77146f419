/**
 * The pages loaded as chunks of their own (src/App.tsx): the first load of / carries only the checkout. The
 * checkout fetches the success page's chunk ahead of time once the buyer can pay, so the move there is instant.
 */
export const loadPaymentSuccessPage = () => import('./views/success/PaymentSuccessPage');
export const loadNotFoundPage = () => import('./views/NotFoundPage');
export const loadAdminPage = () => import('./views/admin/AdminPage');
export const loadAccountPage = () => import('./views/account/AccountPage');
export const loadSignInPage = () => import('./views/signIn/SignInPage');
export const loadPartnerPage = () => import('./views/partner/PartnerPage');
export const loadJoinPage = () => import('./views/join/JoinPage');
export const loadNewPasswordPage = () => import('./views/newPassword/NewPasswordPage');

/** Fetches the success page's chunk now, if it is not already here. */
export function preloadPaymentSuccessPage(): void {
  void loadPaymentSuccessPage().catch(() => undefined);
}
