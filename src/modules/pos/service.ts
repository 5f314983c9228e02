/**
 * Point of sale's face. No other module calls it today: the catalog (catalog.ts: products, variants,
 * stock, fuel price), folders.ts, sales and reads (transactions.ts), refunds.ts, the cash drawer and
 * Z reports (settlement.ts), the payment provider's terminal and connected accounts (connect.ts) and
 * line pricing (pricing.ts) are reached through its router only.
 */
export {};
