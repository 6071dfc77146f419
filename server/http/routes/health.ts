/**
 * GET /healthz: 200 `{ status: 'ok' }` when the database answers `select 1`, else 503 (for load balancers). With
 * Stripe, also `stripeWebhook.apiVersion`: the pinned version, the last event's, and whether they match.
 */
import type { FastifyPluginAsync } from 'fastify';
import { pingDatabase } from '../../db/client';
import { HttpError } from '../httpError';
import type { Database } from '../../db/client';

/**
 * The API version of the webhook events this process received, against the version the server is pinned to.
 * Stripe builds an event's payload for the endpoint's API version, not the SDK's: a mismatch means payloads the
 * handlers may not read (docs/operations.md).
 */
export interface WebhookStatus {
  apiVersion?: { expected: string; lastReceived: string | null; matches: boolean };
}

interface HealthOptions {
  db: Database;
  /** Filled by the Stripe webhook route, when it is registered. */
  webhookStatus: WebhookStatus;
}

export const healthRoute: FastifyPluginAsync<HealthOptions> = async (app, { db, webhookStatus }) => {
  app.get('/healthz', async (request) => {
    try {
      await pingDatabase(db);
    } catch (error) {
      request.log.error({ err: error }, 'Health check: the database did not answer');
      throw new HttpError(503, 'Database unavailable');
    }
    return webhookStatus.apiVersion ? { status: 'ok', stripeWebhook: { apiVersion: webhookStatus.apiVersion } } : { status: 'ok' };
  });
};
