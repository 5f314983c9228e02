/**
 * The state of one item that the lock's reserve and the availability checks read: the item and its
 * location, its assets, its active allocations over a window, which pending allocation ids are
 * written and its active holds, in ONE D1 batch whose statements are built once per shape and
 * isolate (`reusable`).
 */
import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { batchCarrying, reusable, type CarriedResult, type CarriedStatement, type DB, type Stmt } from '../../db/client';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { holds } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { notFound } from '../../lib/errors';
import type { Busy } from './engine-types';
import {
  busyOf,
  cacheAssets,
  itemContextFrom,
  MARGIN_MS,
  modelKeyOf,
  modelKeySql,
  stateKeyOf,
  stateKeySql,
  type AllocationRow,
  type AssetRow,
  type ItemContext,
  type ItemRow,
  type LocationRow,
} from './queries';

export interface ItemStateQuery {
  itemId: string;
  /** Scopes the item to an operator; null for public reads (the caller checks visibility). */
  customerId: string | null;
  /** Allocations touching [from, to) are read (with a margin for buffers). */
  from: number;
  to: number;
  /**
   * A check of one window starting at `from` (the lock's reserve): allocations that end before it
   * cannot matter, so no margin is read before it (views need one: their slots start earlier).
   */
  fromExact?: boolean;
  /** A context the caller holds for this item: its location and assets are not read again while the item's model key is unchanged. */
  cached?: ItemContext;
  /** The caller holds a result computed for this state key (`stateKeyOf`): the allocations are read only if the item's key differs. */
  busyUnlessKey?: string;
  /** Allocation ids whose existence to check (reservations pending in the lock object). */
  pendingIds?: string[];
  /** Also read the item's active holds (id and e-mail). */
  holds?: boolean;
  /** The caller's "now" (its clock, lib/clock.ts): expired holds and allocations are left out as of it. */
  now: number;
  /**
   * Another caller's read, run in the same batch (the sale's first read, carried by the lock call):
   * its raw results go to `onCarried` as soon as the batch answers, before anything here can throw.
   */
  carried?: { statements: CarriedStatement[]; onResults(results: CarriedResult[]): void };
  /** Sends the batch instead of the database: the lock object's read coalescer (db/coalesce.ts). */
  send?: (statements: D1PreparedStatement[]) => Promise<D1Result[]>;
}

export interface ItemState {
  ctx: ItemContext;
  /** null when `busyUnlessKey` still matched (nothing changed). */
  busy: Busy[] | null;
  /** Which of `pendingIds` exist in D1 (in any state), as of the same snapshot as `busy`. */
  writtenIds: Set<string>;
  holds: { id: string; email: string }[];
}

interface ItemStateValues {
  itemId: string;
  customerId: string | null;
  cachedKey: string | null;
  from: number;
  to: number;
  busyUnlessKey: string | null;
  pending: string | null;
  holdsAfter: string | null;
}

const ph = (name: keyof ItemStateValues) => sql.placeholder(name);

/**
 * The statements of `loadItemState`, built once per shape and isolate (`reusable`): the lock reads
 * them for every sale of its item. The item and its location, its assets (unless the cached model
 * key still matches), its active allocations over the window (unless the state key still matches),
 * which pending allocation ids are written, and the item's active holds.
 */
