/**
 * How the page reads the owner's content the server wrote into it (src/domain/offerContent.ts: the element, the
 * default), and hands it to the views. Without it (tests, an older build) the page shows the default content: no
 * testimonials.
 */
import { createContext, useContext } from 'react';
import {
  CONTENT_LIMITS,
  DEFAULT_OFFER_CONTENT,
  MAX_TESTIMONIALS,
  OFFER_CONTENT_ELEMENT_ID,
  type OfferContent,
  type Testimonial,
} from '../domain/offerContent';
import { readPageJson } from './pageJson';

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length > 0 && value.length <= max;

function testimonialOf(value: unknown): Testimonial | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { name, practice, quote } = value as Record<string, unknown>;
  return isText(name, CONTENT_LIMITS.name) && isText(practice, CONTENT_LIMITS.practice) && isText(quote, CONTENT_LIMITS.quote)
    ? { name, practice, quote }
    : undefined;
}

/** The content written into `document`, or DEFAULT_OFFER_CONTENT when there is none or it is malformed. */
export function readOfferContent(document: Document): OfferContent {
  const value = readPageJson(document, OFFER_CONTENT_ELEMENT_ID);
  if (!value) return DEFAULT_OFFER_CONTENT;
  const { testimonials, guarantee } = value;
  if (!Array.isArray(testimonials) || testimonials.length > MAX_TESTIMONIALS || !isText(guarantee, CONTENT_LIMITS.guarantee))
    return DEFAULT_OFFER_CONTENT;
  const read = testimonials.map(testimonialOf);
  return read.every((each) => each !== undefined) ? { testimonials: read, guarantee } : DEFAULT_OFFER_CONTENT;
}

/** The page's content for the views; src/mountApp.tsx provides the one read from the page, the build placeholders. */
export const OfferContentContext = createContext<OfferContent>(DEFAULT_OFFER_CONTENT);

/** The owner's content the offer page shows. */
export function useOfferContent(): OfferContent {
  return useContext(OfferContentContext);
}
