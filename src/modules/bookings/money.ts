/**
 * Money other modules add to a booking after its commit: a payment applied to its balance (the
 * point of sale settling a booking) or a charge paid with it (a protection plan bought later).
 * Statements only, for the caller's own batch (the payments service commits them with the event).
 */
import { nowIso } from '../../lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { notFound } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
import { insertLedger, memoEntry } from './ledger';
import { scopeOf } from './changes';
import type { BookingRow } from './views';

/** A rental by id whatever its operator (public, renter-facing paths that name a rentalId); 404 when unknown. */
export async function findRentalAnyOperator(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db.select().from(bookings).where(eq(bookings.id, rentalId)).get();
  if (!row) throw notFound('Booking');
  return row;
}

/** A payment received outside the booking commit, applied to its balance: a `payment` ledger entry and `amountPaid` raised. */
export function bookingPaymentStmts(
  ctx: Ctx,
  b: BookingRow,
  p: { amount: number; source: string; reference: string | null; description: string; metadata?: Record<string, unknown> },
): Stmt[] {
  return [
    ...insertLedger(ctx, [
      memoEntry(scopeOf(b), {
        entryType: 'payment',
        amount: -p.amount,
        affectsBalance: true,
        description: p.description,
        source: p.source,
        reference: p.reference,
        metadata: p.metadata,
      }),
    ]),
    ctx.db
      .update(bookings)
      .set({ amountPaid: sql`${bookings.amountPaid} + ${p.amount}`, updatedAt: nowIso(ctx) })
      .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
  ];
}

/**
 * A charge added to a booking and paid at once (a protection plan): its ledger charge, and the
 * booking's `total` and `feeTotal` raised by it. Pair it with `bookingPaymentStmts`.
 */
export function bookingChargeStmts(
  ctx: Ctx,
  b: BookingRow,
  c: { amount: number; entryType: string; description: string; source: string; reference: string | null; metadata?: Record<string, unknown> },
): Stmt[] {
  return [
    ...insertLedger(ctx, [
      memoEntry(scopeOf(b), {
        entryType: c.entryType,
        amount: c.amount,
        affectsBalance: true,
        description: c.description,
        source: c.source,
        reference: c.reference,
        metadata: c.metadata,
      }),
    ]),
    ctx.db
      .update(bookings)
      .set({
        total: sql`${bookings.total} + ${c.amount}`,
        feeTotal: sql`${bookings.feeTotal} + ${c.amount}`,
        updatedAt: nowIso(ctx),
      })
      .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
  ];
}

/** Money given back outside a cancellation (a coverage premium refunded): a `refund` ledger entry and `amountPaid` lowered. */
export function bookingRefundStmts(
  ctx: Ctx,
  b: BookingRow,
  r: { amount: number; refundId: string | null; description: string; metadata?: Record<string, unknown> },
): Stmt[] {
  return [
    ...insertLedger(ctx, [
      memoEntry(scopeOf(b), {
        entryType: 'refund',
        amount: r.amount,
        affectsBalance: true,
        description: r.description,
        source: 'card',
        reference: r.refundId,
        metadata: r.metadata,
      }),
    ]),
    ctx.db
      .update(bookings)
      .set({ amountPaid: sql`max(0, ${bookings.amountPaid} - ${r.amount})`, updatedAt: nowIso(ctx) })
      .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId))),
  ];
}
