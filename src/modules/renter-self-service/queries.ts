/**
 * Reads of the renter's self-service. A renter names a booking by its (unguessable) rental id with
 * no operator credentials, so these reads are not tenant-scoped by a caller: the booking found
 * decides the operator, and every later read and write filters by that booking's `customer_id`.
 */
import { eq } from 'drizzle-orm';
import { anonymousFor, type Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { notFound } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
import type { BookingRow } from '../bookings/service';

/** A rental by id whatever its operator; 404 when unknown. */
export async function rentalById(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db.select().from(bookings).where(eq(bookings.id, rentalId)).get();
  if (!row) throw notFound('Booking');
  return row;
}

/**
 * A rental by id whatever its operator (404 when unknown), with `ctx` moved onto that operator's
 * clock: a renter's call learns the operator from the booking, and "now" is the operator's.
 */
export async function rentalOnItsClock(ctx: Ctx, rentalId: string): Promise<{ b: BookingRow; ctx: Ctx }> {
  const b = await rentalById(ctx, rentalId);
  return { b, ctx: await onOperatorClock(ctx, b.customerId) };
}

/** The context of a renter acting on their booking: the booking's operator is the tenant; audit rows name the renter. */
export function asRenter(ctx: Ctx, b: Pick<BookingRow, 'customerId'>, actor: string): Ctx {
  return anonymousFor(ctx, b.customerId, actor, 'Renter');
}

/** The booking's contact e-mail: its customer info, else its renter's. */
export function bookingEmail(b: BookingRow): string | null {
  const e = (b.customerInfo as { email?: unknown } | null)?.email;
  return typeof e === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) ? e.toLowerCase() : null;
}

export const OPEN_STATUSES = new Set(['pending', 'confirmed']);
export const ACTIVE_STATUSES = new Set(['pending', 'confirmed', 'checked_in']);

/** Did a batch abort on the NOT NULL guard of `table.column` (a conditional insert whose condition failed)? */
export function guardRefused(err: unknown, column: string): boolean {
  const e = err as { message?: string; cause?: unknown };
  return `${e?.message ?? err} ${String(e?.cause ?? '')}`.includes(`NOT NULL constraint failed: ${column}`);
}
