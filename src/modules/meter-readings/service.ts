// Meter readings' face: what other code may call. The logic lives beside it: recording and
// correcting with usage, rollover and review flags (readings.ts), billing (billing.ts), reads, lists
// and stats (queries.ts), the view (views.ts).
// - readings for the seed: recordReading
export { recordReading } from './readings';
