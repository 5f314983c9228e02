import type { Ctx } from './context';
import type { Stmt } from '../db/client';
import { auditLogs } from '../db/schema/accounts';
import { webhookEvents } from '../db/schema/events';
import { effectStmt } from './idempotency';
import { newId } from './ids';

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to the caller's customer. */
  customerId?: string;
}

/** Platform event types delivered to webhooks (spec: Events). */
export type EventType =
  | 'booking.created'
  | 'booking.updated'
  | 'booking.cancelled'
  | 'booking.checked_in'
  | 'booking.checked_out'
  | 'booking.status_changed'
  | 'booking.rescheduled'
  | 'payment.completed'
  | 'payment.refunded'
  | 'customer.created'
  | 'webhook.test';

export const EVENT_TYPES: EventType[] = [
  'booking.created',
  'booking.updated',
  'booking.cancelled',
  'booking.checked_in',
  'booking.checked_out',
  'booking.status_changed',
  'booking.rescheduled',
  'payment.completed',
  'payment.refunded',
  'customer.created',
  'webhook.test',
];

export interface DomainEvent {
  type: EventType;
  data: Record<string, unknown>;
  customerId?: string;
}

export function auditStmt(ctx: Ctx, entry: AuditEntry): Stmt {
  const p = ctx.principal;
  const customerId = entry.customerId ?? p.customerId;
  if (!customerId) throw new Error('audit entry without a customer');
  return ctx.db.insert(auditLogs).values({
    id: newId('aud'),
    customerId,
    actorType: p.kind,
    actorId: p.userId ?? p.credentialId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    details: entry.details ?? null,
    requestId: ctx.requestId,
  });
}

export function eventStmt(ctx: Ctx, event: DomainEvent): { id: string; stmt: Stmt } {
  const customerId = event.customerId ?? ctx.principal.customerId;
  if (!customerId) throw new Error('event without a customer');
  const id = newId('evt');
  const payload = { id, type: event.type, createdAt: new Date().toISOString(), customerId, data: event.data };
  return { id, stmt: ctx.db.insert(webhookEvents).values({ id, customerId, type: event.type, payload }) };
}

/**
 * Runs a domain write as one atomic D1 batch together with its audit rows and outbox events,
 * then hands the events to the queue. If the queue send fails the cron sweep re-sends them,
 * so an event is never lost once its change is committed.
 */
export async function commit(
  ctx: Ctx,
  statements: Stmt[],
  opts: { audit?: AuditEntry | AuditEntry[]; events?: DomainEvent[] } = {},
): Promise<{ eventIds: string[]; results: unknown[] }> {
  const all: Stmt[] = [...statements];
  if (ctx.idempotencyClaimId && statements.length) all.push(effectStmt(ctx.db, ctx.idempotencyClaimId));
  for (const a of opts.audit ? (Array.isArray(opts.audit) ? opts.audit : [opts.audit]) : []) all.push(auditStmt(ctx, a));
  const eventIds: string[] = [];
  for (const e of opts.events ?? []) {
    const { id, stmt } = eventStmt(ctx, e);
    eventIds.push(id);
    all.push(stmt);
  }
  const results = all.length ? await ctx.db.batch(all as [Stmt, ...Stmt[]]) : [];
  if (eventIds.length) {
    // Requests hand the queue send to waitUntil (off the response path); jobs and services without
    // a request await it. Either way a lost send is re-sent by the cron sweep.
    if (ctx.principal.kind === 'system') await dispatchEvents(ctx, eventIds);
    else ctx.waitUntil(dispatchEvents(ctx, eventIds));
  }
  return { eventIds, results: results as unknown[] };
}

/** Events per fan-out message: the consumer binds them in one statement (D1 takes at most 100 parameters). */
const FANOUT_CHUNK = 40;

/**
 * Queues the fan-out of committed events, the events of one commit in one message (the consumer
 * reads and marks them in one D1 batch); a failed send is logged and left to the cron sweep.
 */
export async function dispatchEvents(ctx: Ctx, eventIds: string[]): Promise<void> {
  try {
    const chunks: string[][] = [];
    for (let i = 0; i < eventIds.length; i += FANOUT_CHUNK) chunks.push(eventIds.slice(i, i + FANOUT_CHUNK));
    await ctx.env.EVENTS_QUEUE.sendBatch(chunks.map((ids) => ({ body: { kind: 'webhook.fanout' as const, eventIds: ids } })));
  } catch (err) {
    ctx.log.warn('event dispatch deferred to sweep', { eventIds, error: String(err) });
  }
}
