import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { bookings, deposits } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import type { PaymentIntent, PaymentsPort } from '../../adapters/payments';
import { insertLedger, memoEntry, scopeOf } from '../bookings/service';

export type DepositRow = typeof deposits.$inferSelect;
export type DepositStatus = DepositRow['status'];
export type BookingRow = typeof bookings.$inferSelect;

export const intentState = (pi: PaymentIntent) => ({
  status: pi.status,
  amount: toDollars(pi.amount),
  amountCapturable: toDollars(pi.amountCapturable),
  amountReceived: toDollars(pi.amountReceived),
  captureMethod: pi.captureMethod,
  lastError: pi.lastError,
});

export function depositOut(d: DepositRow) {
  return {
    depositId: d.id,
    rentalId: d.rentalId,
    locationId: d.locationId ?? null,
    paymentIntentId: d.paymentIntentId,
    method: d.method,
    readerId: d.readerId ?? null,
    status: d.status,
    amount: toDollars(d.amount),
    capturedAmount: toDollars(d.capturedAmount),
    currency: d.currency,
    notes: d.notes ?? null,
    claimType: d.claimType ?? null,
    releasedAt: d.releasedAt ?? null,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

/** The Berth deposit status an intent's provider state corresponds to. */
export function statusFromIntent(pi: PaymentIntent): DepositStatus {
  switch (pi.status) {
    case 'requires_capture':
      return 'authorized';
    case 'succeeded':
      return pi.amountReceived < pi.amount ? 'partially_captured' : 'captured';
    case 'canceled':
      return pi.amountReceived > 0 ? 'partially_captured' : 'released';
    default:
      return 'pending';
  }
}

export async function rentalInTenant(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Rental');
  return row;
}

export async function locationInTenant(ctx: Ctx, locationId: string) {
  const row = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Location');
  return row;
}

export async function depositByIntent(ctx: Ctx, paymentIntentId: string): Promise<DepositRow | undefined> {
  return ctx.db
    .select()
    .from(deposits)
    .where(and(eq(deposits.paymentIntentId, paymentIntentId), eq(deposits.customerId, tenantOf(ctx))))
    .get();
}

export function ledgerMemo(
  ctx: Ctx,
  b: BookingRow,
  d: { entryType: string; amount: number; currency: string; paymentIntentId: string; description: string; metadata?: Record<string, unknown> },
): Stmt {
  // The bookings ledger's memo entry (affectsBalance false), in the deposit's currency and without an asset.
  const [row] = insertLedger(ctx, [
    memoEntry(
      { ...scopeOf(b), assetId: null, currency: d.currency },
      { entryType: d.entryType, amount: d.amount, description: d.description, source: 'deposit', reference: d.paymentIntentId, metadata: d.metadata },
    ),
  ]);
  return row;
}

/**
 * Merges the deposit summary into the rental's `depositInformation` (an atomic JSON merge in the
 * UPDATE). The booking's version is left alone: it belongs to the booking lifecycle's
 * compare-and-swap (status, times, money), which a deposit change does not touch.
 */
export function depositInfoStmt(ctx: Ctx, b: BookingRow, d: DepositRow): Stmt {
  const patch = {
    paymentIntentId: d.paymentIntentId,
    status: d.status,
    amount: toDollars(d.amount),
    capturedAmount: toDollars(d.capturedAmount),
    currency: d.currency,
    method: d.method,
    updatedAt: new Date().toISOString(),
  };
  return ctx.db
    .update(bookings)
    .set({ depositInformation: sql`json_patch(coalesce(${bookings.depositInformation}, '{}'), ${JSON.stringify(patch)})` })
    .where(and(eq(bookings.id, b.id), eq(bookings.customerId, b.customerId)));
}

/** Reads an intent at the provider; 404 when it does not exist or belongs to another operator. */
export async function intentOfTenant(ctx: Ctx, pay: PaymentsPort, paymentIntentId: string): Promise<PaymentIntent> {
  const pi = await pay.getPaymentIntent(paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  // Intents Berth creates name the operator account (`customerId`, and `berthCustomerId` for deposits).
  const owner = pi.metadata?.berthCustomerId ?? pi.metadata?.customerId;
  if (owner && owner !== tenantOf(ctx)) throw notFound('Payment intent');
  return pi;
}

export function paymentCompleted(rental: BookingRow, d: DepositRow, cents: number, claimType: string | null): DomainEvent {
  return {
    type: 'payment.completed',
    customerId: rental.customerId,
    data: {
      kind: 'deposit_capture',
      rentalId: rental.id,
      transactionId: rental.transactionId,
      locationId: d.locationId,
      paymentIntentId: d.paymentIntentId,
      amount: toDollars(cents),
      amountCents: cents,
      currency: d.currency,
      claimType,
    },
  };
}
