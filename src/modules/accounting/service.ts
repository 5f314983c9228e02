// Accounting: the entry point other code imports. connection.ts (OAuth, business, bank account,
// GL mappings), journal.ts (the daily journal from the ledger), exports.ts (exports and their
// sending, called by the AccountingQueue Durable Object), queries.ts, views.ts.
export {
  connect,
  callback,
  integrationStatus,
  disconnect,
  businesses,
  chartOfAccounts,
  selectBusiness,
  setBankAccount,
  getGlMappings,
  setGlMappings,
} from './connection';
export { createExport, sendExport, dailyExports, nextDailyExport, MAX_ATTEMPTS, type SendOutcome } from './exports';
export { listExports } from './queries';
export { buildJournal, GL_ACCOUNTS, GL_KEYS } from './journal';
