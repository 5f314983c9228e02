import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import { channelFail } from './errors';
import type { Ctx, Principal } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { sha256Hex } from '../../lib/crypto';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { bookingEvents, bookings, ledgerEntries } from '../../db/schema/bookings';
import { channelConnections, channelIdempotency } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { cancelBooking, createBookingRows } from '../bookings/service';
import {
  allocationsStatement,
  availabilityOf,
  busyOf,
  groupAllocations,
  inJson,
  itemContextsFrom,
  itemsChangedStatement,
  stateKeyOf,
  type ItemContext,
  type ItemRow,
  type LocationRow,
} from '../availability/service';
import { catalog, modelOf, offeredOf } from './catalog';
import { merchantConnections, sandboxConnection, sellerStatements, type ChannelPrincipal, type ConnectionRow } from './keys';
import { claimStatements, release, requestHash, settleClaim } from './idempotency';
import { merchantsOf } from './portal';
import { settlement } from './settlement';
import type { AvailabilityBody, CreateBookingBody } from './schemas';

/** Flat fee the service charges the operator per channel booking (cents); reversed on cancel. */
export const PLATFORM_FEE_CENTS = 500;
const MAX_WINDOW_MS = 366 * 86_400_000;

type BookingRow = typeof bookings.$inferSelect;

/** A service context acting for the operator a reseller sells. */
export function merchantCtx(ctx: Ctx, p: ChannelPrincipal, conn: ConnectionRow): Ctx {
  const principal: Principal = {
    kind: 'system',
    credentialId: `channel:${p.scope}`,
    userId: null,
    customerId: conn.customerId,
    role: 'admin',
    permissions: [],
    plan: 'enterprise',
    name: conn.name,
  };
  return { ...ctx, principal };
}

async function activeConnections(ctx: Ctx, p: ChannelPrincipal) {
  return (await merchantConnections(ctx, p)).filter((c) => c.status !== 'removed');
}

/** The product of a booking request, when offered to the key (404-like `unknown_product` otherwise; paused connections refuse). */
function offeredProduct(conns: ConnectionRow[], item: ItemRow | undefined) {
  const found = offeredOf(
    conns.filter((c) => c.status !== 'removed'),
    item,
  );
  if (!found) throw channelFail('unknown_product', 'This product is not offered to your key');
  if (found.conn.status === 'paused') throw channelFail('connection_paused', 'The operator paused this connection');
  return found;
}

/**
 * Reads, in ONE round trip, the connections a key sells through (see `sellerStatements`) plus the
 * caller's statements (`extra`, which may use the operators' ids as a subquery). A test key whose
 * sandbox connection does not exist yet makes it first (once per key holder).
 */
async function readWithSellers<T extends Stmt[]>(ctx: Ctx, p: ChannelPrincipal, extra: (customerIds: string[] | SQL) => [...T]) {
  const run = async () => {
    const seller = sellerStatements(ctx, p);
    const rest = extra(seller.customerIds);
    if (!seller.connections) {
      const results = rest.length ? ((await ctx.db.batch(rest as unknown as [Stmt, ...Stmt[]])) as unknown[]) : [];
      return { conns: [p.connection!], results };
    }
    const [conns, ...results] = (await ctx.db.batch([seller.connections, ...rest] as unknown as [Stmt, ...Stmt[]])) as [ConnectionRow[], ...unknown[]];
    return { conns, results };
  };
  let out = await run();
  if (p.mode === 'test' && !out.conns.length) {
    await sandboxConnection(ctx, p);
    out = await run();
  }
  return out;
}

const customerIn = (column: Parameters<typeof inJson>[0], ids: string[] | SQL) => (Array.isArray(ids) ? inJson(column, ids) : sql`${column} in (${ids})`);

