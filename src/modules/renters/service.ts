// Renters service: the entry point other code imports. The logic lives in the files next to it:
// list.ts (view, list queries and search), export.ts (CSV/JSON export), records.ts (reads, upsert,
// patch and delete), payment-methods.ts (the renter's customer and cards at the payment provider)
// and balances.ts (owing renters and journal entries).

export {
  renterUpsert,
  renterBalanceCents,
  findRenterByEmail,
  isRenterEmailConflict,
  normalizeEmail,
  renterEventData,
  type RenterRow,
  type RenterUpsert,
  type RenterUpsertInput,
} from './upsert';
export { listRenters, renterOut, searchSuggestions, type Accounting } from './list';
export { CSV_COLUMNS, EXPORT_PAGE_SIZE, exportRenters } from './export';
export { deleteRenter, getRenter, getRenterInTenant, patchRenter, upsertRenter } from './records';
export { attachPaymentMethod, listPaymentMethods, paymentSetupIntent } from './payment-methods';
export { journalEntries, OWING_THRESHOLD_CENTS, owingRenters } from './balances';
