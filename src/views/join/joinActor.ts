/** The /join page's statechart as a React context (src/machines/joinMachine.ts). */
import { createActorContext } from '@xstate/react';
import { joinMachine } from '../../machines/joinMachine';

export const JoinActor = createActorContext(joinMachine);

/** The page's machine; tests pass `joinMachine.provide({ actors: … })`. */
export type JoinLogic = typeof joinMachine;
