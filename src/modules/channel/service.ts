import { and, eq, inArray } from 'drizzle-orm';
import { channelFail } from './errors';
import type { Ctx, Principal } from '../../lib/context';
import type { DB } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import { sha256Hex } from '../../lib/crypto';
import { allocations, inventoryItems } from '../../db/schema/inventory';
import { bookingEvents, bookings, ledgerEntries } from '../../db/schema/bookings';
import { channelConnections, channelIdempotency } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { cancelBooking, createBooking } from '../bookings/service';
import { allocationToBusy, availabilityOf, itemContextOf, loadAllocationsFor, loadItemRows, maintenanceBusy, type LocationRow } from '../availability/service';
import { catalog, findOffered, modelOf } from './catalog';
import { merchantConnections, type ChannelPrincipal, type ConnectionRow } from './keys';
import { claim, release, requestHash } from './idempotency';
import { merchantsOf } from './portal';
import { settlement } from './settlement';
import type { z } from '@hono/zod-openapi';
import type { AvailabilityBody, CreateBookingBody } from './schemas';

/** Flat fee the service charges the operator per channel booking (cents); reversed on cancel. */
export const PLATFORM_FEE_CENTS = 500;
const MAX_WINDOW_MS = 366 * 86_400_000;

type BookingRow = typeof bookings.$inferSelect;
type ItemRow = typeof inventoryItems.$inferSelect;

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

async function activeConnections(db: DB, p: ChannelPrincipal) {
  return (await merchantConnections(db, p)).filter((c) => c.status !== 'removed');
}

async function offered(db: DB, p: ChannelPrincipal, productId: string) {
  const found = await findOffered(db, await activeConnections(db, p), productId);
  if (!found) throw channelFail('unknown_product', 'This product is not offered to your key');
  if (found.conn.status === 'paused') throw channelFail('connection_paused', 'The operator paused this connection');
  return found;
}

export async function me(ctx: Ctx, p: ChannelPrincipal) {
  const db = ctx.db;
  if (p.kind === 'single') {
    const c = p.mode === 'test' ? (await merchantConnections(db, p))[0] : p.connection!;
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
    const c = (await merchantConnections(db, p))[0];
    return {
      mode: p.mode,
      channel: {
        slug: ch.slug,
        name: ch.name,
        merchants: [{ merchantId: c.customerId, commissionRate: c.commissionRate, offerAllInventory: c.offerAllInventory, status: c.status, sandbox: true }],
      },
    };
  }
  const merchants = (await merchantsOf(db, ch.id)).map(({ merchantId, merchantName, commissionRate, offerAllInventory, status }) => ({
    merchantId,
    merchantName,
    commissionRate,
    offerAllInventory,
    status,
  }));
  return { mode: p.mode, channel: { slug: ch.slug, name: ch.name, merchants } };
}