export async function me(ctx: Ctx, p: ChannelPrincipal) {
  if (p.kind === 'single') {
    const c = p.mode === 'test' ? (await merchantConnections(ctx, p))[0] : p.connection!;
    return {
      mode: p.mode,
      connection: {
        connectionId: c.id,
        channelName: p.connection!.name,
        merchantId: c.customerId,
        commissionRate: c.commissionRate,
        offerAllInventory: c.offerAllInventory,
        status: c.status,
        sandbox: c.sandbox,
      },
    };
  }
  const ch = p.channel!;
  if (p.mode === 'test') {
    const c = (await merchantConnections(ctx, p))[0];
    return {
      mode: p.mode,
      channel: {
        slug: ch.slug,
        name: ch.name,
        merchants: [{ merchantId: c.customerId, commissionRate: c.commissionRate, offerAllInventory: c.offerAllInventory, status: c.status, sandbox: true }],
      },
    };
  }
  const merchants = (await merchantsOf(ctx, ch.id)).map(({ merchantId, merchantName, commissionRate, offerAllInventory, status }) => ({
    merchantId,
    merchantName,
    commissionRate,
    offerAllInventory,
    status,
  }));
  return { mode: p.mode, channel: { slug: ch.slug, name: ch.name, merchants } };
}

export async function products(ctx: Ctx, p: ChannelPrincipal) {
  return { data: await catalog(ctx, await activeConnections(ctx, p)) };
}

function windowOf(startTime: string, endTime?: string) {
  const start = Date.parse(startTime);
  const end = endTime ? Date.parse(endTime) : undefined;
  if (end !== undefined && end <= start)
    throw new ApiError('validation_failed', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  if (end !== undefined && end - start > MAX_WINDOW_MS)
    throw new ApiError('validation_failed', 'The window is at most 366 days', { details: [{ field: 'endTime', message: 'window longer than 366 days' }] });
  return { start, end };
}

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
  const now = Date.now();
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
  const allocsByItem = groupAllocations(allocRows, now);
  for (const id of stale) {
    const { row, conn } = offered.get(id)!;
    const item = contexts.get(id)!;
    const own = allocsByItem.get(id) ?? [];
    const isTour = item.item.kind === 'tour';
    const a = await availabilityOf(
      merchantCtx(reqCtx, p, conn),
      item,
      { start, end: end!, source: 'channel', ...(isTour ? { seats: body.quantity } : { quantity: body.quantity }) },
      busyOf(item, own, now),
    );
    const line = {
      available: a.available,
      unitsFree: isTour ? null : a.unitsFree,
      ...(isTour && a.seatsFree !== undefined ? { seatsFree: a.seatsFree } : {}),
      ...(!a.available && a.reasons?.[0] ? { reason: a.reasons[0].code } : {}),
    };
    computed.set(id, line);
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

export function channelBookingOut(b: BookingRow, mode: 'live' | 'test') {
  return {
    bookingId: b.transactionId,
    rentalId: b.id,
    status: b.status,
    mode,
    productId: b.itemId,
    merchantId: b.customerId,
    startTime: new Date(b.start).toISOString(),
    endTime: new Date(b.end).toISOString(),
    quantity: b.participants && b.quantity === 1 && b.participants > 1 ? b.participants : b.quantity,
    totalPrice: toDollars(b.total),
    currency: b.currency,
    reference: b.channelReference,
    commissionRate: b.commissionRate,
    createdAt: b.createdAt,
    cancelledAt: b.cancelledAt,
  };
}

/** Connections whose bookings this key may see (its merchants, including sandbox connections), as a subquery. */
function visibleConnections(ctx: Ctx, p: ChannelPrincipal): SQL {
  const where =
    p.kind === 'single'
      ? sql`${channelConnections.id} = ${p.connection!.id} or ${channelConnections.parentConnectionId} = ${p.connection!.id}`
      : eq(channelConnections.channelId, p.channel!.id);
  return ctx.db.select({ id: channelConnections.id }).from(channelConnections).where(where).getSQL();
}

const ofKey = (ctx: Ctx, p: ChannelPrincipal) =>
  and(sql`${bookings.channelConnectionId} in (${visibleConnections(ctx, p)})`, eq(bookings.testMode, p.mode === 'test'));

/** A booking created by this key (one read); `not_found` otherwise. */
async function bookingOfKey(ctx: Ctx, p: ChannelPrincipal, bookingId: string): Promise<BookingRow> {
  const row = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.transactionId, bookingId), ofKey(ctx, p)))
    .get();
  if (!row) throw channelFail('not_found', 'No booking with this id was created by your key');
  return row;
}

