/**
 * The product sold, its brand, and the limits both sides agree on.
 * Source: spec §3 ("productId (a fixed constant)") and §7 (the calls' bodies).
 */

/** The fixed productId sent with every call (spec §3). The server refuses any other. */
export const PRODUCT_ID = 'chiro-ai-training-monthly';

/** Name shown as the product on the success page and returned as loginDetails.productPurchased. */
export const PRODUCT_NAME = 'AI Training Subscription (Monthly)';

/** The brand: the header's logo and the name the mails go out under. */
export const brand = {
  name: 'Chiro AI Academy',
} as const;
