/** Error raised for any failed call of src/api; `message` is what the buyer is shown. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, or 0 when the server could not be reached. */
    readonly status: number,
    /** The error response's JSON body, when it had one (e.g. a 428's challenge). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
