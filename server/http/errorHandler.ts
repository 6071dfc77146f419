/**
 * Every error leaves as `{ "error": "…" }` (architecture.md): client mistakes are 400 in words
 * (./validationWords.ts), never 500; an id in the path that fails its schema is 404; an unhandled provider failure is
 * 502 with its browser-safe message; anything else is logged and answered 500 without details.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError, ProviderFailure } from './httpError';
import { describeValidation } from './validationWords';

const CLIENT_ERROR_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, message: 'Content-Type must be application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Content-Length does not match the body.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'The request body must be a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
};

const NO_SUCH_THING = 'Not found: nothing here has that id.';

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ error: error.message });
    if (error instanceof ProviderFailure) {
      request.log.error({ err: error, ...error.logFields }, 'Payment provider failed');
      return reply.code(502).send({ error: error.message });
    }
    if ('validation' in error && error.validation) {
      if (error.validationContext === 'params') return reply.code(404).send({ error: NO_SUCH_THING });
      return reply.code(400).send({ error: describeValidation(error.validation) });
    }
    const known = 'code' in error ? CLIENT_ERROR_MESSAGES[error.code] : undefined;
    if (known) return reply.code(known.status).send({ error: known.message });
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.code(400).send({ error: 'The request body is not valid JSON.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ error: error.message });
    request.log.error({ err: error }, 'Unexpected error');
    return reply.code(500).send({ error: 'Internal server error' });
  });
}