export async function getBooking(ctx: Ctx, p: ChannelPrincipal, bookingId: string) {
  return channelBookingOut(await bookingOfKey(ctx, p, bookingId), p.mode);
}

export async function findByReference(ctx: Ctx, p: ChannelPrincipal, reference: string) {
  const rows = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.channelReference, reference), ofKey(ctx, p)))
    .all();
  return { data: rows.map((r) => channelBookingOut(r, p.mode)) };
}

const TRANSIENT = /overloaded|network connection lost|internal error|reset because|too many requests|D1_ERROR: (?!.*(UNIQUE|constraint))/i;

/**
 * Creates a channel booking under the idempotency contract. The claim row and the booking's
 * unique `channel_idempotency_key` make a key create at most one booking; the claim is completed
 * in the same D1 batch as the booking.
 *
 * Round trips: ONE batch claims the key and reads everything else the sale needs (the key holder's
 * connections, the product with its location and assets, the operator's settings, and the booking a
 * completed key already made): a replay is answered from it. Then the lock call (with the renter
 * read beside it) and the write batch; the answer is built from the rows written.
 */
export async function createChannelBooking(
  reqCtx: Ctx,
  p: ChannelPrincipal,
  idempotencyKey: string | undefined,
  body: z.output<typeof CreateBookingBody>,
): Promise<{ status: 200 | 201; body: Record<string, unknown> }> {
  if (!idempotencyKey)
    throw new ApiError('validation_failed', 'The Idempotency-Key header is required (a unique string per checkout, reused on retries)', {
      details: [{ field: 'Idempotency-Key', message: 'required header' }],
    });
  const db = reqCtx.db;
  const { start, end } = windowOf(body.startTime, body.endTime);
  const hash = await requestHash({
    productId: body.productId,
    start,
    end: end ?? null,
    quantity: body.quantity,
    tickets: body.tickets ?? null,
    totalPrice: toCents(body.totalPrice),
  });
  const claimed = claimStatements(reqCtx, p.scope, idempotencyKey, hash);
  const customerOfProduct = db.select({ c: inventoryItems.customerId }).from(inventoryItems).where(eq(inventoryItems.id, body.productId));
  let read;
  try {
    read = await readWithSellers(reqCtx, p, (customerIds) => [
      claimed.insert,
      claimed.read,
      db
        .select()
        .from(bookings)
        .where(
          and(
            eq(
              bookings.transactionId,
              db
                .select({ b: channelIdempotency.bookingId })
                .from(channelIdempotency)
                .where(and(eq(channelIdempotency.scope, p.scope), eq(channelIdempotency.key, idempotencyKey), eq(channelIdempotency.status, 'completed'))),
            ),
            ofKey(reqCtx, p),
          ),
        ),
      ...itemStatementsOfSellers(reqCtx, body.productId, customerIds),
      db.select({ settings: customers.settings }).from(customers).where(eq(customers.id, customerOfProduct)),
    ]);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw channelFail('idempotency_unavailable', `The idempotency store is unavailable; retry with the same key (${String(err)})`);
  }
  const [, claimRows, doneRows, itemRows, locRows, assetRows, settingsRows] = read.results as [
    unknown,
    (typeof channelIdempotency.$inferSelect)[],
    BookingRow[],
    ItemRow[],
    LocationRow[],
    Parameters<typeof itemContextsFrom>[0][2],
    { settings: Record<string, unknown> | null }[],
  ];
  const releaseOurs = () => (claimRows[0]?.id === claimed.id ? release(reqCtx, claimed.id).catch(() => undefined) : undefined);
  let found: ReturnType<typeof offeredProduct>;
  let item: ItemContext | undefined;
  try {
    found = offeredProduct(read.conns, itemRows[0]);
    item = itemContextsFrom([itemRows, locRows, assetRows]).get(found.item.id);
    if (!item) throw channelFail('unknown_product', 'This product is not offered to your key');
  } catch (err) {
    await releaseOurs();
    throw err;
  }

  const replayOf = async (bookingId: string, rows: BookingRow[] = []) => {
    const row = rows.find((r) => r.transactionId === bookingId);
    const out = row ? channelBookingOut(row, p.mode) : await getBooking(reqCtx, p, bookingId);
    return { status: 200 as const, body: { ...out, idempotentReplay: true } };
  };
  const c = await settleClaim(reqCtx, claimRows[0], claimed.id, p.scope, idempotencyKey, hash);
  if (c.kind === 'replay') return replayOf(String(c.body.bookingId), doneRows);
  // Unique on bookings: a claim (kept across a takeover of an abandoned request) creates at most one booking.
  const uniqueKey = `${p.scope}:${idempotencyKey}:${c.id}`;
  if (c.kind === 'takeover') {
    const done = await db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, uniqueKey)).get();
    if (done) {
      await db
        .update(channelIdempotency)
        .set({ status: 'completed', bookingId: done.transactionId, responseBody: { bookingId: done.transactionId } })
        .where(eq(channelIdempotency.id, c.id));
      return replayOf(done.transactionId, [done]);
    }
  }

  const ctx = merchantCtx(reqCtx, p, found.conn);
  const testMode = p.mode === 'test';
  const transactionId = newId('txn');
  const isTour = found.model.type === 'tour';
  const guest = body.guest ?? {
    firstName: 'Guest',
    lastName: `of ${found.conn.name}`.slice(0, 100),
    email: `guest+${(await sha256Hex(found.conn.id)).slice(0, 12)}@channel.berth.invalid`,
  };
  let written: BookingRow[];
  try {
    ({ rows: written } = await createBookingRows(
      ctx,
      {
        rentalDetails: {
          inventoryId: found.item.id,
          startTime: body.startTime,
          endTime: body.endTime,
          ...(isTour ? (body.tickets ? { tickets: body.tickets } : { quantity: body.quantity }) : { quantity: body.quantity }),
          ...(body.notes ? { notes: body.notes } : {}),
        },
        rentalPricing: {},
        customerInfo: { ...guest },
        extendedData: { channel: { reference: body.reference, connectionId: found.conn.id, mode: p.mode } },
      },
      {
        source: 'channel',
        prepaid: true,
        transactionId,
        priceOverride: { total: toCents(body.totalPrice) },
        channel: { connectionId: found.conn.id, reference: body.reference, commissionRate: found.conn.commissionRate, testMode, idempotencyKey: uniqueKey },
        extraLedger: testMode
          ? []
          : [
              {
                entryType: 'platform_fee',
                amount: PLATFORM_FEE_CENTS,
                affectsBalance: false,
                description: 'Channel platform fee',
                source: 'channel',
                reference: transactionId,
              },
            ],
        statements: [
          db
            .update(channelIdempotency)
            .set({ status: 'completed', bookingId: transactionId, responseBody: { bookingId: transactionId } })
            .where(eq(channelIdempotency.id, c.id)),
        ],
        preloaded: { settings: settingsRows[0]?.settings ?? {}, items: [item] },
      },
    ));
  } catch (err) {
    if (/UNIQUE/i.test(String(err)) && /channel_idempotency_key/i.test(String(err))) {
      const done = await db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, uniqueKey)).get();
      if (done) return replayOf(done.transactionId, [done]);
    }
    await release(reqCtx, c.id).catch(() => undefined);
    if (err instanceof ApiError) {
      if (err.status === 409) throw channelFail('unavailable', err.message);
      if (err.status === 503) throw channelFail('inventory_locked', err.message);
      throw err;
    }
    if (TRANSIENT.test(String(err))) throw channelFail('inventory_locked', 'The inventory is busy; retry with the same Idempotency-Key');
    throw err;
  }
  return { status: 201, body: { ...channelBookingOut(written[0], p.mode), idempotentReplay: false } };
}

