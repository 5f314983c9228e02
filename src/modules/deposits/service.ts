// Deposits service: the entry point other code imports. The logic lives in the files next to it:
// records.ts (views, tenant reads, ledger and rental statements), authorize.ts (authorizing and
// recording holds), capture-release.ts (capture and release) and provider-sync.ts (sync, audit and
// the card-reader connection token).

export { depositOut, statusFromIntent } from './records';
export { authorizeDeposit, postDeposit, SIMULATED_READERS, type AuthorizeInput } from './authorize';
export { captureDeposit, releaseDeposit } from './capture-release';
export { auditPreauths, connectionToken, syncMissingPreauth } from './provider-sync';
