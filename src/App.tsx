import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PAGE_PATHS } from './domain/pagePaths';
import {
  loadAccountPage,
  loadAdminPage,
  loadJoinPage,
  loadNewPasswordPage,
  loadNotFoundPage,
  loadPartnerPage,
  loadPaymentSuccessPage,
  loadSignInPage,
} from './pageChunks';
import { CheckoutPage, type CheckoutPageProps } from './views/checkout/CheckoutPage';
import { RedirectToHomePage } from './views/RedirectToHomePage';
import { useHeadingFocusOnRouteChange } from './views/shared/focusHeading';
import { SiteHeader } from './views/shared/SiteHeader';
import type { PaymentSuccessPageProps } from './views/success/PaymentSuccessPage';
import { LoadingStatus } from './views/shared/Spinner';

/** The success page, the 404 page and the owner's console are their own chunks (src/pageChunks.ts). */
const PaymentSuccessPage = lazy(() => loadPaymentSuccessPage().then((module) => ({ default: module.PaymentSuccessPage })));
const NotFoundPage = lazy(() => loadNotFoundPage().then((module) => ({ default: module.NotFoundPage })));
/** The buyer's manage page and the owner's console: chunks the checkout never loads. */
const AccountPage = lazy(() => loadAccountPage().then((module) => ({ default: module.AccountPage })));
const JoinPage = lazy(() => loadJoinPage().then((module) => ({ default: module.JoinPage })));
const AdminPage = lazy(() => loadAdminPage().then((module) => ({ default: module.AdminPage })));
/** The training platform's sign-in page (prerendered, then hydrated). */
const SignInPage = lazy(() => loadSignInPage().then((module) => ({ default: module.SignInPage })));
/** A team member's "set a new password" page (a chunk of its own, its loading state prerendered). */
const NewPasswordPage = lazy(() => loadNewPasswordPage().then((module) => ({ default: module.NewPasswordPage })));
/** The referrer's own page: a chunk of its own, prerendered in its loading state. */
const PartnerPage = lazy(() => loadPartnerPage().then((module) => ({ default: module.PartnerPage })));

interface AppProps {
  /** Passed to the checkout page (tests replace the machine's server actors). */
  checkout?: CheckoutPageProps;
  /** Passed to the success page. */
  paymentSuccess?: PaymentSuccessPageProps;
}

/**
 * The routes of spec §2: /, /index, /payment-success, and a 404 for anything else; the buyer's /account and the
 * owner's /admin. Every page carries the brand: the checkout its own header, the success page and /account the
 * product's header with what they add to it, and the other pages the same header, drawn here once, before their
 * chunk arrives (and in their prerendered HTML).
 */
export function App({ checkout, paymentSuccess }: AppProps) {
  // A screen reader announces the page a link or a navigation led to: its heading takes the focus.
  useHeadingFocusOnRouteChange();
  return (
    <Switch>
      <Route path={PAGE_PATHS.checkout}>
        <CheckoutPage {...checkout} />
      </Route>
      <Route path={PAGE_PATHS.index} component={RedirectToHomePage} />
      <Route path={PAGE_PATHS.paymentSuccess}>
        {/* The success page's own first words (spec §4) while its chunk arrives. */}
        <Suspense fallback={<LoadingStatus>Loading payment details...</LoadingStatus>}>
          <PaymentSuccessPage {...paymentSuccess} />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.account}>
        <Suspense fallback={null}>
          <AccountPage />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.signIn}>
        <SiteHeader />
        <Suspense fallback={null}>
          <SignInPage />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.newPassword}>
        <SiteHeader />
        {/* The page's first words while its chunk arrives (prerendered: dist/new-password.html). */}
        <Suspense fallback={<LoadingStatus>Opening your link...</LoadingStatus>}>
          <NewPasswordPage />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.partner}>
        <SiteHeader />
        <Suspense fallback={null}>
          <PartnerPage />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.join}>
        <SiteHeader />
        {/* The join page's first words while its chunk arrives (prerendered: dist/join.html). */}
        <Suspense fallback={<LoadingStatus>Opening your invitation...</LoadingStatus>}>
          <JoinPage />
        </Suspense>
      </Route>
      <Route path={PAGE_PATHS.admin} nest>
        <SiteHeader />
        <Suspense fallback={null}>
          <AdminPage />
        </Suspense>
      </Route>
      <Route>
        <Suspense fallback={null}>
          <NotFoundPage />
        </Suspense>
      </Route>
    </Switch>
  );
}
