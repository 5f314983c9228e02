/**
 * Point of sale's face. Others use it for:
 * - the sandbox seed's counter sales (a gift card sold and reloaded at the counter): createTransaction.
 * The catalog (catalog.ts: products, variants, stock, fuel price), folders.ts, sales and reads
 * (transactions.ts), refunds.ts, the cash drawer and Z reports (settlement.ts), the payment provider's
 * terminal and connected accounts (connect.ts) and line pricing (pricing.ts) are reached through its router.
 */
export { createTransaction, type CreateTransactionInput } from './transactions';
