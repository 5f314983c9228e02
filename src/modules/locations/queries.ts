import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { locations } from '../../db/schema/locations';
import { inventoryItems } from '../../db/schema/inventory';
import { locationOut, type LocationRow } from './views';

/** Tenant-scoped read; another operator's location answers 404. */
export async function getLocationInTenant(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const row = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Location');
  return row;
}

/**
 * A location by id whatever its operator, or null: for public pages (public slips), which learn the
 * operator from the location (every later read is tenant-scoped again).
 */
export async function locationRowAnyOperator(ctx: Ctx, locationId: string): Promise<LocationRow | null> {
  return (await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get()) ?? null;
}

/** A location by id whatever its operator, for public (renter-facing) reads; 404 when unknown or scheduled for deletion. */
export async function getPublicLocation(ctx: Ctx, locationId: string): Promise<LocationRow> {
  const row = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!row || row.status !== 'active') throw notFound('Location');
  return row;
}

/** The active locations of an operator, for public (renter-facing) reads. */
export async function listPublicLocations(ctx: Ctx, customerId: string): Promise<LocationRow[]> {
  return ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.customerId, customerId), eq(locations.status, 'active')))
    .orderBy(locations.createdAt)
    .all();
}

/** Every location of the caller (including those scheduled for deletion), or the location of one inventory item. */
export async function listLocations(ctx: Ctx, q: { inventoryId?: string }) {
  const customerId = tenantOf(ctx);
  if (q.inventoryId) {
    const item = await ctx.db
      .select({ locationId: inventoryItems.locationId })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.id, q.inventoryId), eq(inventoryItems.customerId, customerId)))
      .get();
    if (!item) throw notFound('Inventory item');
    return locationOut(await getLocationInTenant(ctx, item.locationId));
  }
  const rows = await ctx.db.select().from(locations).where(eq(locations.customerId, customerId)).orderBy(asc(locations.createdAt)).all();
  return { data: rows.map(locationOut) };
}

/**
 * The time zone of an operator's text that belongs to no one location (membership e-mails, account
 * notices): its first active location's (the oldest), else its first location's, else UTC.
 */
export async function operatorTimeZone(ctx: Ctx, customerId: string = tenantOf(ctx)): Promise<string> {
  const rows = await ctx.db
    .select({ timezone: locations.timezone, status: locations.status })
    .from(locations)
    .where(eq(locations.customerId, customerId))
    .orderBy(asc(locations.createdAt), asc(locations.id))
    .limit(20)
    .all();
  return (rows.find((r) => r.status === 'active') ?? rows[0])?.timezone || 'UTC';
}
