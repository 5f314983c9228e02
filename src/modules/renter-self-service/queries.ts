/**
 * Reads of the renter's self-service. A renter names a booking by its (unguessable) rental id with
 * no operator credentials, so these reads are not tenant-scoped by a caller: the booking found
 * decides the operator, and every later read and write filters by that booking's `customer_id`.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Ctx, Principal } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { bookings, ledgerEntries } from '../../db/schema/bookings';
import type { BookingRow } from '../bookings/service';

/** A rental by id whatever its operator; 404 when unknown. */
export async function rentalById(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db.select().from(bookings).where(eq(bookings.id, rentalId)).get();
  if (!row) throw notFound('Booking');
  return row;
}

/** The context of a renter acting on their booking: the booking's operator is the tenant; audit rows name the renter. */
export function asRenter(ctx: Ctx, b: Pick<BookingRow, 'customerId'>, actor: string): Ctx {
  const principal: Principal = {
    kind: 'anonymous',
    credentialId: actor,
    userId: null,
    customerId: b.customerId,
    role: null,
    permissions: [],
    plan: 'standard',
    name: 'Renter',
  };
  return { ...ctx, principal };
}

/** Cents the renter paid by card for a rental (card payments minus card refunds), at most its amount paid. */
export async function paidByCard(ctx: Ctx, b: BookingRow): Promise<number> {
  const r = await ctx.db
    .select({ total: sql<number>`coalesce(sum(-${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, b.customerId),
        eq(ledgerEntries.rentalId, b.id),
        inArray(ledgerEntries.entryType, ['payment', 'refund']),
        eq(ledgerEntries.source, 'card'),
        isNull(ledgerEntries.deletedAt),
      ),
    )
    .get();
  return Math.max(0, Math.min(Number(r?.total ?? 0), b.amountPaid));
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
