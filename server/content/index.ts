export { offerContentSaved, pageContentOf, readOfferContent, saveOfferContent } from './offerContent';
