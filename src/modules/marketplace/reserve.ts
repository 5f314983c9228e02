/**
 * POST /ota/v2/reserve: a hold of price and inventory for HOLD_MS, taken in the item's lock
 * (the same lock as every other sale), counting against capacity until it expires by itself.
 */
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { marketplaceReservations } from '../../db/schema/marketplace';
import { HOLD_MS, type ConfigRow, type ReservationRow } from './types';
import { busyOf, holdInventory, optionItem, quote, vacancies, windowOf } from './engine';
import { sameCurrency } from './catalog';
import { optionId } from './options';
import { ticketsOf } from './travelers';
import { reservationOut } from './views';

/** POST /ota/v2/reserve */
export async function reserveHold(
  ctx: Ctx,
  cfg: ConfigRow,
  body: { productOptionId: string; travelDate: string; startTime?: string; tickets?: { ageBand: string; quantity: number }[]; totalTravelers?: number },
) {
  const { ref, item } = await optionItem(ctx, body.productOptionId);
  sameCurrency(cfg, item);
  const demand = ticketsOf(item, body);
  const w = await windowOf(ctx, item, ref, body.travelDate, body.startTime, demand.seatsHint);
  const q = await quote(ctx, item, w, demand.tickets, demand.travelers);
  // The sales rules of the marketplace (notice, advance window, opening hours) before the hold;
  // capacity is then checked and taken atomically inside the item's lock.
  const busy = await busyOf(ctx, item, w.start, w.end);
  const v = await vacancies(ctx, item, { start: w.start, end: w.end, seats: item.item.kind === 'tour' ? (q.seats ?? demand.travelers) : undefined }, busy);
  if (!v.available)
    throw new ApiError('unavailable', v.reasons.map((r) => r.message).join('; ') || 'No room at that time', {
      extra: { reasons: v.reasons, vacancies: v.vacancies },
    });
  const now = ctx.clock.now();
  const row: ReservationRow = {
    id: newId('mkr'),
    customerId: tenantOf(ctx),
    configId: cfg.id,
    itemId: item.row.id,
    productOptionId: optionId(item.row.id, ref.hours),
    travelDate: body.travelDate,
    startTime: w.time,
    start: w.start,
    end: w.end,
    totalTravelers: q.participants ?? demand.travelers,
    tickets: demand.tickets,
    priceCents: q.total,
    currency: q.currency,
    status: 'held',
    expiresAt: now + HOLD_MS,
    bookingRef: null,
    rentalId: null,
    transactionId: null,
    traveler: null,
    amendments: 0,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  await holdInventory(
    ctx,
    { item, holdId: row.id, start: w.start, end: w.end, seats: q.seats ?? 1, privateCharter: q.privateCharter, capacity: w.capacity, expiresAt: row.expiresAt },
    async (allocationStmts, via) => {
      await commit(ctx, [ctx.db.insert(marketplaceReservations).values(row), ...allocationStmts], {
        audit: {
          action: 'marketplace.reserve',
          targetType: 'marketplace_reservation',
          targetId: row.id,
          details: { productOptionId: row.productOptionId, start: new Date(w.start).toISOString(), travelers: row.totalTravelers, price: row.priceCents },
        },
        via,
      });
    },
  );
  return reservationOut(row, ctx.clock.now());
}
