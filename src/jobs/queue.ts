import type { Env } from '../env';
import { fixedClock, wallClock, withClock } from '../lib/clock';
import { systemCtx, type Hooks } from '../lib/context';
import type { ModuleDef, QueueHandler, QueueMessage } from '../lib/module';
import type { QueueStamp } from '../lib/queue';
import { settleLater } from './later';

/** Message kind to the handler of the one module that consumes it. */
export function queueHandlers(modules: ModuleDef[], own: Record<string, QueueHandler> = {}): Map<string, QueueHandler> {
  const handlers = new Map<string, QueueHandler>(Object.entries(own));
  for (const m of modules) {
    for (const [kind, fn] of Object.entries(m.queue ?? {})) {
      if (handlers.has(kind)) throw new Error(`Queue message kind ${kind} is consumed twice (module ${m.name})`);
      handlers.set(kind, fn);
    }
  }
  return handlers;
}

/** The clock a message is handled on: its sender's test clock at the instant it was sent, else real time. */
const clockOf = (body: QueueMessage & QueueStamp) => (body.testClockId && typeof body.at === 'number' ? fixedClock(body.at, body.testClockId) : wallClock);

/**
 * Queue consumer: routes each message by kind. A thrown error retries the message with backoff.
 * Work a handler leaves for later (`ctx.waitUntil`, such as a retry it queues) is awaited before the
 * message is acknowledged: a queue consumer has no life after it returns.
 */
export async function handleQueue(handlers: Map<string, QueueHandler>, hooks: Hooks, batch: MessageBatch<QueueMessage>, env: Env): Promise<void> {
  for (const msg of batch.messages) {
    const later = settleLater();
    const clock = clockOf(msg.body);
    const ctx = systemCtx(env, { hooks, requestId: `queue_${msg.id}`, waitUntil: later.add, clock });
    const handler = handlers.get(msg.body.kind);
    if (!handler) {
      ctx.log.error('queue message of unknown kind dropped', { kind: msg.body.kind });
      msg.ack();
      continue;
    }
    try {
      await withClock(clock, () => handler(ctx, msg.body));
      await later.settle(ctx);
      msg.ack();
    } catch (err) {
      await later.settle(ctx);
      ctx.log.error('queue message failed', { kind: msg.body.kind, attempts: msg.attempts, error: String(err) });
      msg.retry({ delaySeconds: Math.min(3600, 10 * 2 ** msg.attempts) });
    }
  }
}
