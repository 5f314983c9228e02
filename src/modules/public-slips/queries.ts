/**
 * The public pages learn the operator from the location or unit in the path, then act for that
 * operator (`forOperator`): every later read is tenant-scoped again. Units out of service and
 * locations scheduled for deletion do not exist for the public (404).
 */
import { and, asc, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { onOperatorClock } from '../../lib/operator-clock';
import { slips } from '../../db/schema/slips';
import { getLocationInTenant, locationRowAnyOperator, type LocationRow } from '../locations/service';
import { getSlipSettings, type SlipSettings } from '../marina-settings/service';
import { slipRowAnyOperator, type SlipRow } from '../slips/service';
import type { UnitType } from '../slips/types';

export interface Operator {
  ctx: Ctx;
  location: LocationRow;
  settings: SlipSettings;
}

/**
 * The same context acting for the operator of the record (anonymous callers have none), on that
 * operator's clock (a sandbox test clock's operator reads its frozen time).
 */
export const forOperator = async (ctx: Ctx, customerId: string): Promise<Ctx> =>
  onOperatorClock(ctx.principal.customerId === customerId ? ctx : { ...ctx, principal: { ...ctx.principal, customerId } }, customerId);

export async function publicLocation(ctx: Ctx, locationId: string): Promise<Operator> {
  const loc = await locationRowAnyOperator(ctx, locationId);
  if (!loc || loc.status !== 'active') throw notFound('Location');
  const tctx = await forOperator(ctx, loc.customerId);
  return { ctx: tctx, location: loc, settings: await getSlipSettings(tctx, loc.id) };
}

export async function publicUnit(ctx: Ctx, slipId: string): Promise<Operator & { slip: SlipRow }> {
  const slip = await slipRowAnyOperator(ctx, slipId);
  if (!slip || slip.status === 'out_of_service') throw notFound('Slip');
  const tctx = await forOperator(ctx, slip.customerId);
  const location = await getLocationInTenant(tctx, slip.locationId);
  if (location.status !== 'active') throw notFound('Slip');
  return { ctx: tctx, location, settings: await getSlipSettings(tctx, location.id), slip };
}

/** Units of a location shown publicly (every status but out of service), by section and number. */
export async function publicUnits(op: Operator, q: { unitType?: UnitType; section?: string; minLoaFt?: number; limit: number; offset: number }) {
  const conds: SQL[] = [eq(slips.customerId, op.location.customerId), eq(slips.locationId, op.location.id), sql`${slips.status} <> 'out_of_service'`];
  if (q.unitType) conds.push(eq(slips.unitType, q.unitType));
  if (q.section) conds.push(eq(slips.section, q.section));
  if (q.minLoaFt != null) conds.push(gte(sql`coalesce(${slips.maxLoaFt}, ${slips.lengthFt}, 1e9)`, q.minLoaFt));
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    op.ctx.db.select().from(slips).where(where).orderBy(asc(slips.section), asc(slips.unitNumber)).limit(q.limit).offset(q.offset).all(),
    op.ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slips)
      .where(where)
      .get(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export async function unitCounts(op: Operator) {
  const rows = await op.ctx.db
    .select({ unitType: slips.unitType, status: slips.status, n: sql<number>`count(*)` })
    .from(slips)
    .where(and(eq(slips.customerId, op.location.customerId), eq(slips.locationId, op.location.id), sql`${slips.status} <> 'out_of_service'`))
    .groupBy(slips.unitType, slips.status)
    .all();
  const byType: Record<string, number> = {};
  let total = 0;
  let bookable = 0;
  for (const r of rows) {
    byType[r.unitType] = (byType[r.unitType] ?? 0) + Number(r.n);
    total += Number(r.n);
    if (r.status !== 'maintenance') bookable += Number(r.n);
  }
  return { total, bookable, byType };
}
