/**
 * Calls to the payment provider from the order steps: a failure is logged with the step's name and ends the step
 * with the refusal 'provider_unavailable' (the provider, not the buyer, failed), never half-written order rows.
 */
import type { FastifyBaseLogger } from 'fastify';
import { refuse } from './outcome';

/**
 * Runs `call` and returns its result; on failure logs the cause and refuses with 'provider_unavailable'
 * (inside an outcomeOf, server/checkout/outcome.ts).
 */
export async function callProvider<T>(log: FastifyBaseLogger, step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.error({ err: error, step }, 'Payment provider call failed');
    return refuse('provider_unavailable');
  }
}
