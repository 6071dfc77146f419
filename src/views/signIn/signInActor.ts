/** The sign-in page's statechart as a React context. */
import { createActorContext } from '@xstate/react';
import { signInMachine } from '../../machines/signInMachine';

export const SignInActor = createActorContext(signInMachine);

/** The page's machine; tests pass `signInMachine.provide({ actors: … })`. */
export type SignInLogic = typeof signInMachine;
