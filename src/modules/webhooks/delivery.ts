import { and, eq, gt, inArray, isNotNull, isNull, lte, min, sql } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { dispatchEvents } from '../../lib/commit';
import { inJobScope } from '../../lib/job-scope';
import { onOperatorClock } from '../../lib/operator-clock';
import { enqueue } from '../../lib/queue';
import { newId } from '../../lib/ids';
import { deliverSigned } from '../../adapters/http';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/events';
import type { DeliveryRow } from './views';

export const RETRY_WINDOW_MS = 3 * 24 * 3600_000;
export const MAX_DELAY_S = 6 * 3600;
/** Delay before attempt n+1 after n failed attempts: 30 s doubling, capped at 6 h. */
export const backoffSeconds = (attempts: number) => Math.min(MAX_DELAY_S, 30 * 2 ** Math.max(0, attempts - 1));

/** An event not handed to the fan-out this long after it was written is dispatched by the sweep. */
const UNDISPATCHED_AFTER_MS = 60_000;
/**
 * On the wall clock a retry is a delayed queue message; the sweep re-sends only those this late
 * (lost messages). On a sandbox test clock delayed messages are not sent: the sweep runs each retry
 * at its own due time as the clock advances.
 */
const LOST_AFTER_MS = 15 * 60_000;
const retryGraceMs = (ctx: Ctx) => (ctx.clock.testClockId ? 0 : LOST_AFTER_MS);

/** Fields a reseller may see about an operator's booking: capacity and time, never renter data or prices. */
const RESELLER_FIELDS = [
  'rentalId',
  'bookingId',
  'transactionId',
  'itemId',
  'inventoryId',
  'productId',
  'locationId',
  'start',
  'end',
  'startTime',
  'endTime',
  'quantity',
  'participants',
  'seats',
  'assetIds',
  'status',
  'source',
  'previous',
  'localDate',
];

export function redactForReseller(payload: Record<string, unknown>): Record<string, unknown> {
  const data = (payload.data ?? {}) as Record<string, unknown>;
  const pick = (o: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(o)
        .filter(([k]) => RESELLER_FIELDS.includes(k))
        .map(([k, v]) => [k, k === 'previous' && v && typeof v === 'object' ? pick(v as Record<string, unknown>) : v] as [string, unknown]),
    );
  const inner = (data.booking && typeof data.booking === 'object' ? data.booking : data) as Record<string, unknown>;
  return { ...payload, data: pick(inner) };
}

/**
 * Creates one delivery per (event, subscribed endpoint) and attempts each once; failures are
 * re-queued with backoff. Takes the events of one commit together (one queue message per commit,
 * see `dispatchEvents`): the events, marked dispatched (the first time only), and their operators'
 * active endpoints are one D1 batch. Safe to run twice: one original delivery per (event, endpoint).
 */
