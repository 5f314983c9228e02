// Cart recovery's face: what other code may call. carts.ts holds the public and operator use cases
// and the analytics; contact.ts the recovery e-mail and the processor.
// - the recovery processor and when it next has work (cron; tests run it on a test clock): processCartRecovery, nextCartDue
export { processCartRecovery, nextCartDue } from './contact';
