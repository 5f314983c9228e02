/**
 * The affiliates module's face. No other module calls it today: records (records.ts) and earnings
 * (earnings.ts) are reached through its router, and its `booking.placed` hook through module.ts.
 */
export {};
