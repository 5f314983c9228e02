/**
 * POST /fleetsys/sync-booking: a booking becomes one fleet reservation per assigned asset (through
 * the product mapping of the asset, else of its item), with an invoice on the first when the
 * booking's total is above 0. Idempotent per booking: each (booking, asset) is recorded in
 * `fleetsys_syncs` and a repeat answers the same reservations without creating anything; a sync
 * interrupted after the remote create is recovered by looking the reservation up by its
 * `externalBookingId` (`{rentalId}:{assetId}`). Concurrent syncs of one booking: one runs, the
 * others answer 409 `request_in_progress`.
 */
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { fleetsysSyncs } from '../../db/schema/fleet-system';
import { getBooking } from '../bookings/service';
import { fleetFail } from './errors';
import { customerOf, session } from './link';

const CLAIM_MS = 60_000;

export async function syncBooking(ctx: Ctx, input: { rentalId: string; customerId: string; locationId: string }) {
  const customerId = customerOf(ctx, input.customerId);
  const booking = await getBooking(ctx, input.rentalId);
  if (booking.locationId !== input.locationId)
    throw new ApiError('bad_request', `Booking ${booking.rentalId} is not at location ${input.locationId}`, {
      details: [{ field: 'locationId', message: 'not the booking location' }],
    });
  if (booking.status === 'cancelled') throw new ApiError('invalid_state', 'A cancelled booking is not sent to the fleet system');
  const s = await session(ctx, customerId);
  const mapping = s.link.productMappings;
  const assets: (string | null)[] = booking.assetIds.length ? booking.assetIds : [null];
  const lines = assets.map((assetId) => ({
    assetId,
    assetKey: assetId ?? '-',
    productId:
      mapping.find((m) => m.inventoryId === booking.inventoryId && assetId && m.assetId === assetId)?.productId ??
      mapping.find((m) => m.inventoryId === booking.inventoryId && !m.assetId)?.productId,
  }));
  const unmapped = lines.filter((l) => !l.productId);
  if (unmapped.length)
    throw fleetFail(
      'fleetsys_mapping_missing',
      `No fleet product mapped for ${booking.inventoryId}${unmapped[0].assetId ? ` (asset ${unmapped.map((u) => u.assetId).join(', ')})` : ''}`,
      {
        details: [{ field: 'productMappings', message: `map ${booking.inventoryId} with PUT /fleetsys/product-mappings` }],
      },
    );

  // The claim is a short technical lease against concurrent syncs: real time.
  const now = wallClock.now();
  const rowsWhere = and(eq(fleetsysSyncs.customerId, customerId), eq(fleetsysSyncs.rentalId, booking.rentalId));
  const inserts: Stmt[] = lines.map((l) =>
    ctx.db
      .insert(fleetsysSyncs)
      .values({
        id: newId('fss'),
        customerId,
        rentalId: booking.rentalId,
        assetKey: l.assetKey,
        externalBookingId: `${booking.rentalId}:${l.assetKey}`,
        productId: l.productId!,
        status: 'pending',
      })
      .onConflictDoNothing(),
  );
  await ctx.db.batch(inserts as [Stmt, ...Stmt[]]);
  const first = lines[0].assetKey;
  const pendingOrUnclaimed = or(isNull(fleetsysSyncs.claimedUntil), lt(fleetsysSyncs.claimedUntil, now));
  const claim = await ctx.db
    .update(fleetsysSyncs)
    .set({ claimedUntil: now + CLAIM_MS })
    .where(and(rowsWhere, eq(fleetsysSyncs.assetKey, first), pendingOrUnclaimed))
    .run();
  if (!claim.meta.changes) throw new ApiError('request_in_progress', 'This booking is being sent to the fleet system; retry in a moment');
  try {
    const rows = await ctx.db.select().from(fleetsysSyncs).where(rowsWhere).orderBy(asc(fleetsysSyncs.createdAt)).all();
    const customerName = [booking.customerInfo?.firstName, booking.customerInfo?.lastName].filter(Boolean).join(' ') || 'Renter';
    const ci = (booking.customerInfo ?? {}) as { email?: string; phone?: string };
    const out: { assetId: string | null; productId: string; reservationId: string; created: boolean }[] = [];
    for (const l of lines) {
      const row = rows.find((r) => r.assetKey === l.assetKey)!;
      let reservationId = row.reservationId;
      let created = false;
      if (!reservationId) {
        const found = await s.call((t) => s.provider.findReservations(s.creds, t, row.externalBookingId));
        reservationId = found.find((r) => r.status !== 'cancelled')?.id ?? null;
        if (!reservationId) {
          const r = await s.call((t) =>
            s.provider.createReservation(s.creds, t, {
              externalBookingId: row.externalBookingId,
              startDate: booking.startTime,
              endDate: booking.endTime,
              productId: row.productId,
              customerName,
              customerEmail: ci.email ?? null,
              customerPhone: ci.phone ?? null,
              totalAmount: lines.length === 1 ? booking.pricing.total : Math.round((booking.pricing.total / lines.length) * 100) / 100,
              notes: `Berth booking ${booking.rentalId}${l.assetId ? `, asset ${l.assetId}` : ''}`,
            }),
          );
          reservationId = r.id;
          created = true;
        }
        await ctx.db
          .update(fleetsysSyncs)
          .set({ reservationId, status: 'synced' })
          .where(and(eq(fleetsysSyncs.id, row.id), eq(fleetsysSyncs.customerId, customerId)));
        row.reservationId = reservationId;
      }
      out.push({ assetId: l.assetId, productId: row.productId, reservationId, created });
    }
    let invoice: { invoiceId: string; amount: number; created: boolean } | null = null;
    const head = rows.find((r) => r.assetKey === first)!;
    if (booking.pricing.total > 0) {
      if (head.invoiceId) invoice = { invoiceId: head.invoiceId, amount: booking.pricing.total, created: false };
      else {
        const inv = await s.call((t) =>
          s.provider.createInvoice(s.creds, t, head.reservationId!, { amount: booking.pricing.total, description: `Berth booking ${booking.rentalId}` }),
        );
        await ctx.db
          .update(fleetsysSyncs)
          .set({ invoiceId: inv.id })
          .where(and(eq(fleetsysSyncs.id, head.id), eq(fleetsysSyncs.customerId, customerId)));
        invoice = { invoiceId: inv.id, amount: booking.pricing.total, created: true };
      }
    }
    return { rentalId: booking.rentalId, reservations: out, invoice };
  } finally {
    await ctx.db
      .update(fleetsysSyncs)
      .set({ claimedUntil: null })
      .where(and(rowsWhere, eq(fleetsysSyncs.assetKey, first)));
  }
}
