/**
 * Calls to the payment provider from the order steps: a failure is logged with the step's name and answered
 * with 502 (the provider, not the buyer, failed), never a 500 and never half-written order rows.
 */
import type { FastifyBaseLogger } from 'fastify';
import { CHECKOUT_ERRORS, HttpError } from '../http/httpError';

/**
 * Runs `call` and returns its result.
 * @throws HttpError 502 when the provider call rejects; the cause is logged, not shown.
 */
export async function callProvider<T>(log: FastifyBaseLogger, step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.error({ err: error, step }, 'Payment provider call failed');
    throw new HttpError(502, CHECKOUT_ERRORS.providerUnavailable);
  }
}
