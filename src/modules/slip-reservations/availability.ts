import { and, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { slipReservations } from '../../db/schema/slip-reservations';
import { CLOSED_SLIP_STATUSES, fitUnit, getSlipRow, slipOut, slipRowsOfLocation, type BoatDimensions, type FitRefusal, type UnitType } from '../slips/service';
import { checkDates, settingsOf } from './quote';
import { nightsBetween } from './pricing';
import { isBlocking, type SlipConflict } from './types';

interface BoatQuery {
  loaFt?: number;
  beamFt?: number;
  draftFt?: number;
  airDraftFt?: number;
}

const boatOf = (q: BoatQuery): BoatDimensions | null =>
  q.loaFt == null && q.beamFt == null && q.draftFt == null && q.airDraftFt == null
    ? null
    : { loaFt: q.loaFt ?? 0, beamFt: q.beamFt ?? null, draftFt: q.draftFt ?? null, airDraftFt: q.airDraftFt ?? null };

/** Reservations holding units of the caller for some of the nights, by unit (the same rule as the lock and the triggers). */
async function conflictsBySlip(ctx: Ctx, slipIds: string[], arrivalDate: string, departureDate: string, excludeId?: string) {
  const out = new Map<string, SlipConflict[]>();
  if (!slipIds.length) return out;
  const now = ctx.clock.now();
  for (let i = 0; i < slipIds.length; i += 90) {
    const conds = [
      eq(slipReservations.customerId, tenantOf(ctx)),
      inArray(slipReservations.slipId, slipIds.slice(i, i + 90)),
      lt(slipReservations.arrivalDate, departureDate),
      gt(slipReservations.departureDate, arrivalDate),
      inArray(slipReservations.status, ['pending', 'awaiting_payment', 'confirmed', 'checked_in']),
    ];
    if (excludeId) conds.push(ne(slipReservations.id, excludeId));
    const rows = await ctx.db
      .select()
      .from(slipReservations)
      .where(and(...conds))
      .all();
    for (const r of rows) {
      if (!isBlocking(r, now)) continue;
      const list = out.get(r.slipId) ?? [];
      list.push({ reservationId: r.id, reservationNumber: r.reservationNumber, status: r.status, arrivalDate: r.arrivalDate, departureDate: r.departureDate });
      out.set(r.slipId, list);
    }
  }
  return out;
}

/** GET /slips/availability: units of a location that fit the boat and are free for every night. */
export async function slipAvailability(
  ctx: Ctx,
  q: BoatQuery & { locationId: string; arrivalDate: string; departureDate: string; unitType?: UnitType; section?: string; includeRefused?: 'true' | 'false' },
) {
  checkDates(q.arrivalDate, q.departureDate);
  const units = await slipRowsOfLocation(ctx, { locationId: q.locationId, unitType: q.unitType, section: q.section });
  const settings = await settingsOf(ctx, q.locationId);
  const boat = boatOf(q);
  const conflicts = await conflictsBySlip(
    ctx,
    units.map((u) => u.id),
    q.arrivalDate,
    q.departureDate,
  );
  const free = [];
  const refused = [];
  for (const u of units) {
    const fit: FitRefusal[] = boat ? fitUnit(u, boat, settings.clearances) : [];
    const c = conflicts.get(u.id) ?? [];
    const closed = CLOSED_SLIP_STATUSES.includes(u.status);
    if (!fit.length && !c.length && !closed) free.push(slipOut(u));
    else
      refused.push({
        slipId: u.id,
        unitNumber: u.unitNumber,
        section: u.section,
        reasons: [...(fit.length ? ['does_not_fit' as const] : []), ...(c.length ? ['reserved' as const] : []), ...(closed ? ['closed' as const] : [])],
        fit,
        conflicts: c,
      });
  }
  return {
    locationId: q.locationId,
    arrivalDate: q.arrivalDate,
    departureDate: q.departureDate,
    nights: nightsBetween(q.arrivalDate, q.departureDate),
    clearances: settings.clearances,
    data: free,
    total: free.length,
    ...(q.includeRefused === 'true' ? { refused } : {}),
  };
}

/** GET /slip-reservations/check-availability: one unit for dates (and a boat). */
export async function checkAvailability(
  ctx: Ctx,
  q: BoatQuery & { slipId: string; arrivalDate: string; departureDate: string; excludeReservationId?: string },
) {
  checkDates(q.arrivalDate, q.departureDate);
  const u = await getSlipRow(ctx, q.slipId);
  const settings = await settingsOf(ctx, u.locationId);
  const boat = boatOf(q);
  const fit = boat ? fitUnit(u, boat, settings.clearances) : [];
  const conflicts = (await conflictsBySlip(ctx, [u.id], q.arrivalDate, q.departureDate, q.excludeReservationId)).get(u.id) ?? [];
  const open = !CLOSED_SLIP_STATUSES.includes(u.status);
  return {
    slipId: u.id,
    unitNumber: u.unitNumber,
    arrivalDate: q.arrivalDate,
    departureDate: q.departureDate,
    available: open && !conflicts.length && !fit.length,
    free: !conflicts.length,
    fits: boat ? !fit.length : null,
    open,
    fit,
    conflicts,
  };
}
