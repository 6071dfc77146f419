/**
 * Stripe in the browser tests: a small stand-in for Stripe.js, served for `https://js.stripe.com/…` through
 * Playwright's request routing, and the few Stripe addresses it talks to, answered from the stateful Stripe
 * double (test/server/helpers/statefulStripe.ts) that the server under test also calls.
 *
 * The stand-in implements what the checkout calls (Stripe.js reference): `Stripe(key)`, `elements({ clientSecret })`,
 * `elements.create('payment')` with `mount`, `on('ready' | 'change')`, `update({ readOnly })`, `focus`, `destroy`,
 * `elements.submit()`, `createConfirmationToken({ elements, params })` (POST /v1/confirmation_tokens, answered with the
 * token's `payment_method_preview.billing_details.address`) and `confirmPayment({ clientSecret, confirmParams: {
 * confirmation_token }, redirect: 'if_required' })`. Its card fields are plain inputs
 * labelled as the sandbox card form's (Card number, Expiration date, Security code, ZIP, Country preset to the US), so the buyer's steps in
 * checkoutFlow.ts fill both. Confirming posts to `api.stripe.com/v1/payment_intents/:id/confirm`, which the test
 * answers by paying the double's PaymentIntent with Stripe's test cards: 4242 succeeds, 0002 declines, 3155 asks for
 * 3-D Secure, which the stand-in completes by the redirect flow (hooks.stripe.com, then the return address with
 * `payment_intent`, `payment_intent_client_secret` and `redirect_status`).
 */
import type { BrowserContext, Route } from 'playwright-core';
import type { StatefulStripe } from '../server/helpers/statefulStripe';
import { TEST_SECRET_KEY } from '../server/helpers/stripeDouble';

