/**
 * Haul service requests: created by staff (for a slip reservation, a known renter or a new one) or
 * by the renter in the tenant portal (for their reservation), edited while not started, deleted
 * only if not started (with their lifts and photos).
 */
import { and, eq } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso, todayIn } from '../../lib/clock';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { haulLiftBookings as L, haulServices as H, type HaulBoat } from '../../db/schema/haul-services';
import { getLocationInTenant } from '../locations/service';
import type { HaulServiceType } from '../marina-settings/service';
import { getRenterInTenant, renterUpsert } from '../renters/service';
import { getReservationRow, type ReservationRow } from '../slip-reservations/service';
import { getSlipRow } from '../slips/service';
import type * as s from './schemas';
import { getHaulRow, haulView } from './queries';
import { commitChange, failed } from './change';
import { checkRequestDates } from './dates';
import { NOT_STARTED, RETURNING } from './types';
import type { HaulRow } from './views';

const NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const bad = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });

export const boatFromReservation = (r: ReservationRow, over: Partial<HaulBoat> = {}): HaulBoat => ({
  vesselName: over.vesselName ?? r.boat.vesselName,
  loaFt: over.loaFt ?? r.boat.loaFt,
  beamFt: over.beamFt !== undefined ? over.beamFt : r.boat.beamFt,
  draftFt: over.draftFt !== undefined ? over.draftFt : r.boat.draftFt,
  weightLbs: over.weightLbs ?? null,
});

interface Resolved {
  locationId: string;
  reservationId: string | null;
  slipId: string | null;
  renterId: string;
  renter: HaulRow['renter'];
  boat: HaulBoat;
  stmts: Stmt[];
  events: DomainEvent[];
}

async function resolveStaff(ctx: Ctx, input: z.output<typeof s.CreateBody>): Promise<Resolved> {
  if (input.reservationId) {
    const r = await getReservationRow(ctx, input.reservationId);
    if (input.locationId && input.locationId !== r.locationId) throw bad('locationId', 'The reservation is at another location');
    if (input.slipId && input.slipId !== r.slipId) throw bad('slipId', "Leave slipId out: the reservation's unit is used");
    return {
      locationId: r.locationId,
      reservationId: r.id,
      slipId: r.slipId,
      renterId: r.renterId,
      renter: r.renter,
      boat: boatFromReservation(r, input.boat ?? {}),
      stmts: [],
      events: [],
    };
  }
  if (!input.locationId) throw bad('locationId', 'locationId is required without a reservationId');
  if (!input.boat?.vesselName || input.boat.loaFt === undefined) throw bad('boat', 'boat with vesselName and loaFt is required without a reservationId');
  await getLocationInTenant(ctx, input.locationId);
  if (input.slipId && (await getSlipRow(ctx, input.slipId)).locationId !== input.locationId) throw bad('slipId', 'The unit is at another location');
  const boat: HaulBoat = {
    vesselName: input.boat.vesselName,
    loaFt: input.boat.loaFt,
    beamFt: input.boat.beamFt ?? null,
    draftFt: input.boat.draftFt ?? null,
    weightLbs: input.boat.weightLbs ?? null,
  };
  const base = { locationId: input.locationId, reservationId: null, slipId: input.slipId ?? null, boat };
  if (input.renterId) {
    const r = await getRenterInTenant(ctx, input.renterId);
    return { ...base, renterId: r.id, renter: { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone }, stmts: [], events: [] };
  }
  if (!input.renter) throw bad('renterId', 'Give reservationId, renterId or renter');
  const up = await renterUpsert(ctx, { customerId: tenantOf(ctx), ...input.renter, phone: input.renter.phone });
  return {
    ...base,
    renterId: up.renterId,
    renter: { firstName: input.renter.firstName, lastName: input.renter.lastName, email: input.renter.email, phone: input.renter.phone ?? null },
    stmts: up.statements,
    events: up.events,
  };
}

