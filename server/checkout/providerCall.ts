import type { FastifyBaseLogger } from 'fastify';
import { refuse } from './outcome';

/** A failure is logged and refuses 'provider_unavailable': the provider, not the buyer, failed. */
export async function callProvider<T>(log: FastifyBaseLogger, step: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.error({ err: error, step }, 'Payment provider call failed');
    return refuse('provider_unavailable');
  }
}
