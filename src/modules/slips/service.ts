// Slips (marina units) and the slip subscription. Reads in queries.ts, writes in write.ts, the fit
// rules in fit.ts, the subscription in subscription.ts. Other marina modules import from here.
export {
  getSlip,
  getSlipRow,
  listSlips,
  searchSlips,
  sectionCounts,
  listSections,
  slipRowAnyOperator,
  slipRowsByIds,
  slipRowsOfLocation,
  slipRowsOnMap,
  slipStats,
  unassignedSlipRows,
  type SlipFilter,
} from './queries';
export {
  bulkCreateSlips,
  bulkUpdateSlips,
  clearMapPinsStmt,
  clearSection,
  createSlip,
  deleteSlip,
  renameSection,
  setSlipStatus,
  slipOccupancyStmt,
  slipPinStmt,
  updateSlip,
} from './write';
export {
  addSubscribedSlips,
  billingPortal,
  cancelSubscriptionAtPeriodEnd,
  createCheckout,
  reconcileSlipSubscriptions,
  nextSlipReconcile,
  requireActiveSubscription,
  subscriptionStatus,
  syncSlipQuantity,
} from './subscription';
export { fitUnit, type Clearances, type FitUnit } from './fit';
export { slipOut, type SlipRow } from './views';
export { Slip as SlipSchema } from './schemas';
export { CLOSED_SLIP_STATUSES, SLIP_STATUSES, UNIT_TYPES, type BoatDimensions, type FitRefusal, type SlipStatus, type UnitType } from './types';
