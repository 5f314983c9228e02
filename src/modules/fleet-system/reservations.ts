/** Pass-through operations on the fleet system: inventory types, products, reservations, invoices. */
import type { Ctx } from '../../lib/context';
import type { FleetReservationInput } from '../../adapters/fleet';
import { customerOf, session } from './link';

export async function inventoryTypes(ctx: Ctx, customerId: string) {
  const s = await session(ctx, customerOf(ctx, customerId));
  return { data: await s.call((t) => s.provider.inventoryTypes(s.creds, t)) };
}

export async function products(ctx: Ctx, customerId: string) {
  const s = await session(ctx, customerOf(ctx, customerId));
  return { data: await s.call((t) => s.provider.products(s.creds, t)) };
}

export async function findReservations(ctx: Ctx, q: { customerId: string; externalBookingId: string }) {
  const s = await session(ctx, customerOf(ctx, q.customerId));
  return { data: await s.call((t) => s.provider.findReservations(s.creds, t, q.externalBookingId)) };
}

export async function createReservation(ctx: Ctx, input: FleetReservationInput & { customerId: string }) {
  const { customerId, ...body } = input;
  const s = await session(ctx, customerOf(ctx, customerId));
  return s.call((t) => s.provider.createReservation(s.creds, t, body));
}

export async function updateReservation(ctx: Ctx, reservationId: string, input: Partial<FleetReservationInput> & { customerId: string; status?: string }) {
  const { customerId, ...patch } = input;
  const s = await session(ctx, customerOf(ctx, customerId));
  return s.call((t) => s.provider.updateReservation(s.creds, t, reservationId, patch));
}

export async function cancelReservation(ctx: Ctx, reservationId: string, customerId: string) {
  const s = await session(ctx, customerOf(ctx, customerId));
  return s.call((t) => s.provider.cancelReservation(s.creds, t, reservationId));
}

export async function createInvoice(ctx: Ctx, reservationId: string, input: { customerId: string; amount: number; description?: string }) {
  const s = await session(ctx, customerOf(ctx, input.customerId));
  return s.call((t) => s.provider.createInvoice(s.creds, t, reservationId, { amount: input.amount, description: input.description ?? null }));
}
