/** Reading the redirect return's parameters from /payment-success's query string. */
import { describe, expect, it } from 'vitest';
import { readPaymentReturn } from '../../src/api/paymentReturn';

describe('readPaymentReturn', () => {
  it('reads what Stripe.js appends to the return URL, with or without the leading ?', () => {
    const search = 'payment_intent=pi_3Abc&payment_intent_client_secret=pi_3Abc_secret_Xyz&redirect_status=succeeded';
    const expected = { paymentIntentId: 'pi_3Abc', clientSecret: 'pi_3Abc_secret_Xyz', redirectStatus: 'succeeded' };
    expect(readPaymentReturn(search)).toEqual(expected);
    expect(readPaymentReturn(`?${search}`)).toEqual(expected);
  });

  it('keeps a missing redirect_status as null', () => {
    expect(readPaymentReturn('?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_2')).toMatchObject({ redirectStatus: null });
  });

  it.each([
    ['nothing', ''],
    ['only the PaymentIntent', '?payment_intent=pi_1'],
    ['only the client secret', '?payment_intent_client_secret=pi_1_secret_2'],
    ['blank values', '?payment_intent=%20&payment_intent_client_secret='],
  ])('is null for %s', (_case, search) => {
    expect(readPaymentReturn(search)).toBeNull();
  });
});