/** The stand-in's source. A string, so that the TypeScript runner's helpers stay out of the page. */
const STRIPE_JS = String.raw`
(() => {
  const COUNTRIES = [
    ['US', 'United States'],
    ['CA', 'Canada'],
    ['GB', 'United Kingdom'],
  ];
  const FIELDS = [
    ['number', 'Card number', 'cc-number', '1234 1234 1234 1234'],
    ['expiry', 'Expiration date', 'cc-exp', 'MM / YY'],
    ['cvc', 'Security code', 'cc-csc', 'CVC'],
    ['postalCode', 'ZIP', 'postal-code', '12345'],
  ];
  let fieldIds = 0;
  const seen = (window.__stripeStandIn = { elementsClientSecrets: [] });

  function createPaymentElement(group, options) {
    const listeners = new Map();
    const emit = (event, payload) => [...(listeners.get(event) || [])].forEach((listener) => listener(payload));
    const inputs = {};
    let root = null;
    let message = null;
    let readOnly = Boolean(options && options.readOnly);
    const values = () => Object.fromEntries(Object.entries(inputs).map(([name, input]) => [name, input.value.trim()]));
    const element = {
      mount(target) {
        const parent = typeof target === 'string' ? document.querySelector(target) : target;
        root = document.createElement('div');
        root.setAttribute('data-stripe-stand-in', 'payment');
        // The Payment Element's card tab asks for the country (preset from the buyer's locale) beside the ZIP.
        const countryId = 'stripe-stand-in-country-' + ++fieldIds;
        const countryLabel = document.createElement('label');
        countryLabel.htmlFor = countryId;
        countryLabel.textContent = 'Country';
        const country = document.createElement('select');
        Object.assign(country, { id: countryId, name: 'stripe-country', autocomplete: 'country', disabled: readOnly });
        for (const [code, name] of COUNTRIES) country.append(new Option(name, code));
        country.value = 'US';
        inputs.country = country;
        for (const [name, label, autocomplete, placeholder] of FIELDS) {
          const id = 'stripe-stand-in-' + name + '-' + ++fieldIds;
          const labelElement = document.createElement('label');
          labelElement.htmlFor = id;
          labelElement.textContent = label;
          const input = document.createElement('input');
          Object.assign(input, { id, name: 'stripe-' + name, autocomplete, placeholder, readOnly });
          input.addEventListener('input', () => {
            const { country: _country, ...typedFields } = values();
            const typed = Object.values(typedFields);
            emit('change', {
              elementType: 'payment',
              empty: typed.every((value) => value === ''),
              complete: typed.every((value) => value !== ''),
              value: { type: 'card' },
            });
          });
          inputs[name] = input;
          root.append(labelElement, input);
        }
        root.append(countryLabel, country);
        message = document.createElement('p');
        root.append(message);
        parent.append(root);
        setTimeout(() => emit('ready', { elementType: 'payment' }), 0);
      },
      on(event, listener) {
        listeners.set(event, [...(listeners.get(event) || []), listener]);
        return element;
      },
      off(event, listener) {
        listeners.set(event, (listeners.get(event) || []).filter((each) => each !== listener));
        return element;
      },
      update(changes) {
        if (changes && 'readOnly' in changes) {
          readOnly = Boolean(changes.readOnly);
          Object.values(inputs).forEach((input) => (input.readOnly = readOnly));
          inputs.country.disabled = readOnly;
        }
      },
      focus() {
        if (inputs.number) inputs.number.focus();
      },
      blur() {},
      clear() {
        Object.values(inputs).forEach((input) => input !== inputs.country && (input.value = ''));
      },
      collapse() {},
      unmount() {
        if (root) root.remove();
      },
      destroy() {
        if (root) root.remove();
        root = null;
        listeners.clear();
      },
      values,
      showError(text) {
        if (message) message.textContent = text;
      },
    };
    group.payment = element;
    return element;
  }

  function incompleteMessage(card) {
    if (card.number.replace(/\D/g, '').length < 15) return 'Your card number is incomplete.';
    if (!/^\d{2} ?\/ ?\d{2}$/.test(card.expiry)) return "Your card's expiration date is incomplete.";
    if (card.cvc.length < 3) return "Your card's security code is incomplete.";
    if (card.country === 'US' && card.postalCode === '') return 'Your ZIP is incomplete.';
    return null;
  }

  const unused = (name) => () => Promise.reject(new Error('The Stripe.js stand-in has no ' + name));

  function Stripe(publishableKey) {
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      // What @stripe/react-stripe-js checks a Stripe object by; the checkout never calls them.
      createToken: unused('createToken'),
      createPaymentMethod: unused('createPaymentMethod'),
      confirmCardPayment: unused('confirmCardPayment'),
      elements(options) {
        seen.elementsClientSecrets.push(options.clientSecret);
        const group = { payment: null, submitted: false };
        return {
          // Stripe.js: checks the Payment Element's fields and shows their errors under them; resolves with
          // { error } (a validation_error) or {}. Required before createConfirmationToken.
          async submit() {
            const element = group.payment;
            const incomplete = incompleteMessage(element.values());
            group.submitted = !incomplete;
            if (incomplete) {
              element.showError(incomplete);
              return { error: { type: 'validation_error', message: incomplete } };
            }
            element.showError('');
            return {};
          },
          group,
          create(type, elementOptions) {
            if (type !== 'payment') throw new Error('The Stripe.js stand-in has only the Payment Element, not ' + type);
            return createPaymentElement(group, elementOptions);
          },
          getElement(type) {
            return type === 'payment' ? group.payment : null;
          },
          update() {},
          clientSecret: options.clientSecret,
        };
      },
      // Stripe.js: after elements.submit(), turns the Payment Element's card and params into a ConfirmationToken
      // (POST /v1/confirmation_tokens); resolves with { confirmationToken } or { error }.
      async createConfirmationToken({ elements, params }) {
        if (!elements.group.submitted) {
          throw new Error('elements.submit() must be called before stripe.createConfirmationToken().');
        }
        const card = elements.getElement('payment').values();
        const billing = ((params || {}).payment_method_data || {}).billing_details || {};
        const body = new URLSearchParams({
          key: publishableKey,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': card.number.replace(/\D/g, ''),
          'payment_method_data[billing_details][name]': billing.name || '',
          'payment_method_data[billing_details][email]': billing.email || '',
          'payment_method_data[billing_details][address][country]': card.country,
          'payment_method_data[billing_details][address][postal_code]': card.postalCode,
        });
        if (params && params.return_url) body.set('return_url', params.return_url);
        const response = await fetch('https://api.stripe.com/v1/confirmation_tokens', { method: 'POST', body });
        const answer = await response.json();
        return answer.error ? { error: answer.error } : { confirmationToken: answer };
      },
      // Stripe.js: confirms the PaymentIntent of clientSecret (or of the elements' client secret) with the
      // ConfirmationToken in confirmParams, or with the Payment Element's card.
      async confirmPayment({ elements, clientSecret, confirmParams, redirect }) {
        const secret = clientSecret || elements.clientSecret;
        const body = new URLSearchParams({ key: publishableKey, client_secret: secret, return_url: confirmParams.return_url });
        if (confirmParams.confirmation_token) {
          body.set('confirmation_token', confirmParams.confirmation_token);
        } else {
          const element = elements.getElement('payment');
          const card = element.values();
          const incomplete = incompleteMessage(card);
          if (incomplete) {
            element.showError(incomplete);
            return { error: { type: 'validation_error', message: incomplete } };
          }
          element.showError('');
          const billing = (confirmParams.payment_method_data || {}).billing_details || {};
          body.set('payment_method_data[type]', 'card');
          body.set('payment_method_data[card][number]', card.number.replace(/\D/g, ''));
          body.set('payment_method_data[billing_details][name]', billing.name || '');
          body.set('payment_method_data[billing_details][email]', billing.email || '');
        }
        const id = secret.split('_secret_')[0];
        const response = await fetch('https://api.stripe.com/v1/payment_intents/' + id + '/confirm', { method: 'POST', body });
        const answer = await response.json();
        if (answer.error) return { error: answer.error };
        const next = answer.next_action;
        if (answer.status === 'requires_action' && next && next.type === 'redirect_to_url') {
          if (redirect !== 'if_required' && redirect !== 'always') throw new Error('unexpected redirect option ' + redirect);
          window.location.assign(next.redirect_to_url.url);
          return new Promise(() => {});
        }
        return { paymentIntent: answer };
      },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();
`;

