/**
 * The ai-helpers module's face. No other module calls it today: the writing and question helpers
 * (assist.ts), the paid website audit (audit.ts), receipts (receipts.ts), licences (license.ts),
 * inventory scraping (scrape.ts) and the page proxy (proxy.ts) are reached through its router only.
 */
export {};
