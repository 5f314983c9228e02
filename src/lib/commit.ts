import type { Ctx } from './context';
import { insertRows, reusable, type BatchRunner, type DB, type Stmt } from '../db/client';
import { auditLogs } from '../db/schema/accounts';
import { and, eq, sql } from 'drizzle-orm';
import { webhookEvents } from '../db/schema/events';
import { effectStmt } from './idempotency';
import { newId } from './ids';
import { nowIso } from './clock';
import { enqueueBatch } from './queue';

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
  return insertRows(ctx.db, auditLogs, {
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

/**
 * The audit row `entry` of this request is there: the `commit` that wrote it with its change
 * committed (what tells a write in doubt, whose answer was lost, landed).
 */
export async function auditWritten(ctx: Ctx, entry: AuditEntry): Promise<boolean> {
  const customerId = entry.customerId ?? ctx.principal.customerId;
  if (!customerId || !entry.targetId) return false;
  const row = await ctx.db
    .select({ id: auditLogs.id })
    .from(auditLogs)
    .where(
      and(
        eq(auditLogs.customerId, customerId),
        eq(auditLogs.targetId, entry.targetId),
        eq(auditLogs.requestId, ctx.requestId),
        eq(auditLogs.action, entry.action),
      ),
    )
    .get();
  return !!row;
}

/** Outbox rows per INSERT (four bound values each, plus two; D1 binds at most 100 parameters). */
const EVENTS_PER_INSERT = 16;

/**
 * The outbox rows of some events, several per INSERT, and their ids. Each INSERT marks dispatched,
 * as it writes them, the events whose operator has no active webhook endpoint (reseller and partner
 * subscriptions are endpoints too), so nothing is queued for them and the sweep never picks them
 * up; it answers each row's `dispatched_at` (RETURNING), which tells the commit what to queue.
 */
export function eventStmts(ctx: Ctx, events: DomainEvent[]): { ids: string[]; stmts: Stmt[] } {
  const createdAt = nowIso(ctx);
  const rows = events.map((event) => {
    const customerId = event.customerId ?? ctx.principal.customerId;
    if (!customerId) throw new Error('event without a customer');
    const id = newId('evt');
    return { id, customerId, type: event.type, payload: { id, type: event.type, createdAt, customerId, data: event.data } };
  });
  const stmts: Stmt[] = [];
  for (let i = 0; i < rows.length; i += EVENTS_PER_INSERT) {
    const chunk = rows.slice(i, i + EVENTS_PER_INSERT);
    const values: Record<string, unknown> = { at: createdAt };
    chunk.forEach((r, k) => Object.assign(values, { [`i${k}`]: r.id, [`c${k}`]: r.customerId, [`t${k}`]: r.type, [`p${k}`]: JSON.stringify(r.payload) }));
    stmts.push(reusable(ctx.db, `events|${chunk.length}`, (db) => eventInsert(db, chunk.length), values));
  }
  return { ids: rows.map((r) => r.id), stmts };
}

/** The INSERT of `n` outbox events (built once per `n` and isolate: `reusable`), its values placeholders. */
function eventInsert(db: DB, n: number) {
  const ph = (name: string) => sql.placeholder(name);
  const values = sql.join(
    Array.from({ length: n }, (_, k) => sql`(${ph(`i${k}`)}, ${ph(`c${k}`)}, ${ph(`t${k}`)}, ${ph(`p${k}`)})`),
    sql`, `,
  );
  return db
    .insert(webhookEvents)
    .select(
      sql`SELECT v.column1, v.column2, v.column3, v.column4,
        CASE WHEN EXISTS (SELECT 1 FROM webhook_endpoints we WHERE we.customer_id = v.column2 AND we.status = 'active') THEN NULL ELSE ${ph('at')} END,
        ${ph('at')}
      FROM (VALUES ${values}) AS v`,
    )
    .returning({ id: webhookEvents.id, dispatchedAt: webhookEvents.dispatchedAt });
}

export interface CommitOptions {
  audit?: AuditEntry | AuditEntry[];
  events?: DomainEvent[];
  /** Runs the batch instead of `ctx.db` (a sale's write run by its item's lock: availability's `writeThrough`). */
  via?: BatchRunner;
}

/**
 * Runs a domain write as one atomic D1 batch together with its audit rows and outbox events,
 * then hands the events to the queue. If the queue send fails the cron sweep re-sends them,
 * so an event is never lost once its change is committed. With `via`, the batch is run there
 * (the item's lock, for a sale) and answered the same way.
 */
export async function commit(ctx: Ctx, statements: Stmt[], opts: CommitOptions = {}): Promise<{ eventIds: string[]; results: unknown[] }> {
  const all: Stmt[] = [...statements];
  if (ctx.idempotencyClaimId && statements.length) all.push(effectStmt(ctx.db, ctx.idempotencyClaimId));
  for (const a of opts.audit ? (Array.isArray(opts.audit) ? opts.audit : [opts.audit]) : []) all.push(auditStmt(ctx, a));
  const { ids: eventIds, stmts: eventInserts } = eventStmts(ctx, opts.events ?? []);
  all.push(...eventInserts);
  const results = (all.length ? await (opts.via ? opts.via(all) : ctx.db.batch(all as [Stmt, ...Stmt[]])) : []) as unknown[];
  if (eventIds.length) {
    const written = results.splice(results.length - eventInserts.length) as { id: string; dispatchedAt: string | null }[][];
    const toQueue = written.flat().flatMap((r) => (r.dispatchedAt == null ? [r.id] : []));
    // Requests hand the queue send to waitUntil (off the response path); jobs and services without
    // a request await it. Either way a lost send is re-sent by the cron sweep. Events that no
    // endpoint can receive were marked dispatched by their INSERT: nothing to queue.
    if (toQueue.length) {
      if (ctx.principal.kind === 'system') await dispatchEvents(ctx, toQueue);
      else ctx.waitUntil(dispatchEvents(ctx, toQueue));
    }
  }
  return { eventIds, results };
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
    await enqueueBatch(
      ctx,
      chunks.map((ids) => ({ kind: 'webhook.fanout', eventIds: ids })),
    );
  } catch (err) {
    ctx.log.warn('event dispatch deferred to sweep', { eventIds, error: String(err) });
  }
}
