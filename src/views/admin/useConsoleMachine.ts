import { useMachine } from '@xstate/react';
import { useEffect, useEffectEvent } from 'react';
import type { AnyStateMachine } from 'xstate';

/**
 * Runs a console screen's statechart for as long as the screen is shown, and calls `onUnauthorised` when it emits
 * 'unauthorised' (the session ended), so the console can show its sign-in form. Answers useMachine's snapshot,
 * send and actor.
 */
export function useConsoleMachine<TMachine extends AnyStateMachine>(machine: TMachine, onUnauthorised: () => void) {
  const [snapshot, send, actor] = useMachine(machine);
  const unauthorised = useEffectEvent(onUnauthorised);
  useEffect(() => {
    const subscription = actor.on('unauthorised', () => unauthorised());
    return () => subscription.unsubscribe();
  }, [actor]);
  return [snapshot, send, actor] as const;
}
