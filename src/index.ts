import { buildApp } from './app';
import type { Env, QueueMessage } from './env';
import { handleQueue } from './jobs/queue';
import { runScheduled } from './jobs/cron';

export { InventoryLock } from '../durable-objects/inventory-lock';
export { RateLimiter } from '../durable-objects/rate-limiter';

const app = buildApp();

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<QueueMessage>, env: Env, ctx: ExecutionContext) => handleQueue(batch, env, ctx),
  scheduled: (controller: ScheduledController, env: Env, ctx: ExecutionContext) => runScheduled(controller, env, ctx),
} satisfies ExportedHandler<Env, QueueMessage>;
