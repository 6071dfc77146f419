/**
 * How the page reads the referrer the server wrote into it (src/domain/offerReferrer.ts: the element and the
 * sample), and hands it to the views. Without it (tests, an older build) the page names the sample referrer.
 */
import { createContext, useContext } from 'react';
import type { OfferReferrer } from '../contract/admin';
import { OFFER_REFERRER_ELEMENT_ID, sampleReferrer } from '../domain/offerReferrer';

const SAMPLE: OfferReferrer = sampleReferrer;

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
