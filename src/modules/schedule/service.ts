// Schedule service: the entry point other code imports. The logic lives in the files next to it:
// views.ts (entry, light entry, renter and drydock views), queries.ts (tenant-scoped reads and the
// shared query pieces), by-item.ts (the schedule of an item and its search), by-location.ts (the
// schedule of several locations), by-status.ts (lists by status) and cursor.ts (cursor pagination
// and counts).

export { entryOut, renterOf, type BookingRow, type ScheduleEntryOut } from './views';
export { getSchedule, searchSchedule, type ScheduleInput } from './by-item';
export { locationSchedule, parseLocationIds } from './by-location';
export { byCustomerStatus, byLocationStatus } from './by-status';
export { countSchedules, decodeCursor, encodeCursor, paginated, parseFilters } from './cursor';
