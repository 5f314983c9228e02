import { and, desc, eq, gte, isNotNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { meterReadings as M } from '../../db/schema/meter-readings';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings, type UtilityRates } from '../marina-settings/service';
import { getReservationRow } from '../slip-reservations/service';
import { getSlipRow } from '../slips/service';
import type * as s from './schemas';
import type { Utility } from './types';
import { readingOut, type ReadingRow } from './views';

/** Cents per kWh or gallon (decimals allowed). */
export const rateOf = (r: UtilityRates, u: Utility) => (u === 'electricity' ? r.electricityPerKwhCents : r.waterPerGallonCents);
/** A usage at a rate, rounded to the cent. */
export const amountOf = (usage: number, rate: number) => Math.round(usage * rate);
const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function getReadingRow(ctx: Ctx, id: string): Promise<ReadingRow> {
  const row = await ctx.db
    .select()
    .from(M)
    .where(and(eq(M.id, id), eq(M.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Meter reading');
  return row;
}

export const getReading = async (ctx: Ctx, id: string) => readingOut(await getReadingRow(ctx, id));

/** The latest reading of a unit and utility (optionally other than `exceptId`). */
export async function latestOf(ctx: Ctx, slipId: string, utility: Utility, exceptId?: string): Promise<ReadingRow | null> {
  const conds = [eq(M.customerId, tenantOf(ctx)), eq(M.slipId, slipId), eq(M.utility, utility)];
  if (exceptId) conds.push(ne(M.id, exceptId));
  return (
    (await ctx.db
      .select()
      .from(M)
      .where(and(...conds))
      .orderBy(desc(M.readAt), desc(M.id))
      .limit(1)
      .get()) ?? null
  );
}

/** The reading whose usage is counted from `id` (the next one of the chain). */
export async function successorOf(ctx: Ctx, r: ReadingRow): Promise<ReadingRow | null> {
  return (
    (await ctx.db
      .select()
      .from(M)
      .where(and(eq(M.customerId, r.customerId), eq(M.slipId, r.slipId), eq(M.utility, r.utility), eq(M.previousReadingId, r.id)))
      .get()) ?? null
  );
}

/** The readings of a unit and utility before an instant, newest first (for the usual usage). */
export async function readingsBefore(ctx: Ctx, slipId: string, utility: Utility, before: string, n: number) {
  const conds = [eq(M.customerId, tenantOf(ctx)), eq(M.slipId, slipId), eq(M.utility, utility), lt(M.readAt, before)];
  return ctx.db
    .select()
    .from(M)
    .where(and(...conds))
    .orderBy(desc(M.readAt), desc(M.id))
    .limit(n)
    .all();
}

async function page(ctx: Ctx, where: SQL | undefined, q: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    ctx.db.select().from(M).where(where).orderBy(desc(M.readAt), desc(M.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(M)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(readingOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

const iso = (v: string) => new Date(v).toISOString();

export async function listReadings(ctx: Ctx, q: z.output<typeof s.ListQuery>) {
  if (!q.locationId && !q.slipId && !q.reservationId)
    throw new ApiError('validation_failed', 'Give locationId, slipId or reservationId', {
      details: [{ field: 'locationId', code: 'required', message: 'locationId, slipId or reservationId is required' }],
    });
  const conds: SQL[] = [eq(M.customerId, tenantOf(ctx))];
  if (q.locationId) {
    await getLocationInTenant(ctx, q.locationId);
    conds.push(eq(M.locationId, q.locationId));
  }
  if (q.slipId) {
    await getSlipRow(ctx, q.slipId);
    conds.push(eq(M.slipId, q.slipId));
  }
  if (q.utility) conds.push(eq(M.utility, q.utility));
  if (q.billed) conds.push(eq(M.billed, q.billed === 'true'));
  if (q.flagged) conds.push(eq(M.flagged, q.flagged === 'true'));
  if (q.reservationId) {
    await getReservationRow(ctx, q.reservationId);
    conds.push(eq(M.reservationId, q.reservationId));
  }
  if (q.from) conds.push(gte(M.readAt, iso(q.from)));
  if (q.to) conds.push(lte(M.readAt, iso(q.to)));
  return page(ctx, and(...conds), q);
}

/** Unbilled readings with usage, awaiting a charge (flagged ones included, marked). */
const unbilledWhere = (customerId: string, locationId: string, utility?: Utility) =>
  and(eq(M.customerId, customerId), eq(M.locationId, locationId), eq(M.billed, false), isNotNull(M.usage), ...(utility ? [eq(M.utility, utility)] : []));

export async function unbilledReadings(ctx: Ctx, q: z.output<typeof s.UnbilledQuery>) {
  await getLocationInTenant(ctx, q.locationId);
  const customerId = tenantOf(ctx);
  const settings = await getSlipSettings(ctx, q.locationId);
  const rates = settings.utilityRates;
  const where = unbilledWhere(customerId, q.locationId, q.utility);
  const [rows, all] = await Promise.all([
    ctx.db.select().from(M).where(where).orderBy(M.slipId, M.utility, M.readAt).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ utility: M.utility, usage: M.usage }).from(M).where(where).all(),
  ]);
  const totals = { electricity: { usage: 0, amountCents: 0, readings: 0 }, water: { usage: 0, amountCents: 0, readings: 0 } };
  for (const r of all) {
    const t = totals[r.utility];
    t.usage = round3(t.usage + (r.usage ?? 0));
    t.amountCents += amountOf(r.usage ?? 0, rateOf(rates, r.utility));
    t.readings++;
  }
  return {
    locationId: q.locationId,
    rates,
    totals,
    data: rows.map((r) => ({ ...readingOut(r), amountCents: amountOf(r.usage ?? 0, rateOf(rates, r.utility)) })),
    total: all.length,
    limit: q.limit,
    offset: q.offset,
  };
}

export async function latestOfUnit(ctx: Ctx, unitId: string, q: { utility?: Utility }) {
  const slip = await getSlipRow(ctx, unitId);
  const [electricity, water] = await Promise.all([
    !q.utility || q.utility === 'electricity' ? latestOf(ctx, slip.id, 'electricity') : null,
    !q.utility || q.utility === 'water' ? latestOf(ctx, slip.id, 'water') : null,
  ]);
  return { slipId: slip.id, unitNumber: slip.unitNumber, electricity: electricity ? readingOut(electricity) : null, water: water ? readingOut(water) : null };
}

export async function historyOfUnit(ctx: Ctx, unitId: string, q: z.output<typeof s.HistoryQuery>) {
  const slip = await getSlipRow(ctx, unitId);
  const conds: SQL[] = [eq(M.customerId, slip.customerId), eq(M.slipId, slip.id)];
  if (q.utility) conds.push(eq(M.utility, q.utility));
  if (q.from) conds.push(gte(M.readAt, iso(q.from)));
  if (q.to) conds.push(lte(M.readAt, iso(q.to)));
  const where = and(...conds);
  const [list, sums] = await Promise.all([
    page(ctx, where, q),
    ctx.db
      .select({ utility: M.utility, usage: sql<number>`coalesce(sum(${M.usage}), 0)` })
      .from(M)
      .where(where)
      .groupBy(M.utility)
      .all(),
  ]);
  const usage = { electricity: 0, water: 0 };
  for (const u of sums) usage[u.utility] = round3(Number(u.usage));
  return { slipId: slip.id, ...list, usage };
}

export async function meterStats(ctx: Ctx, q: z.output<typeof s.LocationQuery>) {
  await getLocationInTenant(ctx, q.locationId);
  const customerId = tenantOf(ctx);
  const settings = await getSlipSettings(ctx, q.locationId);
  const conds: SQL[] = [eq(M.customerId, customerId), eq(M.locationId, q.locationId)];
  if (q.from) conds.push(gte(M.readAt, iso(q.from)));
  if (q.to) conds.push(lte(M.readAt, iso(q.to)));
  const rows = await ctx.db
    .select({ slipId: M.slipId, utility: M.utility, usage: M.usage, billed: M.billed, flagged: M.flagged, reviewedAt: M.reviewedAt })
    .from(M)
    .where(and(...conds))
    .all();
  const blank = () => ({ readings: 0, usage: 0, billedUsage: 0, unbilledUsage: 0, unbilledCents: 0 });
  const byUtility = { electricity: blank(), water: blank() };
  let billed = 0;
  let flagged = 0;
  let awaitingReview = 0;
  for (const r of rows) {
    const u = byUtility[r.utility];
    const use = r.usage ?? 0;
    u.readings++;
    u.usage = round3(u.usage + use);
    if (r.billed) {
      billed++;
      u.billedUsage = round3(u.billedUsage + use);
    } else {
      u.unbilledUsage = round3(u.unbilledUsage + use);
      u.unbilledCents += amountOf(use, rateOf(settings.utilityRates, r.utility));
    }
    if (r.flagged) {
      flagged++;
      if (!r.reviewedAt) awaitingReview++;
    }
  }
  return {
    locationId: q.locationId,
    from: q.from ? iso(q.from) : null,
    to: q.to ? iso(q.to) : null,
    readings: rows.length,
    unitsRead: new Set(rows.map((r) => r.slipId)).size,
    billed,
    unbilled: rows.length - billed,
    flagged,
    awaitingReview,
    byUtility,
  };
}
