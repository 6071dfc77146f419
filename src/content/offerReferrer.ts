/**
 * How the page reads the referrer the server wrote into it (src/domain/offerReferrer.ts: the element and the
 * sample), and hands it to the views. Without it (tests, an older build) the page names the sample referrer.
 */
import { createContext, useContext } from 'react';
import type { OfferReferrer } from '../contract/admin';
import { OFFER_REFERRER_ELEMENT_ID, sampleReferrer } from '../domain/offerReferrer';
import { readPageJson } from './pageJson';

const SAMPLE: OfferReferrer = sampleReferrer;

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The referrer written into `document`, or the sample referrer when there is none or it is malformed. */
export function readOfferReferrer(document: Document): OfferReferrer {
  const { name, shortLabel, quote } = readPageJson(document, OFFER_REFERRER_ELEMENT_ID) ?? {};
  return isText(name) && isText(shortLabel) && isText(quote) ? { name, shortLabel, quote } : SAMPLE;
}

/** The page's referrer for the views; src/mountApp.tsx provides the one read from the page. */
export const OfferReferrerContext = createContext<OfferReferrer>(SAMPLE);

/** The referrer the offer page names. */
export function useOfferReferrer(): OfferReferrer {
  return useContext(OfferReferrerContext);
}
