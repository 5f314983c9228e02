// Webhooks' face: what other code may call, and the operator's endpoint use cases it defines
// (create, update, delete, replay, test event); reads are in queries.ts, delivery in delivery.ts.
// Others use it for:
// - an endpoint owned by another module (app installations): syncOwnedEndpoint
// - one delivery attempt and the retry schedule (tests): attemptDelivery, backoffSeconds
import { and, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { enqueue } from '../../lib/queue';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { checkOutboundUrl, type UrlPolicy } from '../../adapters/http';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/events';
import { endpointInTenant } from './queries';
import { deliveryOut, endpointOut, type DeliveryRow, type EndpointRow } from './views';

export { attemptDelivery, backoffSeconds } from './delivery';

/** An operator's own endpoint: the outbound URL policy, with its local URLs allowed while developing. */
const OPERATOR_URL: UrlPolicy = { field: 'url', localInDevelopment: true };

export async function createEndpoint(ctx: Ctx, input: { url: string; events: string[]; description?: string }) {
  const customerId = tenantOf(ctx);
  await checkOutboundUrl(ctx.env, input.url, OPERATOR_URL);
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
    createdAt: nowIso(ctx),
    updatedAt: nowIso(ctx),
  };
  await commit(ctx, [ctx.db.insert(webhookEndpoints).values(row)], {
    audit: { action: 'webhook.create', targetType: 'webhook_endpoint', targetId: row.id, details: { url: row.url, events: row.events } },
  });
  return { ...endpointOut(row), secret: row.secret };
}

export async function updateEndpoint(
  ctx: Ctx,
  id: string,
  input: { url?: string; events?: string[]; description?: string | null; status?: 'active' | 'disabled' },
) {
  const existing = await endpointInTenant(ctx, id);
  const patch: Partial<EndpointRow> = {};
  if (input.url !== undefined) {
    await checkOutboundUrl(ctx.env, input.url, OPERATOR_URL);
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
  return endpointOut({ ...existing, ...patch, updatedAt: nowIso(ctx) });
}

export async function deleteEndpoint(ctx: Ctx, id: string) {
  const existing = await endpointInTenant(ctx, id);
  await commit(ctx, [ctx.db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, existing.customerId)))], {
    audit: { action: 'webhook.delete', targetType: 'webhook_endpoint', targetId: id },
  });
  return { success: true, id };
}

export async function replayDelivery(ctx: Ctx, deliveryId: string) {
  const customerId = tenantOf(ctx);
  const d = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.customerId, customerId)))
    .get();
  if (!d) throw notFound('Delivery');
  const now = nowIso(ctx);
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
  await enqueue(ctx, { kind: 'webhook.deliver', deliveryId: replay.id });
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
