/**
 * The referrer the offer page names ('For Friends of Dr. {name} Only', the hero quote, the affiliate_id of
 * call 1). The server writes it into each page it sends (server/referrals/offerPage.ts) as JSON in
 * `<script id="offer-referrer">`; the page reads it once. Without it (tests, an older build) the page names the
 * sample referrer of ./offer.ts.
 */
import { createContext, useContext } from 'react';
import type { OfferReferrer } from '../contract/admin';
import { referrer as sampleReferrer } from './offer';

/** The id of the `<script type="application/json">` element carrying the referrer. */
export const OFFER_REFERRER_ELEMENT_ID = 'offer-referrer';

/**
 * What the build renders in place of the referrer (src/prerender.tsx); the server replaces each per request.
 * Plain ASCII that React's HTML escaping leaves as it is.
 */
export const REFERRER_PLACEHOLDERS: OfferReferrer = {
  name: '__OFFER_REFERRER_NAME__',
  shortLabel: '__OFFER_REFERRER_SHORT_LABEL__',
  quote: '__OFFER_REFERRER_QUOTE__',
};

const SAMPLE: OfferReferrer = { name: sampleReferrer.name, shortLabel: sampleReferrer.shortLabel, quote: sampleReferrer.quote };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The referrer written into `document`, or the sample referrer when there is none or it is malformed. */
export function readOfferReferrer(document: Document): OfferReferrer {
  const text = document.getElementById(OFFER_REFERRER_ELEMENT_ID)?.textContent;
  if (!text) return SAMPLE;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return SAMPLE;
    const { name, shortLabel, quote } = value as Record<string, unknown>;
    return isText(name) && isText(shortLabel) && isText(quote) ? { name, shortLabel, quote } : SAMPLE;
  } catch {
    return SAMPLE;
  }
}

/** The page's referrer for the views; src/mountApp.tsx provides the one read from the page. */
export const OfferReferrerContext = createContext<OfferReferrer>(SAMPLE);

/** The referrer the offer page names. */
export function useOfferReferrer(): OfferReferrer {
  return useContext(OfferReferrerContext);
}
