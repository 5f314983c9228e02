import type { Env } from '../env';
import { systemCtx, type Hooks } from '../lib/context';
import type { ModuleDef, QueueHandler, QueueMessage } from '../lib/module';

/** Message kind to the handler of the one module that consumes it. */
export function queueHandlers(modules: ModuleDef[]): Map<string, QueueHandler> {
  const handlers = new Map<string, QueueHandler>();
  for (const m of modules) {
    for (const [kind, fn] of Object.entries(m.queue ?? {})) {
      if (handlers.has(kind)) throw new Error(`Queue message kind ${kind} is consumed twice (module ${m.name})`);
      handlers.set(kind, fn);
    }
  }
  return handlers;
}

/** Queue consumer: routes each message by kind. A thrown error retries the message with backoff. */
export async function handleQueue(handlers: Map<string, QueueHandler>, hooks: Hooks, batch: MessageBatch<QueueMessage>, env: Env): Promise<void> {
  for (const msg of batch.messages) {
    const ctx = systemCtx(env, { hooks, requestId: `queue_${msg.id}` });
    const handler = handlers.get(msg.body.kind);
    if (!handler) {
      ctx.log.error('queue message of unknown kind dropped', { kind: msg.body.kind });
      msg.ack();
      continue;
    }
    try {
      await handler(ctx, msg.body);
      msg.ack();
    } catch (err) {
      ctx.log.error('queue message failed', { kind: msg.body.kind, attempts: msg.attempts, error: String(err) });
      msg.retry({ delaySeconds: Math.min(3600, 10 * 2 ** msg.attempts) });
    }
  }
}
