// Deposits service: the entry point other code imports. The logic lives in the files next to it:
// views.ts (deposit and provider views), queries.ts (tenant-scoped reads), statements.ts (ledger
// memos, the rental's deposit summary, payment events), authorize.ts (authorizing and recording
// holds), capture-release.ts (capture and release) and provider-sync.ts (sync, audit and the
// card-reader connection token).

export { depositOut, statusFromIntent } from './views';
export { authorizeDeposit, postDeposit, SIMULATED_READERS, type AuthorizeInput } from './authorize';
export { captureDeposit, releaseDeposit } from './capture-release';
export { auditPreauths, connectionToken, syncMissingPreauth } from './provider-sync';
