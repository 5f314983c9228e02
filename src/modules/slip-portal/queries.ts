import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { getReservationRow, listReservations, type ReservationRow } from '../slip-reservations/service';
import { renterOf } from './auth';

/** A reservation of the session's renter; another tenant's (or operator's) answers 404. */
export async function ownReservation(ctx: Ctx, id: string): Promise<ReservationRow> {
  const renterId = renterOf(ctx);
  const r = await getReservationRow(ctx, id).catch(() => null);
  if (!r || r.renterId !== renterId) throw notFound('Reservation');
  return r;
}

/** GET /slip-portal/reservations: the renter's reservations, by arrival. */
export async function ownReservations(ctx: Ctx, q: { status?: ReservationRow['status']; limit: number; offset: number }) {
  return listReservations(ctx, { renterId: renterOf(ctx), status: q.status, limit: q.limit, offset: q.offset });
}
