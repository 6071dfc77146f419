/** The manage page's statechart as a React context. */
import { createActorContext } from '@xstate/react';
import { accountMachine } from '../../machines/accountMachine';

export const AccountActor = createActorContext(accountMachine);

/** The page's machine; tests pass `accountMachine.provide({ actors: … })`. */
export type AccountLogic = typeof accountMachine;
