/** An error the client is meant to see: its status and `{ "error": message }` (architecture.md). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** A payment provider's failure: the client gets 502 and the message, the log `logFields` too. */
export abstract class ProviderFailure extends Error {
  abstract readonly logFields: Record<string, unknown>;
}
