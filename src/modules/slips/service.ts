// The slips module's face (the logic is in queries.ts, write.ts, fit.ts, subscription.ts). Other modules use it for:
// - slip reads: getSlipRow, slipRowAnyOperator, slipRowsByIds, slipRowsOfLocation, slipRowsOnMap, unassignedSlipRows
// - statements batched into their own commit: slipOccupancyStmt (reservations), clearMapPinsStmt, slipPinStmt (maps)
// - the fit check and unit vocabulary: fitUnit, BoatDimensions, FitRefusal, UnitType, UNIT_TYPES, CLOSED_SLIP_STATUSES
// - the slip view and schema: slipOut, SlipRow, SlipSchema
// - the seed: bulkCreateSlips, createCheckout, subscriptionStatus
export { getSlipRow, slipRowAnyOperator, slipRowsByIds, slipRowsOfLocation, slipRowsOnMap, unassignedSlipRows } from './queries';
export { bulkCreateSlips, clearMapPinsStmt, slipOccupancyStmt, slipPinStmt } from './write';
export { createCheckout, subscriptionStatus } from './subscription';
export { fitUnit } from './fit';
export { slipOut, type SlipRow } from './views';
export { Slip as SlipSchema } from './schemas';
export { CLOSED_SLIP_STATUSES, UNIT_TYPES, type BoatDimensions, type FitRefusal, type UnitType } from './types';
