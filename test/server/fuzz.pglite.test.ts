/**
 * Every route the server registers, fuzzed on PGlite, and the Stripe webhook's signed malformed events
 * (./helpers/routeFuzz.ts says what is sent and what must hold). The other database has its own file, so the two
 * run side by side.
 */
import { fuzzEveryRoute } from './helpers/routeFuzz';

fuzzEveryRoute('pglite');
