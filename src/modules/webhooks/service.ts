import { and, count, desc, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit, dispatchEvents } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { hmacSha256Hex } from '../../lib/crypto';
import { checkUserUrl, safeFetch } from '../../adapters/http';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/events';
import type { Env } from '../../env';
import type { DB } from '../../db/client';
import { getDb } from '../../db/client';

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const RETRY_WINDOW_MS = 3 * 24 * 3600_000;
export const MAX_DELAY_S = 6 * 3600;
/** Delay before attempt n+1 after n failed attempts: 30 s doubling, capped at 6 h. */
export const backoffSeconds = (attempts: number) => Math.min(MAX_DELAY_S, 30 * 2 ** Math.max(0, attempts - 1));

const endpointOut = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  status: e.status,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

async function endpointInTenant(ctx: Ctx, id: string): Promise<EndpointRow> {
  const row = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, tenantOf(ctx)), eq(webhookEndpoints.ownerType, 'operator')))
    .get();
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

export async function createEndpoint(ctx: Ctx, input: { url: string; events: string[]; description?: string }) {
  const customerId = tenantOf(ctx);
  checkUserUrl(ctx.env, input.url);
  const row = {
    id: newId('whe'),
    customerId,
    url: input.url,
    events: [...new Set(input.events)],
    description: input.description ?? null,
    secret: `whsec_${randomString(40)}`,
    status: 'active' as const,
    ownerType: 'operator',
    ownerId: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  await commit(ctx, [ctx.db.insert(webhookEndpoints).values(row)], {
    audit: { action: 'webhook.create', targetType: 'webhook_endpoint', targetId: row.id, details: { url: row.url, events: row.events } },
  });
  return { ...endpointOut(row), secret: row.secret };
}

export async function listEndpoints(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.customerId, tenantOf(ctx)), eq(webhookEndpoints.ownerType, 'operator')))
    .orderBy(desc(webhookEndpoints.createdAt))
    .all();
  return { data: rows.map(endpointOut) };
}

export const getEndpoint = async (ctx: Ctx, id: string) => endpointOut(await endpointInTenant(ctx, id));

export async function updateEndpoint(
  ctx: Ctx,
  id: string,
  input: { url?: string; events?: string[]; description?: string | null; status?: 'active' | 'disabled' },
) {
  const existing = await endpointInTenant(ctx, id);
  const patch: Partial<EndpointRow> = {};
  if (input.url !== undefined) {
    checkUserUrl(ctx.env, input.url);
    patch.url = input.url;
  }
  if (input.events !== undefined) patch.events = [...new Set(input.events)];
  if (input.description !== undefined) patch.description = input.description;
  if (input.status !== undefined) patch.status = input.status;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of url, events, description, status');
  await commit(
    ctx,
    [
      ctx.db
        .update(webhookEndpoints)
        .set(patch)
        .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, existing.customerId))),
    ],
    { audit: { action: 'webhook.update', targetType: 'webhook_endpoint', targetId: id, details: patch } },
  );
  return endpointOut({ ...existing, ...patch, updatedAt: new Date().toISOString() });
}

export async function deleteEndpoint(ctx: Ctx, id: string) {
  const existing = await endpointInTenant(ctx, id);
  await commit(ctx, [ctx.db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, existing.customerId)))], {
    audit: { action: 'webhook.delete', targetType: 'webhook_endpoint', targetId: id },
  });
  return { success: true, id };
}

function deliveryOut(d: DeliveryRow, attempts?: (typeof webhookAttempts.$inferSelect)[]) {
  return {
    id: d.id,
    eventId: d.eventId,
    endpointId: d.endpointId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt,
    completedAt: d.completedAt,
    replayOf: d.replayOf,
    createdAt: d.createdAt,
    ...(attempts
      ? { attemptLog: attempts.map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, at: a.createdAt })) }
      : {}),
  };
}

