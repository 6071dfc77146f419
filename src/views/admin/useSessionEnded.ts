import { useEffect, useEffectEvent } from 'react';
import type { AnyActorRef } from 'xstate';

/**
 * Calls `onUnauthorised` when the console statechart `actor` emits 'unauthorised' (its call was answered 401:
 * src/machines/consoleSessionEnded.ts), so the console shows its sign-in form; the latest handler is called.
 */
export function useSessionEnded(actor: AnyActorRef, onUnauthorised: () => void): void {
  const unauthorised = useEffectEvent(onUnauthorised);
  useEffect(() => {
    const subscription = actor.on('unauthorised', () => unauthorised());
    return () => subscription.unsubscribe();
  }, [actor]);
}
