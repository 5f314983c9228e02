import { modules } from './modules';
import { createWorker } from './worker';

export { InventoryLock } from '../durable-objects/inventory-lock';
export { RateLimiter } from '../durable-objects/rate-limiter';
export { SlipLock } from '../durable-objects/slip-lock';
export { OAuthGrant } from '../durable-objects/oauth-grant';
export { AccountingQueue } from '../durable-objects/accounting-queue';

/** The production entry point (staging and production): the API's modules and nothing else. */
export default createWorker(modules);
