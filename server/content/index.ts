/**
 * The offer's editable copy (table offer_content): the console saves it, the offer page reads it for each request.
 */
export { offerContentSaved, pageContentOf, readOfferContent, saveOfferContent } from './offerContent';
