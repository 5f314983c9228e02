/** The tenant's guest passes and haul services of one of their reservations (the reservation read through `ownReservation`). */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { addPass, getPassRow, passesOfReservation, revokeRow } from '../slip-guest-access/service';
import { cancelRow, confirmRow, getHaulRow, haulServicesOfReservation, liftsOf, portalHaulOut, requestForReservation } from '../haul-services/service';
import { renterOf } from './auth';
import { ownReservation } from './queries';
import type * as s from './schemas';

export async function guestPassesOf(ctx: Ctx, id: string, q: { limit: number; offset: number }) {
  return passesOfReservation(ctx, (await ownReservation(ctx, id)).id, q);
}

export async function addGuestPass(ctx: Ctx, id: string, input: z.output<typeof s.GuestPassBody>) {
  return addPass(ctx, await ownReservation(ctx, id), input, 'tenant');
}

export async function revokeGuestPass(ctx: Ctx, id: string, guestId: string) {
  const r = await ownReservation(ctx, id);
  const p = await getPassRow(ctx, guestId).catch(() => null);
  if (!p || p.reservationId !== r.id) throw notFound('Guest pass');
  return revokeRow(ctx, p, 'revoked_by_renter');
}

export async function haulServicesOf(ctx: Ctx, id: string, q: { limit: number; offset: number }) {
  const r = await ownReservation(ctx, id);
  const list = await haulServicesOfReservation(ctx, r.id, q);
  const rows = await Promise.all(list.data.map((h) => getHaulRow(ctx, h.id)));
  const lifts = await liftsOf(
    ctx,
    rows.map((h) => h.id),
  );
  return { ...list, data: rows.map((h) => portalHaulOut(h, lifts.get(h.id) ?? [])) };
}

async function ownService(ctx: Ctx, id: string, serviceId: string) {
  const r = await ownReservation(ctx, id);
  const h = await getHaulRow(ctx, serviceId).catch(() => null);
  if (!h || h.reservationId !== r.id) throw notFound('Haul service');
  return h;
}

async function portalView(ctx: Ctx, serviceId: string) {
  const h = await getHaulRow(ctx, serviceId);
  return portalHaulOut(h, (await liftsOf(ctx, [h.id])).get(h.id) ?? []);
}

export async function requestHaul(ctx: Ctx, id: string, input: z.output<typeof s.HaulRequestBody>) {
  const h = await requestForReservation(ctx, await ownReservation(ctx, id), input);
  return portalView(ctx, h.id);
}

export async function cancelHaul(ctx: Ctx, id: string, serviceId: string, input: { reason?: string }) {
  const h = await cancelRow(ctx, await ownService(ctx, id, serviceId), input.reason ?? null, 'renter');
  return portalView(ctx, h.id);
}

export async function confirmHaul(ctx: Ctx, id: string, serviceId: string, input: { note?: string }) {
  const h = await confirmRow(ctx, await ownService(ctx, id, serviceId), `renter:${renterOf(ctx)}`, input.note);
  return portalView(ctx, h.id);
}
