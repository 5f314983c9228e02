import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { addDays } from '../../lib/time';
import { haulLiftBookings as L, haulServices as H } from '../../db/schema/haul-services';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { getRenterInTenant } from '../renters/service';
import { getReservationRow } from '../slip-reservations/service';
import type * as s from './schemas';
import { HAUL_STATUSES } from './types';
import { haulOut, type HaulRow, type LiftRow } from './views';

/** The date a service is listed under: its scheduled date, else the requested one. */
const serviceDate = sql<string>`coalesce(${H.scheduledDate}, ${H.requestedDate})`;

export async function getHaulRow(ctx: Ctx, id: string): Promise<HaulRow> {
  const row = await ctx.db
    .select()
    .from(H)
    .where(and(eq(H.id, id), eq(H.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Haul service');
  return row;
}

export async function liftsOf(ctx: Ctx, ids: string[]): Promise<Map<string, LiftRow[]>> {
  const out = new Map<string, LiftRow[]>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await ctx.db
      .select()
      .from(L)
      .where(and(eq(L.customerId, tenantOf(ctx)), inArray(L.serviceId, ids.slice(i, i + 90))))
      .all();
    for (const l of rows) out.set(l.serviceId, [...(out.get(l.serviceId) ?? []), l]);
  }
  return out;
}

export async function haulView(ctx: Ctx, h: HaulRow) {
  return haulOut(h, (await liftsOf(ctx, [h.id])).get(h.id) ?? []);
}

export const getHaulService = async (ctx: Ctx, id: string) => haulView(ctx, await getHaulRow(ctx, id));

async function page(ctx: Ctx, where: SQL | undefined, q: { limit: number; offset: number }, order: 'date' | 'newest' = 'date') {
  const [rows, count] = await Promise.all([
    ctx.db
      .select()
      .from(H)
      .where(where)
      .orderBy(...(order === 'date' ? [asc(serviceDate), asc(H.scheduledTime), asc(H.createdAt)] : [desc(H.createdAt), desc(H.id)]))
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(H)
      .where(where)
      .get(),
  ]);
  const lifts = await liftsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return { data: rows.map((r) => haulOut(r, lifts.get(r.id) ?? [])), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

export async function listHaulServices(ctx: Ctx, q: z.output<typeof s.ListQuery>) {
  await getLocationInTenant(ctx, q.locationId);
  const conds: SQL[] = [eq(H.customerId, tenantOf(ctx)), eq(H.locationId, q.locationId)];
  if (q.status) conds.push(eq(H.status, q.status));
  if (q.serviceType) conds.push(eq(H.serviceType, q.serviceType));
  if (q.startDate) conds.push(gte(serviceDate, q.startDate));
  if (q.endDate) conds.push(lte(serviceDate, q.endDate));
  return page(ctx, and(...conds), q);
}

export async function haulServicesOfRenter(ctx: Ctx, renterId: string, q: { limit: number; offset: number }) {
  const r = await getRenterInTenant(ctx, renterId);
  return page(ctx, and(eq(H.customerId, tenantOf(ctx)), eq(H.renterId, r.id)), q, 'newest');
}

export async function haulServicesOfReservation(ctx: Ctx, reservationId: string, q: { limit: number; offset: number }) {
  const r = await getReservationRow(ctx, reservationId);
  return page(ctx, and(eq(H.customerId, r.customerId), eq(H.reservationId, r.id)), q, 'newest');
}

/** Lifts booked on a local day of a location. */
export async function liftsBookedOn(ctx: Ctx, locationId: string, date: string) {
  const row = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(L)
    .where(and(eq(L.customerId, tenantOf(ctx)), eq(L.locationId, locationId), eq(L.liftDate, date)))
    .get();
  return Number(row?.n ?? 0);
}

/** GET /haul-services/scheduled/{date}: the services with a lift that day, and what is left of the day's capacity. */
export async function scheduledOn(ctx: Ctx, date: string, q: { locationId: string }) {
  await getLocationInTenant(ctx, q.locationId);
  const customerId = tenantOf(ctx);
  const [settings, liftRows] = await Promise.all([
    getSlipSettings(ctx, q.locationId),
    ctx.db
      .select({ serviceId: L.serviceId })
      .from(L)
      .where(and(eq(L.customerId, customerId), eq(L.locationId, q.locationId), eq(L.liftDate, date)))
      .all(),
  ]);
  const ids = [...new Set(liftRows.map((l) => l.serviceId))];
  const rows = ids.length
    ? await ctx.db
        .select()
        .from(H)
        .where(and(eq(H.customerId, customerId), inArray(H.id, ids)))
        .orderBy(asc(H.scheduledTime), asc(H.createdAt))
        .all()
    : [];
  const lifts = await liftsOf(ctx, ids);
  const booked = liftRows.length;
  return {
    locationId: q.locationId,
    date,
    capacity: settings.dailyLiftCapacity,
    liftsBooked: booked,
    liftsLeft: Math.max(0, settings.dailyLiftCapacity - booked),
    data: rows.map((r) => haulOut(r, lifts.get(r.id) ?? [])),
    total: rows.length,
  };
}

export async function haulStats(ctx: Ctx, q: { locationId: string }) {
  const loc = await getLocationInTenant(ctx, q.locationId);
  const customerId = tenantOf(ctx);
  const today = todayIn(ctx, loc.timezone);
  const base = and(eq(H.customerId, customerId), eq(H.locationId, q.locationId));
  const [byStatusRows, byTypeRows, upcoming, revenue, settings, booked] = await Promise.all([
    ctx.db
      .select({ k: H.status, n: sql<number>`count(*)` })
      .from(H)
      .where(base)
      .groupBy(H.status)
      .all(),
    ctx.db
      .select({ k: H.serviceType, n: sql<number>`count(*)` })
      .from(H)
      .where(base)
      .groupBy(H.serviceType)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(H)
      .where(and(base, inArray(H.status, ['scheduled', 'confirmed']), gte(H.scheduledDate, today), lte(H.scheduledDate, addDays(today, 6))))
      .get(),
    ctx.db
      .select({ c: sql<number>`coalesce(sum(json_extract(${H.pricing}, '$.totalCents')), 0)` })
      .from(H)
      .where(and(base, eq(H.status, 'completed')))
      .get(),
    getSlipSettings(ctx, q.locationId),
    liftsBookedOn(ctx, q.locationId, today),
  ]);
  const byStatus = Object.fromEntries(HAUL_STATUSES.map((k) => [k, 0]));
  for (const r of byStatusRows) byStatus[r.k] = Number(r.n);
  const byType: Record<string, number> = {};
  for (const r of byTypeRows) byType[r.k] = Number(r.n);
  return {
    locationId: q.locationId,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    byStatus,
    byType,
    today: { date: today, liftsBooked: booked, capacity: settings.dailyLiftCapacity },
    upcoming7Days: Number(upcoming?.n ?? 0),
    awaitingSchedule: byStatus.requested ?? 0,
    completedRevenueCents: Number(revenue?.c ?? 0),
  };
}
