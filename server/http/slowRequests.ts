/**
 * A bound on how long a client may take to send a request: Node's `requestTimeout` stops at the headers, and a body
 * trickled in afterwards is not bounded (checked). A request still receiving after `timeoutMs` is answered 408 and
 * its socket closed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const SLOW_REQUEST_ERROR = 'The request took too long to arrive.';

export function boundRequestArrival(app: FastifyInstance, timeoutMs: number): void {
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  const clear = (request: FastifyRequest) => {
    clearTimeout(timers.get(request));
    timers.delete(request);
  };
  app.addHook('onRequest', async (request) => {
    const timer = setTimeout(() => {
      timers.delete(request);
      const socket = request.raw.socket;
      if (request.raw.complete || socket.destroyed) return;
      request.log.warn({ timeoutMs }, 'Request body did not arrive in time; connection closed');
      const body = JSON.stringify({ error: SLOW_REQUEST_ERROR });
      socket.end(
        `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      socket.destroySoon();
    }, timeoutMs);
    timer.unref();
    timers.set(request, timer);
  });
  app.addHook('preValidation', async (request) => clear(request));
  app.addHook('onResponse', async (request) => clear(request));
  app.addHook('onRequestAbort', async (request) => clear(request));
}