/** The product (one id) of the operators a key sells, with its location and assets: statements for a batch. */
function itemStatementsOfSellers(ctx: Ctx, productId: string, customerIds: string[] | SQL) {
  const db = ctx.db;
  const item = and(eq(inventoryItems.id, productId), isNull(inventoryItems.deletedAt));
  return [
    db
      .select()
      .from(inventoryItems)
      .where(and(item, customerIn(inventoryItems.customerId, customerIds))),
    db
      .select()
      .from(locations)
      .where(inArray(locations.id, db.select({ l: inventoryItems.locationId }).from(inventoryItems).where(item))),
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
      .where(eq(inventoryAssets.itemId, productId)),
  ] as const;
}

export async function cancelChannelBooking(reqCtx: Ctx, p: ChannelPrincipal, bookingId: string) {
  const db = reqCtx.db;
  const b = await bookingOfKey(reqCtx, p, bookingId);
  const conn = await db.select().from(channelConnections).where(eq(channelConnections.id, b.channelConnectionId!)).get();
  const ctx = merchantCtx(reqCtx, p, conn!);
  const res = await cancelBooking(ctx, b.id, { reason: 'Cancelled by the reseller' });
  const after = await db.select().from(bookings).where(eq(bookings.id, b.id)).get();
  return { ...channelBookingOut(after!, p.mode), alreadyCancelled: res.alreadyCancelled };
}

