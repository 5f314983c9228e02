import { and, asc, eq, inArray, is, SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { locations } from '../../db/schema/locations';

export interface AnalyticsLocation {
  locationId: string;
  name: string;
  timezone: string;
  currency: string;
}

const columns = { locationId: locations.id, name: locations.name, timezone: locations.timezone, currency: locations.currency };

/**
 * The caller's locations with these ids, in the order given. An id that is not one of the caller's
 * (unknown, or another operator's) answers 404, like every other foreign id.
 */
export async function locationsInTenant(ctx: Ctx, ids: string[]): Promise<AnalyticsLocation[]> {
  const customerId = tenantOf(ctx);
  const rows = await ctx.db
    .select(columns)
    .from(locations)
    .where(and(eq(locations.customerId, customerId), inArray(locations.id, ids)))
    .all();
  const byId = new Map(rows.map((r) => [r.locationId, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw notFound(`Location ${missing[0]}`);
  return ids.map((id) => byId.get(id)!);
}

/** Every location of the caller. */
export async function allLocations(ctx: Ctx): Promise<AnalyticsLocation[]> {
  return ctx.db
    .select(columns)
    .from(locations)
    .where(eq(locations.customerId, tenantOf(ctx)))
    .orderBy(asc(locations.createdAt))
    .all();
}

/** The one currency of a set of locations (amounts of different currencies are never added up). */
export function currencyOf(locs: AnalyticsLocation[]): string {
  const set = [...new Set(locs.map((l) => l.currency))];
  if (set.length > 1)
    throw new ApiError('validation_failed', `Invalid request: these locations use different currencies (${set.join(', ')}); ask for one currency at a time`, {
      details: [{ field: 'locationIds', location: 'query', code: 'mixed_currencies', message: `locations use ${set.join(', ')}` }],
    });
  return set[0] ?? 'usd';
}

type BatchRead = SQL | Parameters<Ctx['db']['batch']>[0][number];

/**
 * Runs report statements in one D1 round trip and answers each one's rows. Raw statements bind no
 * parameters (a raw statement in a D1 batch cannot): values are written as quoted literals
 * (./sql-literals.ts); query-builder statements bind as usual.
 */
export async function readBatch(ctx: Ctx, queries: BatchRead[]): Promise<Record<string, unknown>[][]> {
  if (!queries.length) return [];
  const stmts = queries.map((q) => (is(q, SQL) ? ctx.db.all<Record<string, unknown>>(q) : q));
  return (await ctx.db.batch(stmts as [(typeof stmts)[number], ...typeof stmts])) as Record<string, unknown>[][];
}

/**
 * The locations' zone, currency and name, remembered per isolate (bounded). Never trusted alone: a
 * report built from remembered values reads the locations again in its own batch and is rebuilt from
 * the fresh rows when they differ (a changed zone, a deleted location), so the cache only saves the
 * round trip that would fetch the zone before the report's statements can be written.
 */
const remembered = new Map<string, AnalyticsLocation>();
const memoKey = (customerId: string, id: string) => `${customerId}\u0000${id}`;
const same = (a: AnalyticsLocation, b: AnalyticsLocation | undefined) =>
  !!b && a.locationId === b.locationId && a.timezone === b.timezone && a.currency === b.currency && a.name === b.name;

/**
 * A report over the caller's locations: `build` writes its statements from the locations, and they
 * run in one D1 batch (one round trip after authentication when the locations are remembered, two
 * otherwise). Unknown and foreign ids answer 404.
 */
export async function reportBatch(
  ctx: Ctx,
  ids: string[],
  build: (locs: AnalyticsLocation[]) => BatchRead[],
): Promise<{ locs: AnalyticsLocation[]; results: Record<string, unknown>[][] }> {
  const customerId = tenantOf(ctx);
  const known = ids.map((id) => remembered.get(memoKey(customerId, id)));
  let statements: BatchRead[] | null = null;
  if (known.every(Boolean)) {
    const locs = known as AnalyticsLocation[];
    try {
      statements = build(locs);
    } catch {
      statements = null; // refused on remembered values (a currency mix, say): decide on fresh rows below
    }
  }
  if (known.every(Boolean) && statements) {
    const locs = known as AnalyticsLocation[];
    const check = ctx.db
      .select(columns)
      .from(locations)
      .where(and(eq(locations.customerId, customerId), inArray(locations.id, ids)));
    const [fresh, ...results] = await readBatch(ctx, [check, ...statements]);
    const byId = new Map((fresh as unknown as AnalyticsLocation[]).map((l) => [l.locationId, l]));
    if (locs.every((l) => same(l, byId.get(l.locationId)))) return { locs, results };
    for (const id of ids) remembered.delete(memoKey(customerId, id));
  }
  const locs = await locationsInTenant(ctx, ids);
  if (remembered.size > 5000) remembered.clear();
  for (const l of locs) remembered.set(memoKey(customerId, l.locationId), l);
  return { locs, results: await readBatch(ctx, build(locs)) };
}
