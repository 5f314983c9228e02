import { and, asc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { slips } from '../../db/schema/slips';
import { getLocationInTenant } from '../locations/service';
import { slipOut, type SlipRow } from './views';
import type { SlipStatus, UnitType } from './types';

/** Natural order of unit numbers within a section: A-2 before A-10. */
export const slipOrder = [asc(sql`coalesce(${slips.section}, '')`), asc(sql`length(${slips.unitNumber})`), asc(slips.unitNumber)];

/** A unit of the caller; another operator's (or an unknown) id answers 404. */
export async function getSlipRow(ctx: Ctx, id: string): Promise<SlipRow> {
  const row = await ctx.db
    .select()
    .from(slips)
    .where(and(eq(slips.id, id), eq(slips.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Slip');
  return row;
}

/**
 * A unit by id whatever its operator, or null: for the public slip pages, which learn the operator
 * from the unit (every later read is tenant-scoped again).
 */
export async function slipRowAnyOperator(ctx: Ctx, id: string): Promise<SlipRow | null> {
  return (await ctx.db.select().from(slips).where(eq(slips.id, id)).get()) ?? null;
}

export async function getSlip(ctx: Ctx, id: string) {
  return slipOut(await getSlipRow(ctx, id));
}

/** Units of the caller by id (missing ids are left out). */
export async function slipRowsByIds(ctx: Ctx, ids: string[]): Promise<SlipRow[]> {
  if (!ids.length) return [];
  return ctx.db
    .select()
    .from(slips)
    .where(and(eq(slips.customerId, tenantOf(ctx)), inArray(slips.id, [...new Set(ids)])))
    .all();
}

export interface SlipFilter {
  locationId: string;
  status?: SlipStatus;
  unitType?: UnitType;
  section?: string;
  /** Leave out units that take no reservations (maintenance, out of service). */
  openOnly?: boolean;
}

function filterOf(customerId: string, f: SlipFilter): SQL {
  const conds: SQL[] = [eq(slips.customerId, customerId), eq(slips.locationId, f.locationId)];
  if (f.status) conds.push(eq(slips.status, f.status));
  if (f.unitType) conds.push(eq(slips.unitType, f.unitType));
  if (f.section) conds.push(eq(slips.section, f.section));
  if (f.openOnly) conds.push(and(ne(slips.status, 'maintenance'), ne(slips.status, 'out_of_service'))!);
  return and(...conds)!;
}

/** Every unit of a location matching the filter (no paging; for availability and maps). */
export async function slipRowsOfLocation(ctx: Ctx, f: SlipFilter): Promise<SlipRow[]> {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, f.locationId);
  return ctx.db
    .select()
    .from(slips)
    .where(filterOf(customerId, f))
    .orderBy(...slipOrder)
    .all();
}

export async function listSlips(ctx: Ctx, q: Omit<SlipFilter, 'openOnly'> & { limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, q.locationId);
  const where = filterOf(customerId, q);
  const [rows, count] = await Promise.all([
    ctx.db
      .select()
      .from(slips)
      .where(where)
      .orderBy(...slipOrder)
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slips)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(slipOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

export async function searchSlips(ctx: Ctx, q: { q: string; locationId?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  const pattern = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  const conds: SQL[] = [
    eq(slips.customerId, customerId),
    or(sql`${slips.unitNumber} LIKE ${pattern} ESCAPE '\\'`, sql`coalesce(${slips.name}, '') LIKE ${pattern} ESCAPE '\\'`)!,
  ];
  if (q.locationId) conds.push(eq(slips.locationId, q.locationId));
  const where = and(...conds);
  // Exact unit-number matches first, then prefix matches, then the rest.
  const rank = sql`case when lower(${slips.unitNumber}) = ${q.q.toLowerCase()} then 0 when lower(${slips.unitNumber}) like ${`${q.q.toLowerCase()}%`} then 1 else 2 end`;
  const [rows, count] = await Promise.all([
    ctx.db
      .select()
      .from(slips)
      .where(where)
      .orderBy(asc(rank), ...slipOrder)
      .limit(q.limit)
      .offset(q.offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slips)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(slipOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** Units of a map, or of a location that are on no map (and in service). */
export async function slipRowsOnMap(ctx: Ctx, mapId: string): Promise<SlipRow[]> {
  return ctx.db
    .select()
    .from(slips)
    .where(and(eq(slips.customerId, tenantOf(ctx)), eq(slips.mapId, mapId)))
    .orderBy(...slipOrder)
    .all();
}

export async function unassignedSlipRows(ctx: Ctx, locationId: string): Promise<SlipRow[]> {
  return ctx.db
    .select()
    .from(slips)
    .where(and(eq(slips.customerId, tenantOf(ctx)), eq(slips.locationId, locationId), isNull(slips.mapId), ne(slips.status, 'out_of_service')))
    .orderBy(...slipOrder)
    .all();
}

export async function slipStats(ctx: Ctx, locationId: string) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const rows = await ctx.db
    .select({ status: slips.status, unitType: slips.unitType, n: sql<number>`count(*)` })
    .from(slips)
    .where(and(eq(slips.customerId, customerId), eq(slips.locationId, locationId)))
    .groupBy(slips.status, slips.unitType)
    .all();
  const byStatus: Record<string, number> = { available: 0, occupied: 0, reserved: 0, maintenance: 0, out_of_service: 0 };
  const byUnitType: Record<string, number> = { slip: 0, side_tie: 0, mooring: 0, dry_rack: 0 };
  let total = 0;
  for (const r of rows) {
    const n = Number(r.n);
    total += n;
    byStatus[r.status] = (byStatus[r.status] ?? 0) + n;
    byUnitType[r.unitType] = (byUnitType[r.unitType] ?? 0) + n;
  }
  const inService = total - byStatus.out_of_service;
  return { locationId, total, inService, byStatus, byUnitType, occupancyPercent: inService ? Math.round((byStatus.occupied / inService) * 1000) / 10 : 0 };
}

export async function listSections(ctx: Ctx, locationId: string) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const rows = await ctx.db
    .selectDistinct({ section: slips.section })
    .from(slips)
    .where(and(eq(slips.customerId, customerId), eq(slips.locationId, locationId), sql`${slips.section} IS NOT NULL`))
    .orderBy(asc(slips.section))
    .all();
  return { locationId, data: rows.map((r) => r.section!) };
}

export async function sectionCounts(ctx: Ctx, locationId: string) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const rows = await ctx.db
    .select({ section: slips.section, status: slips.status, n: sql<number>`count(*)` })
    .from(slips)
    .where(and(eq(slips.customerId, customerId), eq(slips.locationId, locationId)))
    .groupBy(slips.section, slips.status)
    .all();
  const map = new Map<string, { section: string; total: number; byStatus: Record<string, number> }>();
  let unsectioned = 0;
  for (const r of rows) {
    const n = Number(r.n);
    if (r.section == null) {
      unsectioned += n;
      continue;
    }
    const e = map.get(r.section) ?? { section: r.section, total: 0, byStatus: {} };
    e.total += n;
    e.byStatus[r.status] = (e.byStatus[r.status] ?? 0) + n;
    map.set(r.section, e);
  }
  return { locationId, data: [...map.values()].sort((a, b) => a.section.localeCompare(b.section)), unsectioned };
}

/** Slips of the operator that count for the subscription (every location, not out of service). */
export async function slipsInService(ctx: Ctx, customerId: string): Promise<number> {
  const row = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(slips)
    .where(and(eq(slips.customerId, customerId), ne(slips.status, 'out_of_service')))
    .get();
  return Number(row?.n ?? 0);
}
