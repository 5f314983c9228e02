/**
 * Sending work to the queue: the one way (`ctx.env.EVENTS_QUEUE` is not called elsewhere). A message
 * carries the instant it was sent on its context's clock (`at`) and, for a sandbox test clock's
 * operator, the clock's id, so the consumer handles it at that operator's time.
 *
 * Delayed work (retries, deferred deliveries) uses the queue's own delay. On a test clock the delay
 * would run in real time while the operator's time stands still, so delayed messages are not sent
 * there: each one is also recorded as due in its own table (a policy's `nextBindAt`, a delivery's
 * next attempt), and the clock's advance runs the job that picks it up at its due time.
 */
import type { Ctx } from './context';
import type { QueueMessage } from './module';

/** What the consumer reads of a message besides its kind and fields. */
export interface QueueStamp {
  /** The sender's "now" (ms). */
  at?: number;
  /** The sender's sandbox test clock. */
  testClockId?: string;
}

const stamped = (ctx: Ctx, body: QueueMessage): QueueMessage & QueueStamp => {
  const at = ctx.clock.now();
  return ctx.clock.testClockId ? { ...body, at, testClockId: ctx.clock.testClockId } : { ...body, at };
};

/**
 * Sends one message (after `delaySeconds`, when given). Answers false when the message was not sent
 * because the context is on a test clock and the work is delayed (its due time is recorded elsewhere).
 */
export async function enqueue(ctx: Ctx, body: QueueMessage, opts: { delaySeconds?: number } = {}): Promise<boolean> {
  const delaySeconds = Math.max(0, Math.ceil(opts.delaySeconds ?? 0));
  if (delaySeconds > 0 && ctx.clock.testClockId) return false;
  await ctx.env.EVENTS_QUEUE.send(stamped(ctx, body), delaySeconds ? { delaySeconds: Math.min(delaySeconds, 43_200) } : undefined);
  return true;
}

/** Sends several messages now (one call). */
export async function enqueueBatch(ctx: Ctx, bodies: QueueMessage[]): Promise<void> {
  if (!bodies.length) return;
  await ctx.env.EVENTS_QUEUE.sendBatch(bodies.map((b) => ({ body: stamped(ctx, b) })));
}

/**
 * Sends after the response (through `waitUntil`); a failed send is logged and left to the job that
 * sweeps the same due work.
 */
export function enqueueLater(ctx: Ctx, body: QueueMessage, opts: { delaySeconds?: number } = {}): void {
  ctx.waitUntil(enqueue(ctx, body, opts).catch((err) => ctx.log.warn('queue send failed; the sweep will pick it up', { kind: body.kind, error: String(err) })));
}
