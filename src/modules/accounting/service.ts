// Accounting's face: what other code may call. The logic lives beside it: connection.ts (OAuth,
// business, bank account, GL mappings), journal.ts (the daily journal from the ledger), exports.ts
// (exports and their sending), queries.ts, views.ts.
// - the AccountingQueue Durable Object, sending an export at the provider's pace: sendExport, MAX_ATTEMPTS
export { sendExport, MAX_ATTEMPTS } from './exports';
