/** The failure of an invoked actor: its error event's `error`, as a guard's or an action's params. */
export const errorOf = ({ event }: { event: { error: unknown } }) => event.error;
