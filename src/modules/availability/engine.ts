/**
 * The availability engine: pure functions (no I/O) that answer what is free on an inventory item.
 *
 * Inputs are the item (its model from `inventory_items.data`, its assets, its location's IANA
 * zone) and the time already taken out of it (`Busy`: active allocations of bookings, holds and
 * drydock, maintenance blocks from the model, and reservations pending inside the item's lock).
 * Every sales path (operator checkout, widget, channel, marketplace, holds, drydock) and every
 * availability endpoint goes through these functions, so "available" means the same everywhere.
 *
 * Days and slots are built per local date in the location's wall-clock time with the DST-safe
 * helpers of `src/lib/time.ts`: a 10:00 slot is 10:00 local on DST days too, a wall time that
 * does not exist (the skipped hour) is left out, and a repeated wall time (the fall-back hour)
 * gives one slot, at its first occurrence.
 */
//
// The engine lives in the files next to it: engine-types.ts (its model of an item and of a window
// check; the shared vocabulary is in types.ts), intervals.ts (time units and interval arithmetic),
// calendar.ts (opening hours, departures and rental slots of a local date), windows.ts (busy rows
// and window checks) and day-month.ts (day and month availability).

export type { ItemKind, EngineAsset, EngineItem, BusyKind, Busy, ReasonCode, Reason, Departure, WindowQuery, WindowCheck } from './engine-types';
export {
  existingWallTime,
  exceptionOn,
  openingOn,
  openingBounds,
  capacityOverride,
  departuresOn,
  departureAt,
  slotLengthMinutes,
  rentalSlotsOn,
  type RentalSlot,
} from './calendar';
export { liveBusy, maintenanceBusy, bookingBlock, checkWindow, departureSeatsFree, departuresBetween, blockConflicts, pickAssets } from './windows';
export {
  dayAvailability,
  summarizeDay,
  busyByDate,
  monthAvailability,
  monthBounds,
  wallOf,
  type DaySlot,
  type DayView,
  type DayStatus,
  type DaySummary,
} from './day-month';
