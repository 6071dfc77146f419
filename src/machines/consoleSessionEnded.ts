/**
 * The console session ending, the same for every console statechart: any console call answered 401 means the
 * session ended (server/sessions/), and the statechart emits `unauthorised` so the console shows its sign-in form
 * instead of an error (the view hears it through src/views/admin/useSessionEnded.ts).
 */
import { ApiError } from '../api/client';

/** Guard: the call's failure (its error event's `error`, see actorError.ts) is the console session ending. */
export const sessionEnded = (_: unknown, error: unknown): boolean => error instanceof ApiError && error.status === 401;
