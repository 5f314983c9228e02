/** The queue message that advances a test clock (handled by src/jobs/advance.ts, which runs every module's jobs). */
export const CLOCK_ADVANCE_KIND = 'sandbox.clock_advance';

/** How far a test clock may be created from "now", or advanced in one call. */
export const MAX_CLOCK_SPAN_YEARS = 2;