/** Wipes the key holder's test bookings (and their allocations, ledger rows and activity). */
export async function sandboxReset(ctx: Ctx, p: ChannelPrincipal) {
  const db = ctx.db;
  if (p.mode !== 'test') throw channelFail('not_sandbox', 'Sandbox reset needs a test key (rtc_test_...); live keys never wipe bookings');
  const rows = await db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(ofKey(ctx, p), eq(bookings.testMode, true)))
    .all();
  const rentalIds = rows.map((r) => r.id);
  for (let i = 0; i < rentalIds.length; i += 50) {
    const chunk = rentalIds.slice(i, i + 50);
    await db.batch([
      db.delete(allocations).where(inArray(allocations.sourceId, chunk)),
      db.delete(ledgerEntries).where(inArray(ledgerEntries.rentalId, chunk)),
      db.delete(bookingEvents).where(inArray(bookingEvents.rentalId, chunk)),
      db.delete(bookings).where(and(inArray(bookings.id, chunk), eq(bookings.testMode, true))),
    ]);
  }
  await db.delete(channelIdempotency).where(eq(channelIdempotency.scope, p.scope));
  const sandbox = (await merchantConnections(ctx, p))[0];
  if (sandbox) await ctx.hooks.emit(ctx, 'channel.sandbox_reset', { scope: p.scope, customerId: sandbox.customerId });
  return { reset: true, deletedBookings: rentalIds.length };
}

export async function keySettlement(ctx: Ctx, p: ChannelPrincipal, month: string) {
  const conns = (await merchantConnections(ctx, p)).filter((c) => !c.sandbox);
  return settlement(
    ctx,
    conns.map((c) => c.id),
    month,
  );
}

export async function merchantName(ctx: Ctx, customerId: string) {
  return (await ctx.db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId)).get())?.name ?? customerId;
}

// What the operator side (channel-connections), the seed and the benchmark use of the channel.
export { keyRow, newChannelKey, type ConnectionRow, type KeyMode } from './keys';
export { settlement } from './settlement';
export { syncChannelEndpoints } from './portal';
// What the OCTO supplier API (src/modules/octo) sells with: the same keys, connections, offer sets and rate limit.
export { resolveChannelKey, merchantConnections, type ChannelPrincipal } from './keys';
export { findOffered, offeredItems, modelOf, narrowedTaxes } from './catalog';
export { CHANNEL_RATE_LIMIT } from './middleware';
