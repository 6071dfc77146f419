import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../http/httpError';
import { findOrder, type Order, type OrderServices } from '../../checkout';
import { buyerSessionRules, sessionKeeper, SIGN_IN_AGAIN, type SessionKeeper } from '../../sessions/sessions';

export interface AccountRouteOptions extends OrderServices {
  /** A link or a change's mail should not wait for the next run. */
  nudgeOutbox: () => void;
  buyerSessions: SessionKeeper;
  /** @throws HttpError 401 without a live session (or for an unpaid order). */
  sessionOrder: (request: FastifyRequest) => Promise<Order>;
  signedInOrder: (request: FastifyRequest) => Promise<Order | null>;
}

export function accountRouteOptions(services: OrderServices & { nudgeOutbox: () => void }): AccountRouteOptions {
  const buyerSessions = sessionKeeper(services.db, services.config, buyerSessionRules(services.config));
  const signedInOrder = async (request: FastifyRequest): Promise<Order | null> => {
    const session = await buyerSessions.current(request);
    const order = session ? await findOrder(services.db, session.subject) : undefined;
    return order && order.status !== 'open' ? order : null;
  };
  const sessionOrder = async (request: FastifyRequest): Promise<Order> => {
    const order = await signedInOrder(request);
    if (!order) throw new HttpError(401, SIGN_IN_AGAIN);
    return order;
  };
  return { ...services, buyerSessions, sessionOrder, signedInOrder };
}
