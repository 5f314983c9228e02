/**
 * Structured data for search results (`/schema/*`): schema.org JSON-LD of an inventory item, a
 * location and all of an operator's items, with prices and live availability. Public: anyone may
 * read what the booking widget shows; an item that is not publicly visible answers 403.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { customers } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { inventoryItems } from '../../db/schema/inventory';
import { itemJsonLd, locationJsonLd, type ItemFacts, type LocationFacts } from './jsonld';
import { liveItem, liveOffer, type ItemContext } from './live';

type ItemRow = typeof inventoryItems.$inferSelect;
type LocationRow = typeof locations.$inferSelect;

/** Items listed per location or operator (the JSON-LD stays a reasonable size). */
const MAX_ITEMS = 100;

const isVisible = (row: ItemRow) => row.isPublic && (row.data as { isPublic?: boolean } | null)?.isPublic !== false;
const baseOf = (q: { baseUrl?: string }, origin: string) => (q.baseUrl ?? origin).replace(/\/$/, '');

function locationFacts(l: LocationRow, base: string): LocationFacts {
  return {
    id: l.id,
    name: l.name,
    address: l.address,
    phoneNumber: l.phoneNumber,
    latitude: l.latitude,
    longitude: l.longitude,
    url: `${base}/locations/${l.id}`,
  };
}

function itemFacts(item: ItemContext, operatorName: string, base: string): ItemFacts {
  return {
    id: item.row.id,
    name: item.row.name,
    kind: item.item.kind,
    model: item.item.model,
    currency: item.currency,
    url: `${base}/inventory/${item.row.id}`,
    operator: { name: operatorName, url: base },
    location: locationFacts(item.location, base),
  };
}

async function operatorName(ctx: Ctx, customerId: string) {
  const c = await ctx.db.select({ name: customers.name, businessName: customers.businessName }).from(customers).where(eq(customers.id, customerId)).get();
  if (!c) throw notFound('Operator');
  return c.businessName ?? c.name;
}

async function publicItems(ctx: Ctx, where: ReturnType<typeof and>) {
  const rows = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(where, isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.id))
    .limit(MAX_ITEMS)
    .all();
  return rows.filter(isVisible);
}

/** GET /schema/inventory/{inventoryId} */
export async function inventorySchema(ctx: Ctx, inventoryId: string, q: { baseUrl?: string }, origin: string) {
  const row = await ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, inventoryId), isNull(inventoryItems.deletedAt)))
    .get();
  if (!row) throw notFound('Inventory item');
  if (!isVisible(row)) throw new ApiError('forbidden', 'This inventory item is not publicly visible');
  const item = await liveItem(ctx, inventoryId);
  const base = baseOf(q, origin);
  return itemJsonLd(itemFacts(item, await operatorName(ctx, row.customerId), base), await liveOffer(ctx, item));
}

/** GET /schema/location/{locationId} */
export async function locationSchema(ctx: Ctx, locationId: string, q: { baseUrl?: string }, origin: string) {
  const loc = await ctx.db.select().from(locations).where(eq(locations.id, locationId)).get();
  if (!loc) throw notFound('Location');
  const base = baseOf(q, origin);
  const name = await operatorName(ctx, loc.customerId);
  const rows = await publicItems(ctx, and(eq(inventoryItems.customerId, loc.customerId), eq(inventoryItems.locationId, loc.id)));
  const items = [];
  for (const r of rows) {
    const item = await liveItem(ctx, r.id).catch(() => null);
    if (item) items.push({ facts: itemFacts(item, name, base), live: await liveOffer(ctx, item) });
  }
  return locationJsonLd(locationFacts(loc, base), { name, url: base }, items);
}

/** GET /schema/all/{customerId} */
export async function operatorSchema(ctx: Ctx, customerId: string, q: { baseUrl?: string }, origin: string) {
  const name = await operatorName(ctx, customerId);
  const base = baseOf(q, origin);
  const rows = await publicItems(ctx, eq(inventoryItems.customerId, customerId));
  const out = [];
  for (const r of rows) {
    const item = await liveItem(ctx, r.id).catch(() => null);
    if (item) out.push(itemJsonLd(itemFacts(item, name, base), await liveOffer(ctx, item)));
  }
  return out;
}
