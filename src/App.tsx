import { Route, Switch } from 'wouter';
import { PAGE_PATHS } from './pagePaths';
import { CheckoutPage, type CheckoutPageProps } from './views/checkout/CheckoutPage';
import { NotFoundPage } from './views/NotFoundPage';
import { RedirectToHomePage } from './views/RedirectToHomePage';
import { PaymentSuccessPage, type PaymentSuccessPageProps } from './views/success/PaymentSuccessPage';

interface AppProps {
  /** Passed to the checkout page (tests replace the machine's server actors). */
  checkout?: CheckoutPageProps;
  /** Passed to the success page. */
  paymentSuccess?: PaymentSuccessPageProps;
}

/** The routes of spec §2: /, /index, /payment-success, and a 404 for anything else. */
export function App({ checkout, paymentSuccess }: AppProps) {
  return (
    <Switch>
      <Route path={PAGE_PATHS.checkout}>
        <CheckoutPage {...checkout} />
      </Route>
      <Route path={PAGE_PATHS.index} component={RedirectToHomePage} />
      <Route path={PAGE_PATHS.paymentSuccess}>
        <PaymentSuccessPage {...paymentSuccess} />
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}
