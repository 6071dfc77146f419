/** The success-page statechart as a React context. */
import { createActorContext } from '@xstate/react';
import { paymentSuccessMachine } from '../../machines/paymentSuccessMachine';

export const PaymentSuccessActor = createActorContext(paymentSuccessMachine);

/** The page's machine; tests pass `paymentSuccessMachine.provide({ actors: … })`. */
export type PaymentSuccessLogic = typeof paymentSuccessMachine;
