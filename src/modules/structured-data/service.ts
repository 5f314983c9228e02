/**
 * Structured data for search results (`/schema/*`): schema.org JSON-LD of an inventory item, a
 * location and all of an operator's items, with prices and live availability. Public: anyone may
 * read what the booking widget shows; an item that is not publicly visible answers 403.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { itemFacts, itemJsonLd, locationFacts, locationJsonLd } from './views';
import { liveItem, liveOffer } from './live';
import { isVisible, itemById, locationById, operatorName, publicItems } from './queries';

const baseOf = (q: { baseUrl?: string }, origin: string) => (q.baseUrl ?? origin).replace(/\/$/, '');

/** GET /schema/inventory/{inventoryId} */
export async function inventorySchema(ctx: Ctx, inventoryId: string, q: { baseUrl?: string }, origin: string) {
  const row = await itemById(ctx, inventoryId);
  if (!isVisible(row)) throw new ApiError('forbidden', 'This inventory item is not publicly visible');
  const item = await liveItem(ctx, inventoryId);
  const base = baseOf(q, origin);
  return itemJsonLd(itemFacts(item, await operatorName(ctx, row.customerId), base), await liveOffer(ctx, item));
}

/** GET /schema/location/{locationId} */
export async function locationSchema(ctx: Ctx, locationId: string, q: { baseUrl?: string }, origin: string) {
  const loc = await locationById(ctx, locationId);
  const base = baseOf(q, origin);
  const name = await operatorName(ctx, loc.customerId);
  const rows = await publicItems(ctx, loc.customerId, loc.id);
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
  const rows = await publicItems(ctx, customerId);
  const out = [];
  for (const r of rows) {
    const item = await liveItem(ctx, r.id).catch(() => null);
    if (item) out.push(itemJsonLd(itemFacts(item, name, base), await liveOffer(ctx, item)));
  }
  return out;
}