export async function products(ctx: Ctx, p: ChannelPrincipal) {
  const db = ctx.db;
  return { data: await catalog(db, await activeConnections(db, p)) };
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
 * Window checks of this isolate, keyed by what they depend on (the item's version and allocation
 * sequence, which triggers bump on every allocation write, and the query); time-based rules and
 * expiring holds limit an entry to 30 seconds or the first hold expiry in it.
 */
const windowCache = new Map<string, { validUntil: number; line: Record<string, unknown> }>();
const WINDOW_CACHE_TTL_MS = 30_000;

/**
 * One line per product, in the requested order, from the same engine as the operator's checkout.
 * The products and their operators' locations are read in one D1 round trip; allocations only for
 * products whose answer is not cached; the engine then checks each product in memory.
 */
export async function availability(reqCtx: Ctx, p: ChannelPrincipal, body: z.output<typeof AvailabilityBody>) {
  const db = reqCtx.db;
  const { start, end } = windowOf(body.startTime, body.endTime);
  const now = Date.now();
  const conns = await activeConnections(db, p);
  const rows = await loadItemRows(db, [...new Set(body.productIds)], [...new Set(conns.map((c) => c.customerId))]);
  const keyOf = (r: { row: { id: string; version: number; allocSeq: number; updatedAt: string } }) =>
    `${r.row.id}|${r.row.version}|${r.row.allocSeq}|${r.row.updatedAt}|${start}|${end}|${body.quantity}`;
  const offered = new Map<string, { hit: { row: ItemRow; location: LocationRow }; conn: ConnectionRow }>();
  for (const id of new Set(body.productIds)) {
    const hit = rows.get(id);
    const conn = hit && conns.find((c) => c.customerId === hit.row.customerId);
    if (
      hit &&
      conn &&
      conn.status === 'active' &&
      hit.row.isPublic &&
      hit.location &&
      (conn.offerAllInventory || conn.offeredItemIds.includes(id)) &&
      modelOf(hit.row)
    ) {
      offered.set(id, { hit: { row: hit.row, location: hit.location }, conn });
    }
  }
  const computed = new Map<string, Record<string, unknown>>();
  const misses = [...offered.values()].filter(({ hit }) => {
    const c = windowCache.get(keyOf(hit));
    if (c && c.validUntil > now) computed.set(hit.row.id, c.line);
    return !computed.has(hit.row.id);
  });
  const allocs = await loadAllocationsFor(
    db,
    misses.map(({ hit }) => ({ id: hit.row.id, customerId: hit.row.customerId })),
    start,
    end!,
    now,
  );
  for (const { hit, conn } of misses) {
    const ctx = merchantCtx(reqCtx, p, conn);
    const item = await itemContextOf(db, hit.row, hit.location);
    const own = allocs.get(hit.row.id) ?? [];
    const busy = [...own.map(allocationToBusy), ...maintenanceBusy(item.item)];
    const isTour = item.item.kind === 'tour';
    const a = await availabilityOf(
      ctx,
      item,
      { start, end: end!, source: 'channel', ...(isTour ? { seats: body.quantity } : { quantity: body.quantity }) },
      busy,
    );
    const line = {
      available: a.available,
      unitsFree: isTour ? null : a.unitsFree,
      ...(isTour && a.seatsFree !== undefined ? { seatsFree: a.seatsFree } : {}),
      ...(!a.available && a.reasons?.[0] ? { reason: a.reasons[0].code } : {}),
    };
    computed.set(hit.row.id, line);
    const firstExpiry = own.reduce((m, b) => (b.expiresAt != null && b.expiresAt > now ? Math.min(m, b.expiresAt) : m), Infinity);
    if (windowCache.size >= 2000) windowCache.delete(windowCache.keys().next().value!);
    windowCache.set(keyOf(hit), { validUntil: Math.min(now + WINDOW_CACHE_TTL_MS, firstExpiry), line });
  }
  const data = body.productIds.map((productId) => {
    const o = offered.get(productId);
    if (!o) return { productId, available: false, unitsFree: null, error: 'unknown_product' as const };
    if (body.locationId && o.hit.row.locationId !== body.locationId) return { productId, available: false, unitsFree: null, reason: 'not_at_location' };
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

/** Connections whose bookings this key may see: its merchants, including sandbox connections. */
async function visibleConnectionIds(db: DB, p: ChannelPrincipal): Promise<string[]> {
  if (p.kind === 'single') {
    const sandbox = await db
      .select({ id: channelConnections.id })
      .from(channelConnections)
      .where(eq(channelConnections.parentConnectionId, p.connection!.id))
      .all();
    return [p.connection!.id, ...sandbox.map((s) => s.id)];
  }
  const rows = await db.select({ id: channelConnections.id }).from(channelConnections).where(eq(channelConnections.channelId, p.channel!.id)).all();
  return rows.map((r) => r.id);
}

async function bookingOfKey(db: DB, p: ChannelPrincipal, bookingId: string): Promise<BookingRow> {
  const ids = await visibleConnectionIds(db, p);
  const row = ids.length
    ? await db
        .select()
        .from(bookings)
        .where(and(eq(bookings.transactionId, bookingId), inArray(bookings.channelConnectionId, ids), eq(bookings.testMode, p.mode === 'test')))
        .get()
    : undefined;
  if (!row) throw channelFail('not_found', 'No booking with this id was created by your key');
  return row;
}

export async function getBooking(ctx: Ctx, p: ChannelPrincipal, bookingId: string) {
  const db = ctx.db;
  return channelBookingOut(await bookingOfKey(db, p, bookingId), p.mode);
}

export async function findByReference(ctx: Ctx, p: ChannelPrincipal, reference: string) {
  const db = ctx.db;
  const ids = await visibleConnectionIds(db, p);
  const rows = ids.length
    ? await db
        .select()
        .from(bookings)
        .where(and(inArray(bookings.channelConnectionId, ids), eq(bookings.channelReference, reference), eq(bookings.testMode, p.mode === 'test')))
        .all()
    : [];
  return { data: rows.map((r) => channelBookingOut(r, p.mode)) };
}

const TRANSIENT = /overloaded|network connection lost|internal error|reset because|too many requests|D1_ERROR: (?!.*(UNIQUE|constraint))/i;

/**
 * Creates a channel booking under the idempotency contract. The claim row and the booking's
 * unique `channel_idempotency_key` make a key create at most one booking; the claim is completed
 * in the same D1 batch as the booking.
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
  const found = await offered(db, p, body.productId);

  const replayOf = async (bookingId: string) => ({ status: 200 as const, body: { ...(await getBooking(reqCtx, p, bookingId)), idempotentReplay: true } });
  const c = await claim(db, p.scope, idempotencyKey, hash);
  if (c.kind === 'replay') return replayOf(String(c.body.bookingId));
  // Unique on bookings: a claim (kept across a takeover of an abandoned request) creates at most one booking.
  const uniqueKey = `${p.scope}:${idempotencyKey}:${c.id}`;
  if (c.kind === 'takeover') {
    const done = await db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, uniqueKey)).get();
    if (done) {
      await db
        .update(channelIdempotency)
        .set({ status: 'completed', bookingId: done.transactionId, responseBody: { bookingId: done.transactionId } })
        .where(eq(channelIdempotency.id, c.id));
      return replayOf(done.transactionId);
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
  try {
    await createBooking(
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
      },
    );
  } catch (err) {
    if (/UNIQUE/i.test(String(err)) && /channel_idempotency_key/i.test(String(err))) {
      const done = await db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, uniqueKey)).get();
      if (done) return replayOf(done.transactionId);
    }
    await release(db, c.id).catch(() => undefined);
    if (err instanceof ApiError) {
      if (err.status === 409) throw channelFail('unavailable', err.message);
      if (err.status === 503) throw channelFail('inventory_locked', err.message);
      throw err;
    }
    if (TRANSIENT.test(String(err))) throw channelFail('inventory_locked', 'The inventory is busy; retry with the same Idempotency-Key');
    throw err;
  }
  return { status: 201, body: { ...(await getBooking(reqCtx, p, transactionId)), idempotentReplay: false } };
}

export async function cancelChannelBooking(reqCtx: Ctx, p: ChannelPrincipal, bookingId: string) {
  const db = reqCtx.db;
  const b = await bookingOfKey(db, p, bookingId);
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
  const ids = await visibleConnectionIds(db, p);
  const rows = ids.length
    ? await db
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(inArray(bookings.channelConnectionId, ids), eq(bookings.testMode, true)))
        .all()
    : [];
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
  const sandbox = (await merchantConnections(db, p))[0];
  if (sandbox) await ctx.hooks.emit(ctx, 'channel.sandbox_reset', { scope: p.scope, customerId: sandbox.customerId });
  return { reset: true, deletedBookings: rentalIds.length };
}

export async function keySettlement(ctx: Ctx, p: ChannelPrincipal, month: string) {
  const db = ctx.db;
  const conns = (await merchantConnections(db, p)).filter((c) => !c.sandbox);
  return settlement(
    db,
    conns.map((c) => c.id),
    month,
  );
}

export async function merchantName(db: DB, customerId: string) {
  return (await db.select({ name: customers.name }).from(customers).where(eq(customers.id, customerId)).get())?.name ?? customerId;
}

// What the operator side (channel-connections), the seed and the benchmark use of the channel.
export { keyRow, newChannelKey, type ConnectionRow, type KeyMode } from './keys';
export { settlement } from './settlement';
export { syncChannelEndpoints } from './portal';
// What the OCTO supplier API (src/modules/octo) sells with: the same keys, connections, offer sets and rate limit.
export { resolveChannelKey, merchantConnections, type ChannelPrincipal } from './keys';
export { findOffered, offeredItems, modelOf, narrowedTaxes } from './catalog';
export { CHANNEL_RATE_LIMIT } from './middleware';