function itemStateStatements(db: DB, v: ItemStateValues): Stmt[] {
  const shape = `itemState|${+!!v.customerId}${+!!v.cachedKey}${+!!v.busyUnlessKey}`;
  const byId = eq(inventoryItems.id, ph('itemId'));
  const keyOfItem = (key: SQL) => db.select({ k: key }).from(inventoryItems).where(byId);
  const values = v as unknown as Record<string, unknown>;
  const statements: Stmt[] = [
    reusable(
      db,
      `${shape}|item`,
      () =>
        db
          .select()
          .from(inventoryItems)
          .where(and(byId, v.customerId ? eq(inventoryItems.customerId, ph('customerId')) : undefined, isNull(inventoryItems.deletedAt))),
      values,
    ),
    // The location is read every time (a zone can change without the item's version changing).
    reusable(
      db,
      `${shape}|location`,
      () =>
        db
          .select()
          .from(locations)
          .where(eq(locations.id, db.select({ l: inventoryItems.locationId }).from(inventoryItems).where(byId))),
      values,
    ),
    reusable(
      db,
      `${shape}|assets`,
      () =>
        db
          .select()
          .from(inventoryAssets)
          .where(and(eq(inventoryAssets.itemId, ph('itemId')), v.cachedKey ? sql`(${keyOfItem(modelKeySql)}) is not ${ph('cachedKey')}` : undefined)),
      values,
    ),
    reusable(
      db,
      `${shape}|allocations`,
      () =>
        db
          .select()
          .from(allocations)
          .where(
            and(
              eq(allocations.itemId, ph('itemId')),
              v.customerId
                ? eq(allocations.customerId, ph('customerId'))
                : eq(allocations.customerId, db.select({ c: inventoryItems.customerId }).from(inventoryItems).where(byId)),
              eq(allocations.active, true),
              lt(allocations.blockedStart, ph('to')),
              gt(allocations.blockedEnd, ph('from')),
              v.busyUnlessKey ? sql`(${keyOfItem(stateKeySql)}) is not ${ph('busyUnlessKey')}` : undefined,
            ),
          ),
      values,
    ),
  ];
  if (v.pending)
    statements.push(
      reusable(
        db,
        'itemState|pending',
        () =>
          db
            .select({ id: allocations.id })
            .from(allocations)
            .where(sql`${allocations.id} in (select value from json_each(${ph('pending')}))`),
        values,
      ),
    );
  if (v.holdsAfter)
    statements.push(
      reusable(
        db,
        'itemState|holds',
        () =>
          db
            .select({ id: holds.id, email: holds.email })
            .from(holds)
            .where(
              and(
                eq(holds.inventoryId, ph('itemId')),
                eq(holds.customerId, ph('customerId')),
                eq(holds.status, 'active'),
                gt(holds.expiresAt, ph('holdsAfter')),
              ),
            ),
        values,
      ),
    );
  return statements;
}

/**
 * An item and its allocations over a range, in ONE D1 round trip (one batch, one consistent
 * snapshot). 404 for unknown, deleted or (with `customerId`) foreign items.
 */
export async function loadItemState(db: DB, q: ItemStateQuery): Promise<ItemState> {
  const now = q.now;
  const cachedKey = q.cached && q.cached.row.id === q.itemId ? modelKeyOf(q.cached.row) : null;
  const pendingIds = q.pendingIds ?? [];
  const statements = itemStateStatements(db, {
    itemId: q.itemId,
    customerId: q.customerId ?? null,
    cachedKey,
    from: q.fromExact ? q.from : q.from - MARGIN_MS,
    to: q.to + MARGIN_MS,
    busyUnlessKey: q.busyUnlessKey ?? null,
    pending: pendingIds.length ? JSON.stringify(pendingIds) : null,
    holdsAfter: q.holds && q.customerId ? new Date(now).toISOString() : null,
  });
  const both = await batchCarrying(db, statements, q.carried?.statements ?? [], q.send);
  if (q.carried) q.carried.onResults(both.carried);
  const res = both.own as unknown[][];
  const [items, locs, assets, allocs] = res as [ItemRow[], LocationRow[], AssetRow[], AllocationRow[]];
  let i = 4;
  const written = pendingIds.length ? (res[i++] as { id: string }[]) : [];
  const heldBy = q.holds && q.customerId ? (res[i++] as { id: string; email: string }[]) : [];
  const row = items[0];
  if (!row) throw notFound('Inventory item');
  const location = locs.find((l) => l.id === row.locationId && l.customerId === row.customerId);
  if (!location) throw notFound('Inventory item');
  const keep = cachedKey != null && cachedKey === modelKeyOf(row) && q.cached;
  const ctx = itemContextFrom(row, location, keep ? q.cached!.item.assets : cacheAssets(row, assets));
  const unchanged = q.busyUnlessKey != null && q.busyUnlessKey === stateKeyOf(row);
  return {
    ctx,
    busy: unchanged ? null : busyOf(ctx, allocs, now),
    writtenIds: new Set(written.map((w) => w.id)),
    holds: heldBy,
  };
}
