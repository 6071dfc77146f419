import { useMachine } from '@xstate/react';
import type { AnyStateMachine } from 'xstate';
import { useSessionEnded } from './useSessionEnded';

/**
 * Runs a console screen's statechart for as long as the screen is shown, and calls `onUnauthorised` when it emits
 * 'unauthorised' (the session ended), so the console can show its sign-in form. Answers useMachine's snapshot,
 * send and actor.
 */
export function useConsoleMachine<TMachine extends AnyStateMachine>(machine: TMachine, onUnauthorised: () => void) {
  const [snapshot, send, actor] = useMachine(machine);
  useSessionEnded(actor, onUnauthorised);
  return [snapshot, send, actor] as const;
}
