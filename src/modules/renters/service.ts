// The renters module's face. Other code uses it for:
// - upserting a renter inside another module's commit (bookings, waivers, memberships, slips, haul services):
//   renterUpsert, isRenterEmailConflict, renterByEmailStatement, waiverSignedStmt, RenterUpsert, RenterUpsertInput;
// - reading renters: getRenterInTenant, findRenterByEmail, normalizeEmail, renterCreditsByCurrency, RenterRow;
// - the renter's cards at the payment provider (memberships, slip portal, bookings, self-service): attachPaymentMethod, listPaymentMethods,
//   paymentSetupIntent, renterDefaultCard;
// - the export page size (the renters tests): EXPORT_PAGE_SIZE.

export { renterUpsert, isRenterEmailConflict, waiverSignedStmt, type RenterUpsert, type RenterUpsertInput } from './upsert';
export { findRenterByEmail, renterByEmailStatement, getRenterInTenant, normalizeEmail, renterCreditsByCurrency } from './queries';
export type { RenterRow } from './views';
export { EXPORT_PAGE_SIZE } from './export';
export { attachPaymentMethod, listPaymentMethods, paymentSetupIntent, renterDefaultCard, type RenterCard } from './payment-methods';
