/**
 * The anonymous marina pages: active maps with pins, units as a list and one by one, availability
 * for dates (with the fit check when boat dimensions are given), price calculation, the location's
 * booking configuration and the public waitlist. Nothing here shows a renter, a reservation number
 * or staff notes.
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { getMap, listMaps } from '../marina-maps/service';
import type { RateType, SlipSettings } from '../marina-settings/service';
import { checkAvailability, nightsBetween, quoteStay } from '../slip-reservations/service';
import { joinFromUnitPage } from '../slip-waitlist/service';
import { slipRowsByIds } from '../slips/service';
import type * as s from './schemas';
import { publicLocation, publicUnit, publicUnits, unitCounts } from './queries';
import { bookable, publicSlipOut } from './views';

export async function publicMaps(ctx: Ctx, locationId: string) {
  const op = await publicLocation(ctx, locationId);
  const maps = await listMaps(op.ctx, op.location.id, { activeOnly: 'true', limit: 100, offset: 0 });
  const data = [];
  for (const m of maps.data) {
    const full = await getMap(op.ctx, m.mapId);
    const units = new Map(
      (
        await slipRowsByIds(
          op.ctx,
          full.pins.map((p) => p.slipId),
        )
      ).map((u) => [u.id, u]),
    );
    data.push({
      mapId: m.mapId,
      name: m.name,
      description: m.description,
      imageUrl: m.imageUrl,
      imageWidth: m.imageWidth,
      imageHeight: m.imageHeight,
      displayOrder: m.displayOrder,
      pins: full.pins
        .filter((p) => units.get(p.slipId)?.status !== 'out_of_service')
        .map((p) => ({
          slipId: p.slipId,
          unitNumber: p.unitNumber,
          name: p.name,
          section: p.section,
          unitType: p.unitType,
          bookable: units.has(p.slipId) && bookable(units.get(p.slipId)!),
          x: p.x,
          y: p.y,
          rotation: p.rotation ?? null,
        })),
    });
  }
  return { locationId: op.location.id, data };
}

export async function publicList(ctx: Ctx, locationId: string, q: z.output<typeof s.ListQuery>) {
  const op = await publicLocation(ctx, locationId);
  const { rows, total } = await publicUnits(op, q);
  return { locationId: op.location.id, data: rows.map((u) => publicSlipOut(u, op.settings)), total, limit: q.limit, offset: q.offset };
}

export async function publicDetail(ctx: Ctx, slipId: string) {
  const op = await publicUnit(ctx, slipId);
  return {
    ...publicSlipOut(op.slip, op.settings),
    location: { id: op.location.id, name: op.location.name, timezone: op.location.timezone, currency: op.location.currency },
  };
}

export async function publicAvailability(ctx: Ctx, slipId: string, q: z.output<typeof s.AvailabilityQuery>) {
  const op = await publicUnit(ctx, slipId);
  const a = await checkAvailability(op.ctx, { ...q, slipId: op.slip.id });
  return {
    slipId: a.slipId,
    unitNumber: a.unitNumber,
    arrivalDate: a.arrivalDate,
    departureDate: a.departureDate,
    nights: nightsBetween(a.arrivalDate, a.departureDate),
    available: a.available,
    open: a.open,
    free: a.free,
    fits: a.fits,
    fit: a.fit,
    // Only the nights, clipped to the range asked: who holds them is nobody's business here.
    blocked: a.conflicts
      .map((c) => ({
        from: c.arrivalDate > q.arrivalDate ? c.arrivalDate : q.arrivalDate,
        to: c.departureDate < q.departureDate ? c.departureDate : q.departureDate,
      }))
      .sort((x, y) => x.from.localeCompare(y.from)),
  };
}

export function requirePublicBooking(settings: SlipSettings, what: string) {
  if (!settings.publicBookingEnabled) throw new ApiError('forbidden', `This marina does not take ${what} online; please contact the marina`);
}

export function requireRateType(settings: SlipSettings, rateType: RateType) {
  if (!settings.publicRateTypes.includes(rateType))
    throw new ApiError('validation_failed', `Online bookings take the rate types ${settings.publicRateTypes.join(', ')}`, {
      details: [{ field: 'rateType', message: `one of ${settings.publicRateTypes.join(', ')}` }],
    });
}

/** What a public booking charges at once: the deposit when the location takes one, else the total when no approval is needed, else nothing. */
export const dueAtBooking = (settings: SlipSettings, totals: { totalCents: number; depositCents: number }) =>
  settings.deposit.policy !== 'none' && totals.depositCents > 0
    ? Math.min(totals.depositCents, totals.totalCents)
    : settings.approvalRequired
      ? 0
      : totals.totalCents;

export async function calculatePrice(ctx: Ctx, input: z.output<typeof s.PriceBody>) {
  const op = await publicUnit(ctx, input.slipId);
  requireRateType(op.settings, input.rateType);
  const q = await quoteStay(op.ctx, {
    slip: op.slip,
    rateType: input.rateType,
    arrivalDate: input.arrivalDate,
    departureDate: input.departureDate,
    boat: input.boat,
  });
  return {
    slipId: op.slip.id,
    rateType: input.rateType,
    arrivalDate: input.arrivalDate,
    departureDate: input.departureDate,
    nights: q.nights,
    currency: op.location.currency,
    lines: q.pricing.lines,
    baseCents: q.baseCents,
    feesCents: q.feesCents,
    utilitiesCents: q.utilitiesCents,
    taxCents: q.taxCents,
    totalCents: q.totalCents,
    depositCents: q.depositCents,
    dueAtBookingCents: dueAtBooking(op.settings, q),
    approvalRequired: op.settings.approvalRequired,
    fits: !q.fit.length,
    fit: q.fit,
  };
}

export async function locationInfo(ctx: Ctx, locationId: string) {
  const op = await publicLocation(ctx, locationId);
  const st = op.settings;
  const l = op.location;
  return {
    location: {
      id: l.id,
      name: l.name,
      address: l.address,
      phoneNumber: l.phoneNumber,
      timezone: l.timezone,
      currency: l.currency,
      coordinates: l.latitude != null && l.longitude != null ? { latitude: l.latitude, longitude: l.longitude } : null,
    },
    booking: {
      publicBookingEnabled: st.publicBookingEnabled,
      approvalRequired: st.approvalRequired,
      rateTypes: st.publicRateTypes,
      deposit: st.deposit,
      requiredDocuments: st.requiredDocuments,
      checkInTime: st.checkInTime,
      checkOutTime: st.checkOutTime,
      cancellationPolicy: st.cancellationPolicy,
      ratesPerFootCents: {
        nightly: st.rates.nightlyPerFootCents,
        monthly: st.rates.monthlyPerFootCents,
        seasonal: st.rates.seasonalPerFootCents,
        annual: st.rates.annualPerFootCents,
      },
      taxRatePercent: st.taxRatePercent,
      fees: [...st.fees, ...st.utilities],
      clearances: st.clearances,
    },
    units: await unitCounts(op),
  };
}

export async function joinWaitlist(ctx: Ctx, slipId: string, input: z.output<typeof s.JoinBody>) {
  const op = await publicUnit(ctx, slipId);
  requirePublicBooking(op.settings, 'waitlist sign-ups');
  return joinFromUnitPage(op.ctx, op.slip, input);
}
