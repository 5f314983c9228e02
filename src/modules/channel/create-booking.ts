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
import { createBookingRows, inRequestFields } from '../bookings/service';
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

type Body = z.output<typeof CreateBookingBody>;
type Answer = { status: 200 | 201; body: Record<string, unknown> };

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
export async function createChannelBooking(reqCtx: Ctx, p: ChannelPrincipal, idempotencyKey: string | undefined, body: Body): Promise<Answer> {
  if (!idempotencyKey)
    throw new ApiError('validation_failed', 'The Idempotency-Key header is required (a unique string per checkout, reused on retries)', {
      details: [{ field: 'Idempotency-Key', message: 'required header' }],
    });
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
  const read = await claimAndRead(reqCtx, p, idempotencyKey, body, claimed);
  const { found, item } = await productOf(reqCtx, read, claimed.id);
  const c = await settleClaim(reqCtx, read.claimRows[0], claimed.id, p.scope, idempotencyKey, hash);
  if (c.kind === 'replay') return replayOf(reqCtx, p, String(c.body.bookingId), read.doneRows);
  // Unique on bookings: a claim (kept across a takeover of an abandoned request) creates at most one booking.
  const uniqueKey = `${p.scope}:${idempotencyKey}:${c.id}`;
  if (c.kind === 'takeover') {
    const done = await completeTakenOver(reqCtx, c.id, uniqueKey);
    if (done) return replayOf(reqCtx, p, done.transactionId, [done]);
  }
  const sale = { found, item, settings: read.settingsRows[0]?.settings ?? {}, claimId: c.id, uniqueKey };
  return sellChannelBooking(reqCtx, p, body, sale);
}

/**
 * The first round trip: the claim of the key (its insert and the row that holds it), the booking a
 * completed key already made, the product with its location and assets, and its operator's settings.
 */
async function claimAndRead(reqCtx: Ctx, p: ChannelPrincipal, idempotencyKey: string, body: Body, claimed: ReturnType<typeof claimStatements>) {
  const db = reqCtx.db;
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
  return { conns: read.conns, claimRows, doneRows, itemRows, locRows, assetRows, settingsRows };
}
type FirstRead = Awaited<ReturnType<typeof claimAndRead>>;

/** The product offered to the key, with its location and assets; a refusal frees the claim this request made. */
async function productOf(reqCtx: Ctx, read: FirstRead, claimedId: string): Promise<{ found: ReturnType<typeof offeredProduct>; item: ItemContext }> {
  try {
    const found = offeredProduct(read.conns, read.itemRows[0]);
    const item = itemContextsFrom([read.itemRows, read.locRows, read.assetRows]).get(found.item.id);
    if (!item) throw channelFail('unknown_product', 'This product is not offered to your key');
    return { found, item };
  } catch (err) {
    if (read.claimRows[0]?.id === claimedId) await release(reqCtx, claimedId).catch(() => undefined);
    throw err;
  }
}

/** The booking a key already made, answered again (from the rows at hand, else read). */
async function replayOf(reqCtx: Ctx, p: ChannelPrincipal, bookingId: string, rows: BookingRow[] = []): Promise<Answer> {
  const row = rows.find((r) => r.transactionId === bookingId);
  const out = row ? channelBookingOut(row, p.mode) : await getBooking(reqCtx, p, bookingId);
  return { status: 200 as const, body: { ...out, idempotentReplay: true } };
}

/** A claim taken over from an abandoned request whose booking was written after all: completes the claim with it. */
async function completeTakenOver(reqCtx: Ctx, claimId: string, uniqueKey: string): Promise<BookingRow | undefined> {
  const db = reqCtx.db;
  const done = await db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, uniqueKey)).get();
  if (done)
    await db
      .update(channelIdempotency)
      .set({ status: 'completed', bookingId: done.transactionId, responseBody: { bookingId: done.transactionId } })
      .where(eq(channelIdempotency.id, claimId));
  return done;
}

/** What the sale of a claimed key sells: the product read in the first batch, the operator's settings, the claim and its unique booking key. */
interface ChannelSale {
  found: ReturnType<typeof offeredProduct>;
  item: ItemContext;
  settings: Record<string, unknown>;
  claimId: string;
  uniqueKey: string;
}