/** Stripe's test cards, by the digits the stand-in sends. */
const DECLINED = '4000000000000002';
const REQUIRES_AUTHENTICATION = '4000002500003155';

/** What the test can read back: every client secret confirmed, in order. */
export interface StripeStandIn {
  confirmedClientSecrets: string[];
}

const json = (route: Route, status: number, body: unknown) =>
  route.fulfill({
    status,
    contentType: 'application/json',
    headers: { 'access-control-allow-origin': '*' },
    body: JSON.stringify(body),
  });

/**
 * Serves the Stripe.js stand-in and answers its Stripe addresses from `double` for every page of `context`.
 */
export async function routeStripe(context: BrowserContext, double: StatefulStripe): Promise<StripeStandIn> {
  const standIn: StripeStandIn = { confirmedClientSecrets: [] };
  const intentStatus = async (id: string): Promise<string> => {
    const answer = await fetch(`${double.url}/v1/payment_intents/${id}`, { headers: { authorization: `Bearer ${TEST_SECRET_KEY}` } });
    return ((await answer.json()) as { status: string }).status;
  };

  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: STRIPE_JS }),
  );

  // POST /v1/confirmation_tokens: Stripe keeps the card and its billing details under a ctoken_ id and answers
  // the ConfirmationToken with its payment_method_preview (Stripe API, "The ConfirmationToken object").
  const confirmationTokens = new Map<string, { number: string; billing: { name: string; email: string } }>();
  await context.route('https://api.stripe.com/v1/confirmation_tokens', async (route) => {
    const params = new URLSearchParams(route.request().postData() ?? '');
    const field = (name: string) => params.get(`payment_method_data[billing_details][${name}]`) ?? '';
    const number = params.get('payment_method_data[card][number]') ?? '';
    const id = `ctoken_${confirmationTokens.size + 1}${Date.now().toString(36)}`;
    const billing = { name: field('name'), email: field('email') };
    confirmationTokens.set(id, { number, billing });
    const address = {
      city: null,
      country: field('address][country'),
      line1: null,
      line2: null,
      postal_code: field('address][postal_code'),
      state: null,
    };
    return json(route, 200, {
      id,
      object: 'confirmation_token',
      livemode: false,
      return_url: params.get('return_url'),
      payment_method_preview: {
        type: 'card',
        billing_details: { ...billing, phone: null, address },
        card: { brand: 'visa', last4: number.slice(-4), country: 'US' },
      },
    });
  });

  await context.route('https://api.stripe.com/v1/payment_intents/*/confirm', async (route) => {
    const params = new URLSearchParams(route.request().postData() ?? '');
    const clientSecret = params.get('client_secret') ?? '';
    const id = clientSecret.split('_secret_')[0] ?? '';
    const tokenId = params.get('confirmation_token');
    const token = tokenId === null ? undefined : confirmationTokens.get(tokenId);
    if (tokenId !== null && !token) {
      return json(route, 400, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such confirmationtoken: '${tokenId}'` },
      });
    }
    const number = token?.number ?? params.get('payment_method_data[card][number]') ?? '';
    const billing = token?.billing ?? {
      name: params.get('payment_method_data[billing_details][name]') ?? '',
      email: params.get('payment_method_data[billing_details][email]') ?? '',
    };
    standIn.confirmedClientSecrets.push(clientSecret);
    const declines = number === DECLINED;
    const authentication = number === REQUIRES_AUTHENTICATION;
    const paid = double.pay(clientSecret, billing, { declines, authentication });
    const status = await intentStatus(id);
    if (declines && status === 'requires_payment_method') {
      return json(route, 402, {
        error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      });
    }
    if (!paid) {
      return json(route, 400, {
        error: {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `This PaymentIntent's status is ${status}, so it cannot be confirmed.`,
        },
      });
    }
    const returnUrl = params.get('return_url') ?? '';
    const authenticate = new URL('https://hooks.stripe.com/3d_secure_2/authenticate');
    authenticate.search = new URLSearchParams({ client_secret: clientSecret, return_url: returnUrl }).toString();
    return json(route, 200, {
      id,
      object: 'payment_intent',
      status,
      client_secret: clientSecret,
      next_action:
        status === 'requires_action'
          ? { type: 'redirect_to_url', redirect_to_url: { url: authenticate.toString(), return_url: returnUrl } }
          : null,
    });
  });

  // Stripe's 3-D Secure page: the buyer completes it, and returns to return_url as Stripe sends them back.
  await context.route('https://hooks.stripe.com/**', async (route) => {
    const url = new URL(route.request().url());
    const clientSecret = url.searchParams.get('client_secret') ?? '';
    const returnUrl = url.searchParams.get('return_url') ?? '';
    if (url.pathname === '/3d_secure_2/authenticate') {
      const complete = new URL('/3d_secure_2/complete', url);
      complete.search = url.search;
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><title>3D Secure</title><h1>Authenticate this payment</h1><a href="${complete.toString()}">Complete authentication</a>`,
      });
    }
    const succeeded = double.authenticate(clientSecret);
    const back = new URL(returnUrl);
    back.searchParams.set('payment_intent', clientSecret.split('_secret_')[0] ?? '');
    back.searchParams.set('payment_intent_client_secret', clientSecret);
    back.searchParams.set('redirect_status', succeeded ? 'succeeded' : 'failed');
    return route.fulfill({ status: 302, headers: { location: back.toString() } });
  });
  return standIn;
}
