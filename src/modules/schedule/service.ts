// Schedule service: the entry point other code imports. The logic lives in the files next to it:
// entries.ts (renter and entry views), queries.ts (the shared query pieces), lists.ts (schedule of
// an item, search, locations and status lists) and cursor.ts (cursor pagination and counts).

export { entryOut, renterOf, type BookingRow, type ScheduleEntryOut } from './entries';
export { byCustomerStatus, byLocationStatus, getSchedule, locationSchedule, parseLocationIds, searchSchedule, type ScheduleInput } from './lists';
export { countSchedules, decodeCursor, encodeCursor, paginated, parseFilters } from './cursor';
