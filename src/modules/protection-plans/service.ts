/**
 * The protection-plans module's face. No other module calls it today: the catalog (catalog.ts),
 * location settings (settings.ts), catalog reads (plans.ts) and the purchase of a plan for a
 * booking (purchase.ts) are reached through its router only.
 */
export {};
