/**
 * Money other modules add to a booking after its commit: a payment applied to its balance (the
 * point of sale settling a booking) or a charge paid with it (a protection plan bought later).
 * Statements only, for the caller's own batch (the payments service commits them with the event).
 */
import { eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { notFound } from '../../lib/errors';
import { bookings } from '../../db/schema/bookings';
import { insertLedger, memoEntry, moneyFromLedgerStmt } from './ledger';
import { scopeOf } from './changes';
import type { BookingRow } from './views';

/** A rental by id whatever its operator (public, renter-facing paths that name a rentalId); 404 when unknown. */
export async function findRentalAnyOperator(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db.select().from(bookings).where(eq(bookings.id, rentalId)).get();
  if (!row) throw notFound('Booking');
  return row;
}

/** A payment received outside the booking commit, applied to its balance: a `payment` ledger entry; the booking's money follows its ledger. */
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
    moneyFromLedgerStmt(ctx, b),
  ];
}

/**
 * A charge added to a booking and paid at once (a protection plan): its ledger charge, and the
 * booking's `feeTotal` raised by it (its `total` follows the ledger). Pair it with `bookingPaymentStmts`.
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
    moneyFromLedgerStmt(ctx, b, { feeTotal: sql`${bookings.feeTotal} + ${c.amount}` }),
  ];
}

/** Money given back outside a cancellation (a coverage premium refunded): a `refund` ledger entry; the booking's money follows its ledger. */
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
    moneyFromLedgerStmt(ctx, b),
  ];
}
