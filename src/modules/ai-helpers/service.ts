/**
 * AI helpers: writing and question helpers (`POST /ai`), the paid website audit and its billing,
 * receipts and licences read from documents, draft inventory scraped from a public page, and the
 * page proxy for picking items on a website. Text and images go through the AI port
 * (src/adapters/ai.ts: Workers AI when configured, deterministic and honest rules otherwise); every
 * outside page or image is fetched through the safe public fetch (src/adapters/http.ts).
 */
export { assist, AI_REQUESTS, type AssistInput } from './assist';
export { businessAudit, listAuditCharges, AUDIT_PRICE_CENTS } from './audit';
export { extractReceiptData, validateReceipt } from './receipts';
export { extractLicense } from './license';
export { scrapeInventory } from './scrape';
export { proxyPage } from './proxy';
