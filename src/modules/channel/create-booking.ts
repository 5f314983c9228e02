/** Creating a channel booking under the idempotency contract, with the platform fee it charges the operator. */
import { and, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import { channelFail } from './errors';
import type { Ctx } from '../../lib/context';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents } from '../../lib/money';
import { sha256Hex } from '../../lib/crypto';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { bookings } from '../../db/schema/bookings';
import { channelIdempotency } from '../../db/schema/channel';
import { customers } from '../../db/schema/accounts';
import { createBookingRows } from '../bookings/service';
import { itemContextsFrom, type ItemContext, type ItemRow, type LocationRow } from '../availability/service';
import { offeredOf } from './catalog';
import type { ConnectionRow, ChannelPrincipal } from './keys';
import { claimStatements, release, requestHash, settleClaim } from './idempotency';
import { channelBookingOut, getBooking, ofKey, type BookingRow } from './bookings';
import { customerIn, merchantCtx, readWithSellers, windowOf } from './sellers';
import type { CreateBookingBody } from './schemas';

/** Flat fee the service charges the operator per channel booking (cents); reversed on cancel. */
export const PLATFORM_FEE_CENTS = 500;

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

  const ctx = await merchantCtx(reqCtx, p, found.conn);
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
    if (isUniqueViolation(err, /channel_idempotency_key/i)) {
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
