/**
 * The analytics module's face. Others use it for:
 * - revenue targets (the seed): setRevenueTarget;
 * - reading the ledger the way every report does (the financial reports of modules/reports): the one
 *   revenue definition (LedgerSums, the entry kinds and the counted entries), local days in SQL, and
 *   the one-batch report read over the caller's locations.
 * Metrics, performance, year over year, realization, forecast and widget metrics are reached
 * through its router only.
 */
export { setRevenueTarget } from './targets';
export { countedEntry, kindOf, KEPT_TYPES, LedgerSums, type Kind } from './ledger-sql';
export { dayRange, datesBetween, localDateOfIso, offsetSegments } from './local-days';
export { reportBatch, type AnalyticsLocation } from './queries';
export { lit } from './sql-literals';
