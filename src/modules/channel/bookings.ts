/** A key's bookings: the booking as the channel shows it, the bookings a key may see, reads, cancel and the sandbox reset. */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { channelFail } from './errors';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { toDollars } from '../../lib/money';
import { bookingEvents, bookings, ledgerEntries } from '../../db/schema/bookings';
import { channelConnections, channelIdempotency } from '../../db/schema/channel';
import { deleteAllocationsOf, forgetDeleted, type DeletedAllocation } from '../availability/service';
import { cancelBooking, deleteTestBookingsStmt } from '../bookings/service';
import { sandboxConnection, sandboxOwner, type ChannelPrincipal } from './keys';
import { findPrivateSandbox, resetPrivateSandbox } from '../partners/service';
import { merchantCtx } from './sellers';

export type BookingRow = typeof bookings.$inferSelect;

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

export const ofKey = (ctx: Ctx, p: ChannelPrincipal) =>
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

export async function cancelChannelBooking(reqCtx: Ctx, p: ChannelPrincipal, bookingId: string) {
  const db = reqCtx.db;
  const b = await bookingOfKey(reqCtx, p, bookingId);
  const conn = await db.select().from(channelConnections).where(eq(channelConnections.id, b.channelConnectionId!)).get();
  const ctx = await merchantCtx(reqCtx, p, conn!);
  const res = await cancelBooking(ctx, b.id, { reason: 'Cancelled by the reseller' });
  const after = await db.select().from(bookings).where(eq(bookings.id, b.id)).get();
  return { ...channelBookingOut(after!, p.mode), alreadyCancelled: res.alreadyCancelled };
}

/**
 * A test key's sandbox reset: the key holder's test bookings go (with their allocations, ledger rows
 * and activity), its idempotency keys are forgotten and its OCTO sales go too (hook
 * `channel.sandbox_reset`); then, when the key sells its own private sandbox, that operator alone is
 * purged and seeded again (same ids), so it is back to its seeded state. A key selling a sandbox it
 * does not own (the demo reseller's Demo Marina, a test clock's operator) only wipes its own bookings.
 */
export async function sandboxReset(ctx: Ctx, p: ChannelPrincipal) {
  const db = ctx.db;
  if (p.mode !== 'test') throw channelFail('not_sandbox', 'Sandbox reset needs a test key (rtc_test_...); live keys never wipe bookings');
  const sandbox = await sandboxConnection(ctx, p);
  const rows = await db
    .select({ id: bookings.id, customerId: bookings.customerId })
    .from(bookings)
    .where(and(ofKey(ctx, p), eq(bookings.testMode, true)))
    .all();
  const rentalIds = rows.map((r) => r.id);
  for (let i = 0; i < rentalIds.length; i += 50) {
    const chunk = rentalIds.slice(i, i + 50);
    // A key may sell for several operators: each operator's allocations go by a delete scoped to it.
    const byOperator = new Map<string, string[]>();
    for (const r of rows.slice(i, i + 50)) byOperator.set(r.customerId, [...(byOperator.get(r.customerId) ?? []), r.id]);
    const statements: Stmt[] = [
      ...[...byOperator].map(([customerId, sourceIds]) => deleteAllocationsOf(ctx, { customerId, sourceIds })),
      db.delete(ledgerEntries).where(inArray(ledgerEntries.rentalId, chunk)),
      db.delete(bookingEvents).where(inArray(bookingEvents.rentalId, chunk)),
      ...[...byOperator].map(([customerId, rentalIds]) => deleteTestBookingsStmt(ctx, { customerId, rentalIds })),
    ];
    const res = await db.batch(statements as [Stmt, ...Stmt[]]);
    // The first results are the deleted allocations: their items' locks forget the reservations that became them.
    await forgetDeleted(ctx, (res.slice(0, byOperator.size) as DeletedAllocation[][]).flat());
  }
  await db.delete(channelIdempotency).where(eq(channelIdempotency.scope, p.scope));
  await ctx.hooks.emit(ctx, 'channel.sandbox_reset', { scope: p.scope, customerId: sandbox.customerId });
  const owner = sandboxOwner(p);
  const own = await findPrivateSandbox(ctx, owner);
  const reseeded = own?.operatorId === sandbox.customerId;
  if (reseeded) await resetPrivateSandbox(ctx, owner);
  return { reset: true as const, deletedBookings: rentalIds.length, merchantId: sandbox.customerId, reseeded };
}