/**
 * The booking sale (source channel, reseller-paid at the reseller's price, preloaded product), the
 * claim completed in its batch. A booking of the same claim written meanwhile is answered as a
 * replay; otherwise the claim is freed and the failure answered in the channel's codes.
 */
async function sellChannelBooking(reqCtx: Ctx, p: ChannelPrincipal, body: Body, sale: ChannelSale): Promise<Answer> {
  const ctx = await merchantCtx(reqCtx, p, sale.found.conn);
  const transactionId = newId('txn');
  const guest = body.guest ?? {
    firstName: 'Guest',
    lastName: `of ${sale.found.conn.name}`.slice(0, 100),
    email: `guest+${(await sha256Hex(sale.found.conn.id)).slice(0, 12)}@channel.berth.invalid`,
  };
  let written: BookingRow[];
  try {
    ({ rows: written } = await createBookingRows(ctx, bookingInputOf(p, body, sale, guest), bookingOptionsOf(reqCtx, p, body, sale, transactionId)));
  } catch (err) {
    if (isUniqueViolation(err, /channel_idempotency_key/i)) {
      const done = await reqCtx.db.select().from(bookings).where(eq(bookings.channelIdempotencyKey, sale.uniqueKey)).get();
      if (done) return replayOf(reqCtx, p, done.transactionId, [done]);
    }
    await release(reqCtx, sale.claimId).catch(() => undefined);
    throw channelFailure(err);
  }
  return { status: 201, body: { ...channelBookingOut(written[0], p.mode), idempotentReplay: false } };
}

type BookInput = Parameters<typeof createBookingRows>[1];
type BookOptions = NonNullable<Parameters<typeof createBookingRows>[2]>;

/** The operator's booking of a channel sale: the product's window and units, the guest, the reseller's reference. */
function bookingInputOf(p: ChannelPrincipal, body: Body, sale: ChannelSale, guest: BookInput['customerInfo']): BookInput {
  const isTour = sale.found.model.type === 'tour';
  return {
    rentalDetails: {
      inventoryId: sale.found.item.id,
      startTime: body.startTime,
      endTime: body.endTime,
      ...(isTour ? (body.tickets ? { tickets: body.tickets } : { quantity: body.quantity }) : { quantity: body.quantity }),
      ...(body.notes ? { notes: body.notes } : {}),
    },
    rentalPricing: {},
    customerInfo: { ...guest },
    extendedData: { channel: { reference: body.reference, connectionId: sale.found.conn.id, mode: p.mode } },
  };
}

/** How the booking sale takes it: prepaid at the reseller's price, the platform fee on live keys, the claim completed in the batch. */
function bookingOptionsOf(reqCtx: Ctx, p: ChannelPrincipal, body: Body, sale: ChannelSale, transactionId: string): BookOptions {
  const { found } = sale;
  const testMode = p.mode === 'test';
  return {
    source: 'channel',
    prepaid: true,
    transactionId,
    priceOverride: { total: toCents(body.totalPrice) },
    channel: { connectionId: found.conn.id, reference: body.reference, commissionRate: found.conn.commissionRate, testMode, idempotencyKey: sale.uniqueKey },
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
      reqCtx.db
        .update(channelIdempotency)
        .set({ status: 'completed', bookingId: transactionId, responseBody: { bookingId: transactionId } })
        .where(eq(channelIdempotency.id, sale.claimId)),
    ],
    preloaded: { settings: sale.settings, items: [sale.item] },
  };
}

/** A failed sale in the channel's codes: a conflict is `unavailable`, a busy lock or a transient database error `inventory_locked`. */
function channelFailure(err: unknown): unknown {
  if (err instanceof ApiError) {
    if (err.status === 409) return channelFail('unavailable', err.message);
    if (err.status === 503) return channelFail('inventory_locked', err.message);
    // A booking rule's refusal names the channel body's own fields (`tickets`, `quantity`, ...), not the operator's `rentalDetails`.
    return inRequestFields(err, (field) => field);
  }
  if (TRANSIENT.test(String(err))) return channelFail('inventory_locked', 'The inventory is busy; retry with the same Idempotency-Key');
  return err;
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
