import { modules } from './modules';
import { createWorker } from './worker';
import { devModule } from './dev/module';

export { InventoryLock } from '../durable-objects/inventory-lock';
export { RateLimiter } from '../durable-objects/rate-limiter';
export { SlipLock } from '../durable-objects/slip-lock';
export { OAuthGrant } from '../durable-objects/oauth-grant';
export { AccountingQueue } from '../durable-objects/accounting-queue';

/**
 * The development entry point (`wrangler dev`, `npm start`, `npm run bench`): the API plus the
 * development-only routes (POST /__dev/seed and the benchmark's seed and baselines). Staging and
 * production deploy `src/index.ts`, which does not import them, so they are not in that bundle.
 */
export default createWorker([...modules, devModule]);
