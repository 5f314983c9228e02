// Affiliates service: records.ts (IDs, create, list, delete, payouts, rate, manual commissions) and
// earnings.ts (commissions from referred and promo-coded bookings, recalculation).
export { checkAvailability, createAffiliate, listAffiliates, deleteAffiliate, updateAffiliate } from './records';
export { onBookingPlaced, recalculate } from './earnings';
