/**
 * How the checkout reads the server's seat limit (its MAX_SEATS) the server wrote into the page
 * (CHECKOUT_LIMITS_ELEMENT_ID): one source, the server's configuration. Without it (the build, an older server) the
 * default.
 */
import { CHECKOUT_LIMITS_ELEMENT_ID, DEFAULT_MAX_SEATS, MIN_SEATS } from '../domain/pricing';
import { readPageJson } from './pageJson';

/** The most seats the page may sell: the server's MAX_SEATS written into `document`, else DEFAULT_MAX_SEATS. */
export function readMaxSeats(document: Document | undefined): number {
  const maxSeats = document ? readPageJson(document, CHECKOUT_LIMITS_ELEMENT_ID)?.maxSeats : undefined;
  return typeof maxSeats === 'number' && Number.isInteger(maxSeats) && maxSeats >= MIN_SEATS ? maxSeats : DEFAULT_MAX_SEATS;
}
