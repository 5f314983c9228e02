// Meter readings: recording and correcting with usage, rollover and review flags (readings.ts),
// billing (billing.ts: mark billed, charges to a slip reservation), reads, lists and stats
// (queries.ts), the view (views.ts).
export { getReading, historyOfUnit, latestOfUnit, listReadings, meterStats, unbilledReadings } from './queries';
export { deleteReading, recordReading, updateReading } from './readings';
export { addToReservation, markBilled } from './billing';
export { readingOut, type ReadingRow } from './views';
