/**
 * The referrer the offer page names ('For Friends of Dr. {name} Only', the hero quote, the affiliate_id of
 * call 1), as both sides agree on it: the build renders placeholders (src/prerender.tsx), the server replaces them
 * per request and writes the referrer as JSON into `<script id="offer-referrer">` (server/referrals/offerPage.ts),
 * the page reads it once (src/content/offerReferrer.ts). The sample referrer is seeded into the referrers table on
 * first start (server/referrals/referrers.ts) and named when the page carries no referrer; referrers are managed
 * in the owner's console.
 */

/** The sample referrer: the seeded first row, and what the page names without a referrer of its own. */
export const sampleReferrer = {
  /** Shown in the badge and the hero quote. */
  name: 'Sample',
  /** The referrer's short label, sent as affiliate_id with the create call (spec §3). */
  shortLabel: 'dr-sample',
  /** The referrer's quote in the hero; clicking it scrolls to the checkout form. */
  quote:
    'I built these AI systems for my own practice and got my evenings back. I am opening this to friends only, because I want to support the people who will actually use it.',
} as const;

/** The id of the `<script type="application/json">` element carrying the referrer. */
export const OFFER_REFERRER_ELEMENT_ID = 'offer-referrer';

/**
 * What the build renders in place of the referrer (src/prerender.tsx); the server replaces each per request.
 * Plain ASCII that React's HTML escaping leaves as it is.
 */
export const REFERRER_PLACEHOLDERS = {
  name: '__OFFER_REFERRER_NAME__',
  shortLabel: '__OFFER_REFERRER_SHORT_LABEL__',
  quote: '__OFFER_REFERRER_QUOTE__',
} as const;
