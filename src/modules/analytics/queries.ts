import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
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

/**
 * Runs report statements in one D1 round trip and answers each one's rows. The statements bind no
 * parameters (a raw statement in a D1 batch cannot): values are written as quoted literals
 * (./sql-literals.ts).
 */
export async function readBatch(ctx: Ctx, queries: SQL[]): Promise<Record<string, unknown>[][]> {
  if (!queries.length) return [];
  const stmts = queries.map((q) => ctx.db.all<Record<string, unknown>>(q));
  return (await ctx.db.batch(stmts as [(typeof stmts)[number], ...typeof stmts])) as Record<string, unknown>[][];
}