export async function listDeliveries(ctx: Ctx, endpointId: string, q: { status?: DeliveryRow['status']; limit: number; offset: number }) {
  const ep = await endpointInTenant(ctx, endpointId);
  const where = and(
    eq(webhookDeliveries.customerId, ep.customerId),
    eq(webhookDeliveries.endpointId, ep.id),
    q.status ? eq(webhookDeliveries.status, q.status) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(where).get(),
  ]);
  const attempts = rows.length
    ? await ctx.db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(webhookAttempts.attempt)
        .all()
    : [];
  return {
    data: rows.map((r) =>
      deliveryOut(
        r,
        attempts.filter((a) => a.deliveryId === r.id),
      ),
    ),
    total: total?.n ?? 0,
    limit: q.limit,
    offset: q.offset,
  };
}

export async function replayDelivery(ctx: Ctx, deliveryId: string) {
  const customerId = tenantOf(ctx);
  const d = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.customerId, customerId)))
    .get();
  if (!d) throw notFound('Delivery');
  const now = new Date().toISOString();
  const replayId = newId('whd');
  const replay: DeliveryRow = {
    ...d,
    id: replayId,
    dedupeKey: `replay:${replayId}`,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    nextAttemptAt: now,
    firstAttemptAt: null,
    completedAt: null,
    replayOf: d.id,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(webhookDeliveries).values(replay)], {
    audit: { action: 'webhook.replay', targetType: 'webhook_delivery', targetId: d.id, details: { replay: replay.id } },
  });
  await ctx.env.EVENTS_QUEUE.send({ kind: 'webhook.deliver', deliveryId: replay.id });
  return deliveryOut(replay);
}

export async function sendTestEvent(ctx: Ctx, endpointId: string) {
  const ep = await endpointInTenant(ctx, endpointId);
  const { eventIds } = await commit(ctx, [], {
    events: [{ type: 'webhook.test', data: { endpointId: ep.id, message: 'This is a test event from Berth.' } }],
    audit: { action: 'webhook.test', targetType: 'webhook_endpoint', targetId: ep.id },
  });
  return { eventId: eventIds[0] };
}

// ---- delivery (queue consumer side) ----

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

/** Creates one delivery per subscribed endpoint and attempts each once; failures are re-queued with backoff. */
export async function fanOut(env: Env, eventId: string): Promise<void> {
  const db = getDb(env.DB);
  const event = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)).get();
  if (!event) return;
  if (!event.dispatchedAt) await db.update(webhookEvents).set({ dispatchedAt: new Date().toISOString() }).where(eq(webhookEvents.id, eventId));
  const endpoints = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.customerId, event.customerId), eq(webhookEndpoints.status, 'active')))
    .all();
  const target = event.type === 'webhook.test' ? (event.payload.data as { endpointId?: string })?.endpointId : undefined;
  const subscribed = endpoints.filter((e) => (target ? e.id === target : e.events.includes('*') || e.events.includes(event.type)));
  if (!subscribed.length) return;
  const now = new Date().toISOString();
  // One original delivery per (event, endpoint), even when the queue hands us the event twice.
  await db
    .insert(webhookDeliveries)
    .values(
      subscribed.map((e) => ({
        id: newId('whd'),
        dedupeKey: `${eventId}:${e.id}`,
        customerId: event.customerId,
        eventId,
        endpointId: e.id,
        eventType: event.type,
        status: 'pending' as const,
        nextAttemptAt: now,
      })),
    )
    .onConflictDoNothing();
  const pending = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.eventId, eventId),
        isNull(webhookDeliveries.replayOf),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.attempts, 0),
      ),
    )
    .all();
  await Promise.all(pending.map((d) => attemptDelivery(env, d.id)));
}

