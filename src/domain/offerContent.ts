/**
 * The offer's content the owner edits in the console (/admin → Content): the testimonials of up to three
 * named practitioners (spec §1) and the guarantee's text beside the seal. As with the referrer
 * (src/domain/offerReferrer.ts), the build renders placeholders (src/prerender.tsx), the server fills them per
 * request and writes the content as JSON into `<script id="offer-content">` (server/referrals/offerPage.ts), and a
 * page drawn in the browser reads it from there (src/content/offerContent.ts). Until the owner enters
 * testimonials the page shows none: no invented names (docs/decisions/0030-offer-content-in-the-console.md).
 */
import { REFUND_GUARANTEE_DAYS } from './refunds';

/** One practitioner's testimonial: their name as it should read (e.g. 'Dr. Jane Smith'), practice and quote. */
export interface Testimonial {
  name: string;
  practice: string;
  quote: string;
}

/** What the offer page shows of the owner's content. */
export interface OfferContent {
  /** 0 to MAX_TESTIMONIALS testimonials, in the order shown. */
  testimonials: Testimonial[];
  /** The guarantee's text under the money-back seal. */
  guarantee: string;
}

/** Testimonials the page has room for (spec §1: three named practitioners). */
export const MAX_TESTIMONIALS = 3;

/** Longest name, practice and quote of a testimonial, and longest guarantee text, in characters. */
export const CONTENT_LIMITS = { name: 80, practice: 120, quote: 600, guarantee: 400 } as const;

/** The guarantee's text until the owner writes their own: the refund rule the console applies (decision 0024). */
export const DEFAULT_GUARANTEE = `${REFUND_GUARANTEE_DAYS}-day money-back guarantee: if the training is not for you, ask within ${REFUND_GUARANTEE_DAYS} days of your first payment and every dollar is refunded.`;

/** The content of a fresh install: no testimonials, the default guarantee. */
export const DEFAULT_OFFER_CONTENT: OfferContent = { testimonials: [], guarantee: DEFAULT_GUARANTEE };

/** The id of the `<script type="application/json">` element carrying the content. */
export const OFFER_CONTENT_ELEMENT_ID = 'offer-content';

/** Which testimonial an element shows in the built page: `data-offer-testimonial="{index}"`. */
export const TESTIMONIAL_SLOT_ATTRIBUTE = 'data-offer-testimonial';
/** The testimonials' section in the built page: hidden by the server when there are none. */
export const TESTIMONIALS_SECTION_ATTRIBUTE = 'data-offer-testimonials';

/** What the build renders in place of testimonial `index`'s fields; plain ASCII React leaves as it is. */
export function testimonialPlaceholders(index: number): Testimonial {
  return {
    name: `__OFFER_TESTIMONIAL_${index}_NAME__`,
    practice: `__OFFER_TESTIMONIAL_${index}_PRACTICE__`,
    quote: `__OFFER_TESTIMONIAL_${index}_QUOTE__`,
  };
}

/** What the build renders: every slot filled with placeholders, the guarantee a placeholder too. */
export const CONTENT_PLACEHOLDERS: OfferContent = {
  testimonials: Array.from({ length: MAX_TESTIMONIALS }, (_, index) => testimonialPlaceholders(index)),
  guarantee: '__OFFER_GUARANTEE__',
};
