// Renters service: the entry point other code imports. The logic lives in the files next to it:
// views.ts (renter, accounting, suggestion and journal views), queries.ts (tenant-scoped reads,
// lists and search), upsert.ts (the renter upsert other modules put in their commit), edit.ts
// (POST /renters, patch and delete), export.ts (CSV/JSON export), payment-methods.ts (the
// renter's customer and cards at the payment provider) and balances.ts (owing renters and
// journal entries).

export { renterUpsert, isRenterEmailConflict, renterEventData, waiverSignedStmt, type RenterUpsert, type RenterUpsertInput } from './upsert';
export {
  findRenterByEmail,
  renterByEmailStatement,
  getRenter,
  getRenterInTenant,
  listRenters,
  normalizeEmail,
  renterBalanceCents,
  renterCreditsByCurrency,
  searchSuggestions,
} from './queries';
export { renterOut, type Accounting, type RenterRow } from './views';
export { CSV_COLUMNS, EXPORT_PAGE_SIZE, exportRenters } from './export';
export { deleteRenter, patchRenter, upsertRenter } from './edit';
export { attachPaymentMethod, listPaymentMethods, paymentSetupIntent } from './payment-methods';
export { journalEntries, OWING_THRESHOLD_CENTS, owingRenters } from './balances';
