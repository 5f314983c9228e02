import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/events';
import { deliveryOut, endpointOut, type DeliveryRow, type EndpointRow } from './views';

/** Tenant-scoped read of an operator endpoint (not a reseller's); another operator's answers 404. */
export async function endpointInTenant(ctx: Ctx, id: string): Promise<EndpointRow> {
  const row = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.customerId, tenantOf(ctx)), eq(webhookEndpoints.ownerType, 'operator')))
    .get();
  if (!row) throw notFound('Webhook endpoint');
  return row;
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

/** One endpoint of the caller. */
export const getEndpoint = async (ctx: Ctx, id: string) => endpointOut(await endpointInTenant(ctx, id));

/** The deliveries of an endpoint, newest first, each with its attempt log. */
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