export async function fanOut(ctx: Ctx, eventIds: string | string[]): Promise<void> {
  const ids = [...new Set(Array.isArray(eventIds) ? eventIds : [eventIds])];
  if (!ids.length) return;
  const db = ctx.db;
  const [marked, endpoints] = await db.batch([
    db
      .update(webhookEvents)
      .set({ dispatchedAt: sql`coalesce(${webhookEvents.dispatchedAt}, ${nowIso(ctx)})` })
      .where(inArray(webhookEvents.id, ids))
      .returning({
        id: webhookEvents.id,
        customerId: webhookEvents.customerId,
        type: webhookEvents.type,
        // Only a test event names its endpoint; the payload itself is not needed here.
        testTarget: sql<string | null>`json_extract(${webhookEvents.payload}, '$.data.endpointId')`,
      }),
    db
      .select({ id: webhookEndpoints.id, customerId: webhookEndpoints.customerId, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(
        and(
          inArray(webhookEndpoints.customerId, db.select({ c: webhookEvents.customerId }).from(webhookEvents).where(inArray(webhookEvents.id, ids))),
          eq(webhookEndpoints.status, 'active'),
        ),
      ),
  ]);
  // Each operator's deliveries are due at its "now" (a sandbox test clock's operator: its clock's time).
  const nowOf = new Map<string, string>();
  for (const c of new Set(marked.map((e) => e.customerId))) nowOf.set(c, nowIso(await onOperatorClock(ctx, c)));
  const inserts = [];
  const withDeliveries: string[] = [];
  for (const event of marked) {
    const target = event.type === 'webhook.test' ? (event.testTarget ?? undefined) : undefined;
    const subscribed = endpoints.filter(
      (e) => e.customerId === event.customerId && (target ? e.id === target : e.events.includes('*') || e.events.includes(event.type)),
    );
    if (!subscribed.length) continue;
    withDeliveries.push(event.id);
    // One original delivery per (event, endpoint), even when the queue hands us the event twice.
    inserts.push(
      db
        .insert(webhookDeliveries)
        .values(
          subscribed.map((e) => ({
            id: newId('whd'),
            dedupeKey: `${event.id}:${e.id}`,
            customerId: event.customerId,
            eventId: event.id,
            endpointId: e.id,
            eventType: event.type,
            status: 'pending' as const,
            nextAttemptAt: nowOf.get(event.customerId)!,
          })),
        )
        .onConflictDoNothing(),
    );
  }
  if (!inserts.length) return;
  await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
  const pending = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.eventId, withDeliveries),
        isNull(webhookDeliveries.replayOf),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
      ),
    )
    .all();
  await Promise.all(pending.map((d) => attemptDelivery(ctx, d.id)));
}

/**
 * One delivery attempt: signs, posts, logs the attempt, then succeeds, schedules a retry, or gives up
 * after 3 days (of the operator's time). A retry is due at `nextAttemptAt` and queued with that
 * delay; on a sandbox test clock the queue sends no delayed message and the sweep runs it when the
 * clock reaches it.
 */
export async function attemptDelivery(ctx: Ctx, deliveryId: string): Promise<DeliveryRow['status'] | 'missing'> {
  const db = ctx.db;
  const d = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).get();
  if (!d) return 'missing';
  if (d.status === 'succeeded' || d.status === 'failed') return d.status;
  ctx = await onOperatorClock(ctx, d.customerId);
  const [ep, event] = await Promise.all([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, d.endpointId)).get(),
    db.select().from(webhookEvents).where(eq(webhookEvents.id, d.eventId)).get(),
  ]);
  const nowMs = ctx.clock.now();
  const attempt = d.attempts + 1;
  const firstAttemptAt = d.firstAttemptAt ?? new Date(nowMs).toISOString();
  if (!ep || !event || ep.status !== 'active') {
    await db
      .update(webhookDeliveries)
      .set({
        status: 'failed',
        lastError: !ep ? 'endpoint deleted' : ep.status !== 'active' ? 'endpoint disabled' : 'event missing',
        completedAt: new Date(nowMs).toISOString(),
      })
      .where(eq(webhookDeliveries.id, d.id));
    return 'failed';
  }
  const body = JSON.stringify(ep.ownerType === 'channel' ? redactForReseller(event.payload) : event.payload);
  // The URL policy again at every attempt (the name may resolve elsewhere by now). Only an operator's own
  // endpoint may be a local URL while developing; endpoints of apps and reseller channels never. A refused
  // or unreachable URL is logged as the one NOT_DELIVERED outcome with no duration: no status or timing to probe with.
  const { statusCode, error, durationMs } = await deliverSigned(ctx.env, {
    url: ep.url,
    secret: ep.secret,
    eventId: event.id,
    eventType: event.type,
    deliveryId: d.id,
    body,
    policy: { localInDevelopment: ep.ownerType === 'operator' },
  });
  const attemptRow = db.insert(webhookAttempts).values({ id: newId('wha'), deliveryId: d.id, attempt, statusCode, error, durationMs });
  if (!error) {
    await db.batch([
      attemptRow,
      db
        .update(webhookDeliveries)
        .set({
          status: 'succeeded',
          attempts: attempt,
          lastStatusCode: statusCode,
          lastError: null,
          firstAttemptAt,
          nextAttemptAt: null,
          completedAt: new Date(nowMs).toISOString(),
        })
        .where(eq(webhookDeliveries.id, d.id)),
    ]);
    return 'succeeded';
  }
  const delay = backoffSeconds(attempt);
  const giveUp = nowMs + delay * 1000 - Date.parse(firstAttemptAt) > RETRY_WINDOW_MS;
  await db.batch([
    attemptRow,
    db
      .update(webhookDeliveries)
      .set({
        status: giveUp ? 'failed' : 'retrying',
        attempts: attempt,
        lastStatusCode: statusCode,
        lastError: error,
        firstAttemptAt,
        nextAttemptAt: giveUp ? null : new Date(nowMs + delay * 1000).toISOString(),
        completedAt: giveUp ? new Date(nowMs).toISOString() : null,
      })
      .where(eq(webhookDeliveries.id, d.id)),
  ]);
  // Not sent on a test clock (false): `nextAttemptAt` is what the sweep runs it by.
  if (!giveUp) await enqueue(ctx, { kind: 'webhook.deliver', deliveryId: d.id }, { delaySeconds: delay });
  return giveUp ? 'failed' : 'retrying';
}

