/** The team statechart as a React context (src/machines/teamMachine.ts). */
import { createActorContext } from '@xstate/react';
import { teamMachine } from '../../machines/teamMachine';

export const TeamActor = createActorContext(teamMachine);

/** The section's machine; tests pass `teamMachine.provide({ actors: … })`. */
export type TeamLogic = typeof teamMachine;
