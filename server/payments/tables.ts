/** The payment providers' tables: the sandbox keeps its own (Stripe keeps its records at Stripe). */
export * from './sandbox/tables';