/**
 * Cron (every 5 minutes): re-dispatches events whose queue send was lost, and runs deliveries whose
 * retry is due. On the wall clock a retry is a delayed queue message, so only retries overdue by
 * LOST_AFTER_MS (the message was lost) are queued again; while a sandbox test clock advances, every
 * retry due by the clock's time is attempted here, in the step of its due time (`nextDueWebhooks`).
 */
export async function sweepWebhooks(ctx: Ctx): Promise<{ events: number; deliveries: number }> {
  const db = ctx.db;
  const now = ctx.clock.now();
  const cutoff = new Date(now - UNDISPATCHED_AFTER_MS).toISOString();
  const events = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(isNull(webhookEvents.dispatchedAt), lte(webhookEvents.createdAt, cutoff), inJobScope(ctx, webhookEvents.customerId)))
    .limit(500)
    .all();
  if (events.length)
    await dispatchEvents(
      ctx,
      events.map((e) => e.id),
    );
  const due = new Date(now - retryGraceMs(ctx)).toISOString();
  const stuck = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(retryPending(), lte(webhookDeliveries.nextAttemptAt, due), inJobScope(ctx, webhookDeliveries.customerId)))
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(500)
    .all();
  if (ctx.clock.testClockId) {
    // A test clock's step: the attempt happens at this instant, before the clock moves on.
    for (const s of stuck) await attemptDelivery(ctx, s.id);
  } else {
    for (const s of stuck) await enqueue(ctx, { kind: 'webhook.deliver', deliveryId: s.id });
  }
  return { events: events.length, deliveries: stuck.length };
}

const retryPending = () => and(inArray(webhookDeliveries.status, ['pending', 'retrying']), isNotNull(webhookDeliveries.nextAttemptAt));

/**
 * The sweep's next work after the clock's "now" for the operators in scope: an undispatched event
 * coming of age, or a retry coming due (ms), or null.
 */
export async function nextDueWebhooks(ctx: Ctx): Promise<number | null> {
  const db = ctx.db;
  const now = ctx.clock.now();
  const grace = retryGraceMs(ctx);
  const [ev, dl] = await db.batch([
    db
      .select({ at: min(webhookEvents.createdAt) })
      .from(webhookEvents)
      .where(
        and(
          isNull(webhookEvents.dispatchedAt),
          gt(webhookEvents.createdAt, new Date(now - UNDISPATCHED_AFTER_MS).toISOString()),
          inJobScope(ctx, webhookEvents.customerId),
        ),
      ),
    db
      .select({ at: min(webhookDeliveries.nextAttemptAt) })
      .from(webhookDeliveries)
      .where(and(retryPending(), gt(webhookDeliveries.nextAttemptAt, new Date(now - grace).toISOString()), inJobScope(ctx, webhookDeliveries.customerId))),
  ]);
  const dues = [ev[0]?.at ? Date.parse(ev[0].at) + UNDISPATCHED_AFTER_MS : null, dl[0]?.at ? Date.parse(dl[0].at) + grace : null].filter(
    (d): d is number => d != null && d > now,
  );
  return dues.length ? Math.min(...dues) : null;
}