/** One delivery attempt: signs, posts, logs the attempt, then succeeds, schedules a retry, or gives up after 3 days. */
export async function attemptDelivery(env: Env, deliveryId: string, db: DB = getDb(env.DB)): Promise<DeliveryRow['status'] | 'missing'> {
  const d = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).get();
  if (!d) return 'missing';
  if (d.status === 'succeeded' || d.status === 'failed') return d.status;
  const [ep, event] = await Promise.all([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, d.endpointId)).get(),
    db.select().from(webhookEvents).where(eq(webhookEvents.id, d.eventId)).get(),
  ]);
  const nowMs = Date.now();
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
  const timestamp = Math.floor(nowMs / 1000).toString();
  const signature = await hmacSha256Hex(ep.secret, `${timestamp}.${body}`);
  let statusCode: number | null = null;
  let error: string | null = null;
  const started = Date.now();
  try {
    const res = await safeFetch(env, ep.url, {
      method: 'POST',
      timeoutMs: 10_000,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Berth-Webhooks/1.0',
        'X-Service-Signature': signature,
        'X-Service-Timestamp': timestamp,
        'X-Service-Event-Id': event.id,
        'X-Service-Event-Type': event.type,
        'X-Service-Delivery-Id': d.id,
      },
      body,
    });
    statusCode = res.status;
    if (!res.ok) error = `HTTP ${res.status}`;
    await res.body?.cancel();
  } catch (err) {
    error = (err as Error).message || String(err);
  }
  const durationMs = Date.now() - started;
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
          completedAt: new Date().toISOString(),
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
        completedAt: giveUp ? new Date().toISOString() : null,
      })
      .where(eq(webhookDeliveries.id, d.id)),
  ]);
  if (!giveUp) await env.EVENTS_QUEUE.send({ kind: 'webhook.deliver', deliveryId: d.id }, { delaySeconds: delay });
  return giveUp ? 'failed' : 'retrying';
}

/** Cron: re-dispatch events whose queue send was lost and deliveries whose retry message was lost. */
export async function sweepWebhooks(env: Env): Promise<{ events: number; deliveries: number }> {
  const db = getDb(env.DB);
  const cutoff = new Date(Date.now() - 60_000).toISOString();
  const events = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(isNull(webhookEvents.dispatchedAt), lt(webhookEvents.createdAt, cutoff)))
    .limit(500)
    .all();
  if (events.length)
    await dispatchEvents(
      env,
      events.map((e) => e.id),
    );
  const lost = new Date(Date.now() - 15 * 60_000).toISOString();
  const stuck = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.status, ['pending', 'retrying']), lt(webhookDeliveries.nextAttemptAt, lost)))
    .limit(500)
    .all();
  for (const s of stuck) await env.EVENTS_QUEUE.send({ kind: 'webhook.deliver', deliveryId: s.id });
  return { events: events.length, deliveries: stuck.length };
}

// ---- endpoints owned by another module (installed apps) ----

/**
 * Keeps the one webhook endpoint an owner (for example an app installation, owner type `app`)
 * has on an operator: created, updated, or disabled when `wanted` is null. Deliveries use the
 * operator's machinery: same signature, retries, log and replay; the operator's own list does
 * not show them.
 */
export async function syncOwnedEndpoint(
  ctx: Ctx,
  owner: { type: string; id: string },
  wanted: { customerId: string; url: string; events: string[]; secret: string; description: string } | null,
): Promise<void> {
  const existing = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.ownerType, owner.type), eq(webhookEndpoints.ownerId, owner.id)))
    .get();
  if (!wanted || !wanted.events.length) {
    if (existing && existing.status === 'active') await ctx.db.update(webhookEndpoints).set({ status: 'disabled' }).where(eq(webhookEndpoints.id, existing.id));
    return;
  }
  if (!existing) {
    await ctx.db.insert(webhookEndpoints).values({
      id: newId('whe'),
      customerId: wanted.customerId,
      url: wanted.url,
      description: wanted.description,
      events: wanted.events,
      secret: wanted.secret,
      status: 'active',
      ownerType: owner.type,
      ownerId: owner.id,
    });
    return;
  }
  await ctx.db
    .update(webhookEndpoints)
    .set({ url: wanted.url, events: wanted.events, secret: wanted.secret, description: wanted.description, status: 'active' })
    .where(and(eq(webhookEndpoints.id, existing.id), eq(webhookEndpoints.customerId, wanted.customerId)));
}
