/**
 * Availability services (transport-free), the entry point other code imports. Reads go to D1
 * through the engine, each in ONE round trip (queries.ts); sales go through the item's lock object
 * (lock.ts). checks.ts holds the window and asset checks (`getItemAvailability` is what the
 * channel's availability lines and the operator's checkout use: it applies exactly the checks a
 * booking moments later will meet), cached-views.ts the month and day views, popularity.ts the
 * start-time popularity.
 */

export { availabilityOf, checkAsset, getItemAvailability, publicItem, windowAvailability, type AvailabilityQuery, type ItemAvailability } from './checks';
export {
  AVAILABILITY_FRESH_MS,
  dayAvailabilityTagged,
  dayAvailabilityView,
  dayView,
  monthAvailabilityTagged,
  monthAvailabilityView,
  monthView,
  type TaggedView,
} from './cached-views';
export { parseWeekday, timeSlotPopularity } from './popularity';

// What other modules (and the lock object) use of the engine, the D1 state loaders and the lock
// client (sales paths reserve through the item's lock object; see lock.ts).
export {
  blockConflicts,
  departureAt,
  departuresOn,
  existingWallTime,
  maintenanceBusy,
  openingBounds,
  openingOn,
  slotLengthMinutes,
  type Busy,
  type Departure,
  type EngineItem,
  type Reason,
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
  loadItemRows,
  otherItemsAtLocationStatement,
  stateKeyOf,
  type ItemContext,
  type ItemRow,
  type LocationRow,
} from './queries';
export { loadItemState, type ItemState, type ItemStateQuery } from './item-state';
export { allocate } from './allocate';
export { backstopConflict, isAllocationConflict, release, releaseAll, releaseLater, reserve, reserveAll, type Reservation, type ReserveRequest } from './lock';
// The sale pipeline every sales path runs through (sell.ts).
export { sell, SALE_PHASES, type SaleJournal, type SalePhase, type SalePhaseFn, type SalePolicy } from './sell';
// The one writer of `allocations` (allocation-writes.ts): the rows a reservation took, and named releases, early ends, expiries and sandbox deletes.
export {
  allocationInserts,
  deleteAllocationsOf,
  endAllocationsEarly,
  expireAllocationsOf,
  expireLapsedHoldAllocations,
  releaseAllocationsOf,
  type AllocationSources,
} from './allocation-writes';
