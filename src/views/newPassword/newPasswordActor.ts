/** The new password page's statechart as a React context (src/machines/newPasswordMachine.ts). */
import { createActorContext } from '@xstate/react';
import { newPasswordMachine } from '../../machines/newPasswordMachine';

export const NewPasswordActor = createActorContext(newPasswordMachine);

/** The page's machine; tests pass `newPasswordMachine.provide({ actors: … })`. */
export type NewPasswordLogic = typeof newPasswordMachine;