async function writeRequest(
  ctx: Ctx,
  who: Resolved,
  input: { serviceType: HaulServiceType; requestedDate: string; requestedReturnDate?: string; destination?: string; notes?: string; staffNotes?: string },
  via: 'staff' | 'portal',
) {
  const loc = await getLocationInTenant(ctx, who.locationId);
  checkRequestDates(input.serviceType, input.requestedDate, input.requestedReturnDate, todayIn(ctx, loc.timezone));
  const now = nowIso(ctx);
  const row: HaulRow = {
    id: newId('haul'),
    customerId: tenantOf(ctx),
    locationId: who.locationId,
    serviceNumber: `HS-${randomString(7, NUMBER_ALPHABET)}`,
    reservationId: who.reservationId,
    slipId: who.slipId,
    renterId: who.renterId,
    renter: who.renter,
    serviceType: input.serviceType,
    boat: who.boat,
    status: 'requested',
    requestedDate: input.requestedDate,
    requestedReturnDate: input.requestedReturnDate ?? null,
    scheduledDate: null,
    scheduledTime: null,
    returnDate: null,
    destination: input.destination ?? null,
    pricing: null,
    photos: [],
    notes: input.notes ?? null,
    staffNotes: input.staffNotes ?? null,
    requestedVia: via,
    scheduledAt: null,
    confirmedAt: null,
    confirmedBy: null,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    cancelReason: null,
    chargedCents: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [...who.stmts, ctx.db.insert(H).values(row)], {
    audit: {
      action: 'haul_service.request',
      targetType: 'haul_service',
      targetId: row.id,
      details: { serviceType: row.serviceType, reservationId: row.reservationId, requestedDate: row.requestedDate, via },
    },
    events: who.events,
  });
  return row;
}

/** POST /haul-services (staff). */
export async function createHaulService(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  const who = await resolveStaff(ctx, input);
  return haulView(ctx, await writeRequest(ctx, who, input, 'staff'));
}

/** The renter asks for a service for their reservation in the tenant portal (the caller checked ownership). */
export async function requestForReservation(ctx: Ctx, r: ReservationRow, input: z.output<typeof s.PortalRequestBody>) {
  if (!['pending', 'confirmed', 'checked_in'].includes(r.status))
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation takes no haul service requests`);
  const who: Resolved = {
    locationId: r.locationId,
    reservationId: r.id,
    slipId: r.slipId,
    renterId: r.renterId,
    renter: r.renter,
    boat: boatFromReservation(r, { weightLbs: input.weightLbs ?? null }),
    stmts: [],
    events: [],
  };
  return await writeRequest(ctx, who, input, 'portal');
}

/** PUT /haul-services/{id}: while not started; the type only while not scheduled (schedule again to move the lifts). */
export async function updateHaulService(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  if (!NOT_STARTED.includes(h.status)) throw new ApiError('invalid_state', `A ${h.status.replace('_', ' ')} haul service cannot be changed`);
  const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one field to change');
  if (input.serviceType && input.serviceType !== h.serviceType && h.status !== 'requested')
    throw new ApiError('invalid_state', 'The service is scheduled: cancel it and request the other type, or keep the type');
  const type = input.serviceType ?? h.serviceType;
  const patch: Partial<HaulRow> = {};
  if (input.serviceType) patch.serviceType = input.serviceType;
  if (input.boat) patch.boat = { ...h.boat, ...input.boat } as HaulBoat;
  if (input.requestedDate !== undefined || input.requestedReturnDate !== undefined || input.serviceType) {
    const loc = await getLocationInTenant(ctx, h.locationId);
    const requested = input.requestedDate ?? h.requestedDate;
    const ret = input.requestedReturnDate !== undefined ? input.requestedReturnDate : RETURNING.includes(type) ? h.requestedReturnDate : null;
    // The requested date may stay in the past once it was accepted; a new one may not.
    checkRequestDates(type, requested, ret, input.requestedDate !== undefined ? todayIn(ctx, loc.timezone) : requested);
    patch.requestedDate = requested;
    patch.requestedReturnDate = ret;
  }
  for (const k of ['destination', 'notes', 'staffNotes'] as const) if (input[k] !== undefined) patch[k] = input[k];
  await commitChange(ctx, h, patch, [], { action: 'haul_service.update', details: { fields } });
  return haulView(ctx, await getHaulRow(ctx, h.id));
}

/** DELETE /haul-services/{id}: only if not started (requested, scheduled, confirmed) or cancelled; its lifts and photos go with it. */
export async function deleteHaulService(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const h = await getHaulRow(ctx, id);
  if (h.status === 'in_progress' || h.status === 'completed')
    throw new ApiError('invalid_state', `A ${h.status.replace('_', ' ')} haul service cannot be deleted (it has started)`);
  try {
    await commit(
      ctx,
      [
        // The version guard first: a service started meanwhile aborts the delete.
        ctx.db
          .update(H)
          .set({ version: h.version + 1 })
          .where(and(eq(H.id, h.id), eq(H.customerId, h.customerId))),
        ctx.db.delete(L).where(and(eq(L.serviceId, h.id), eq(L.customerId, h.customerId))),
        ctx.db.delete(H).where(and(eq(H.id, h.id), eq(H.customerId, h.customerId))),
      ],
      { audit: { action: 'haul_service.delete', targetType: 'haul_service', targetId: h.id, details: { status: h.status, serviceNumber: h.serviceNumber } } },
    );
  } catch (err) {
    failed(err);
  }
  if (h.photos.length) await ctx.env.FILES.delete(h.photos.map((p) => p.key));
  return { id: h.id, deleted: true as const };
}
