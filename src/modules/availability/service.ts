/**
 * Availability's face: what other modules (and the inventory lock object) may call; the router imports its use-case files directly.
 * Reads go to D1 through the engine, each in ONE round trip (queries.ts); sales go through the item's lock object (lock.ts). Others use it for:
 * - availability answers (checkout, channel, widget, structured data): getItemAvailability, availabilityOf, publicItem, monthView, dayView;
 * - schedule arithmetic of the engine: departureAt, departuresOn, openingBounds, openingOn, existingWallTime, maintenanceBusy, slotLengthMinutes;
 * - D1 state loaders and statements: loadItemContext, itemContextOf, itemContextsFrom, loadItemState, loadAllocationsFor, busyOf, itemStatements, ...;
 * - the per-item lock every sale reserves through: reserve, reserveAll, releaseAll, forgetDeleted, allocate, backstopConflict, isAllocationConflict;
 * - the sale pipeline every sales path runs through: sell, SalePolicy, SaleJournal, SalePhase, SALE_PHASES, landedInDoubt;
 * - the one writer of `allocations`: allocationInserts, releaseAllocationsOf, endAllocationsEarly, expireAllocationsOf, deleteAllocationsOf, ...
 */

export { availabilityOf, getItemAvailability, publicItem } from './checks';
export { dayView, monthView } from './cached-views';
export {
  departureAt,
  departuresOn,
  existingWallTime,
  maintenanceBusy,
  openingBounds,
  openingOn,
  slotLengthMinutes,
  type Busy,
  type EngineItem,
} from './engine';
export {
  allocationsStatement,
  allocationToBusy,
  busyOf,
  groupAllocations,
  inJson,
  itemContextFrom,
  itemContextOf,
  itemContextsFrom,
  itemStatements,
  itemsChangedStatement,
  loadAllocationsFor,
  loadItemContext,
  otherItemsAtLocationStatement,
  stateKeyOf,
  type ItemContext,
  type ItemRow,
  type LocationRow,
} from './queries';
export { loadItemState } from './item-state';
export { allocate } from './allocate';
export {
  backstopConflict,
  forgetDeleted,
  isAllocationConflict,
  releaseAll,
  reserve,
  reserveAll,
  type Reservation,
  type ReserveCall,
  type ReserveRequest,
} from './lock';
export type { LockItem } from './types';
// The sale pipeline every sales path runs through (sell.ts).
export { sell, landedInDoubt, SALE_PHASES, type SaleJournal, type SalePhase, type SalePhaseFn, type SalePolicy } from './sell';
// The one writer of `allocations` (allocation-writes.ts): the rows a reservation took, and named releases, early ends, expiries and sandbox deletes.
export {
  allocationInserts,
  deleteAllocationsOf,
  type DeletedAllocation,
  endAllocationsEarly,
  expireAllocationsOf,
  expireLapsedHoldAllocations,
  releaseAllocationsOf,
} from './allocation-writes';
