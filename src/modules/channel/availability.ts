/** The channel's availability lines: one line per product, checked by the same engine as the operator's checkout, cached per isolate. */
import { and, inArray, isNull } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import { isTestClockOperator } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import {
  allocationsStatement,
  availabilityOf,
  busyOf,
  groupAllocations,
  inJson,
  itemContextsFrom,
  itemsChangedStatement,
  stateKeyOf,
  type ItemRow,
  type LocationRow,
} from '../availability/service';
import { modelOf } from './catalog';
import type { ChannelPrincipal, ConnectionRow } from './keys';
import { customerIn, merchantCtx, readWithSellers, windowOf } from './sellers';
import type { AvailabilityBody } from './schemas';

/**
 * Window checks of this isolate, keyed by product and query, each remembering the item state key it
 * was computed from (its version, allocation sequence — bumped by triggers on every allocation
 * write — and last update). Time-based rules and expiring holds limit an entry to 30 seconds or the
 * first hold expiry in it.
 */
const windowCache = new Map<string, { stateKey: string; validUntil: number; line: Record<string, unknown> }>();
const WINDOW_CACHE_TTL_MS = 30_000;

/**
 * One line per product, in the requested order, from the same engine as the operator's checkout.
 * ONE round trip: the key's connections, the products, their locations and assets, and the
 * allocations of the products whose state changed since their cached answer, in one batch; the
 * engine then checks each product in memory.
 */
export async function availability(reqCtx: Ctx, p: ChannelPrincipal, body: z.output<typeof AvailabilityBody>) {
  const db = reqCtx.db;
  const { start, end } = windowOf(body.startTime, body.endTime);
  // The cache's own validity runs on the request's clock; the lines of an operator on a sandbox test
  // clock are never cached (its time moves only when its clock advances), and every check reads the
  // seller's clock.
  const now = reqCtx.clock.now();
  const ids = [...new Set(body.productIds)];
  const cacheKey = (id: string) => `${id}|${start}|${end}|${body.quantity}`;
  const known = new Map<string, string>();
  for (const id of ids) {
    const c = windowCache.get(cacheKey(id));
    if (c && c.validUntil > now) known.set(id, c.stateKey);
  }
  const { conns, results } = await readWithSellers(reqCtx, p, (customerIds) => [
    db
      .select()
      .from(inventoryItems)
      .where(and(inJson(inventoryItems.id, ids), customerIn(inventoryItems.customerId, customerIds), isNull(inventoryItems.deletedAt))),
    db
      .select()
      .from(locations)
      .where(
        and(
          inArray(locations.id, db.select({ l: inventoryItems.locationId }).from(inventoryItems).where(inJson(inventoryItems.id, ids))),
          customerIn(locations.customerId, customerIds),
        ),
      ),
    db
      .select({
        id: inventoryAssets.id,
        itemId: inventoryAssets.itemId,
        name: inventoryAssets.name,
        status: inventoryAssets.status,
        displayOrder: inventoryAssets.displayOrder,
        customerId: inventoryAssets.customerId,
      })
      .from(inventoryAssets)
      .where(inJson(inventoryAssets.itemId, ids)),
    allocationsStatement(db, { itemIds: itemsChangedStatement(db, ids, known), customerIds, from: start, to: end! }),
  ]);
  const [itemRows, locRows, assetRows, allocRows] = results as [
    ItemRow[],
    LocationRow[],
    Parameters<typeof itemContextsFrom>[0][2],
    (typeof allocations.$inferSelect)[],
  ];
  const active = conns.filter((c) => c.status !== 'removed');
  const offered = new Map<string, { row: ItemRow; conn: ConnectionRow }>();
  for (const row of itemRows) {
    const conn = active.find((c) => c.customerId === row.customerId);
    const location = locRows.find((l) => l.id === row.locationId && l.customerId === row.customerId);
    if (conn && conn.status === 'active' && row.isPublic && location && (conn.offerAllInventory || conn.offeredItemIds.includes(row.id)) && modelOf(row)) {
      offered.set(row.id, { row, conn });
    }
  }
  const computed = new Map<string, Record<string, unknown>>();
  const stale = new Set<string>();
  for (const [id, { row }] of offered) {
    const cached = windowCache.get(cacheKey(id));
    if (cached && cached.validUntil > now && cached.stateKey === stateKeyOf(row)) computed.set(id, cached.line);
    else stale.add(id);
  }
  const contexts = itemContextsFrom([itemRows, locRows, assetRows], stale);
  // Expired rows are left out per seller below (busyOf, on the seller's clock).
  const allocsByItem = groupAllocations(allocRows, Number.NEGATIVE_INFINITY);
  for (const id of stale) {
    const { row, conn } = offered.get(id)!;
    const item = contexts.get(id)!;
    const own = allocsByItem.get(id) ?? [];
    const isTour = item.item.kind === 'tour';
    const mctx = await merchantCtx(reqCtx, p, conn);
    const sellerNow = mctx.clock.now();
    const a = await availabilityOf(
      mctx,
      item,
      { start, end: end!, source: 'channel', ...(isTour ? { seats: body.quantity } : { quantity: body.quantity }) },
      busyOf(item, own, sellerNow),
    );
    const line = {
      available: a.available,
      unitsFree: isTour ? null : a.unitsFree,
      ...(isTour && a.seatsFree !== undefined ? { seatsFree: a.seatsFree } : {}),
      ...(!a.available && a.reasons?.[0] ? { reason: a.reasons[0].code } : {}),
    };
    computed.set(id, line);
    if (isTestClockOperator(row.customerId)) continue;
    const firstExpiry = own.reduce((m, b) => (b.expiresAt != null && b.expiresAt > now ? Math.min(m, b.expiresAt) : m), Infinity);
    if (windowCache.size >= 2000) windowCache.delete(windowCache.keys().next().value!);
    windowCache.set(cacheKey(id), { stateKey: stateKeyOf(row), validUntil: Math.min(now + WINDOW_CACHE_TTL_MS, firstExpiry), line });
  }
  const data = body.productIds.map((productId) => {
    const o = offered.get(productId);
    if (!o) return { productId, available: false, unitsFree: null, error: 'unknown_product' as const };
    if (body.locationId && o.row.locationId !== body.locationId) return { productId, available: false, unitsFree: null, reason: 'not_at_location' };
    return { productId, ...computed.get(productId)! };
  });
  return { startTime: new Date(start).toISOString(), endTime: new Date(end!).toISOString(), data };
}
