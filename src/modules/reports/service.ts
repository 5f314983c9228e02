/**
 * The reports module's face. No other module calls it: the sales journal (sales-journal.ts) and the
 * payouts (payouts.ts) are reached through its router only; they read the ledger through analytics'
 * face (one revenue rule for every report).
 */
export {};
