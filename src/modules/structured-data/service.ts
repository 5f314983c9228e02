/**
 * The structured-data module's face. No other module calls it today: its router reaches the JSON-LD reads defined here.
 *
 * Structured data for search results (`/schema/*`): schema.org JSON-LD of an inventory item, a
 * location and all of an operator's items, with prices and live availability. Public: anyone may
 * read what the booking widget shows; an item that is not publicly visible answers 403.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { onOperatorClock } from '../../lib/operator-clock';
import { itemFacts, itemJsonLd, locationFacts, locationJsonLd } from './views';
import { liveItem, liveOffer } from './live';
import { isVisible, itemById, locationById, operatorName, publicItems } from './queries';

const baseOf = (q: { baseUrl?: string }, origin: string) => (q.baseUrl ?? origin).replace(/\/$/, '');

/** GET /schema/inventory/{inventoryId} */
export async function inventorySchema(rctx: Ctx, inventoryId: string, q: { baseUrl?: string }, origin: string) {
  const row = await itemById(rctx, inventoryId);
  if (!isVisible(row)) throw new ApiError('forbidden', 'This inventory item is not publicly visible');
  const ctx = await onOperatorClock(rctx, row.customerId);
  const item = await liveItem(ctx, inventoryId);
  const base = baseOf(q, origin);
  return itemJsonLd(itemFacts(item, await operatorName(ctx, row.customerId), base), await liveOffer(ctx, item));
}

/** GET /schema/location/{locationId} */
export async function locationSchema(rctx: Ctx, locationId: string, q: { baseUrl?: string }, origin: string) {
  const loc = await locationById(rctx, locationId);
  const ctx = await onOperatorClock(rctx, loc.customerId);
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
export async function operatorSchema(rctx: Ctx, customerId: string, q: { baseUrl?: string }, origin: string) {
  const name = await operatorName(rctx, customerId);
  const ctx = await onOperatorClock(rctx, customerId);
  const base = baseOf(q, origin);
  const rows = await publicItems(ctx, customerId);
  const out = [];
  for (const r of rows) {
    const item = await liveItem(ctx, r.id).catch(() => null);
    if (item) out.push(itemJsonLd(itemFacts(item, name, base), await liveOffer(ctx, item)));
  }
  return out;
}
