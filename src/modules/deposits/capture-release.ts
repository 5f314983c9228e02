import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { deposits, renters } from '../../db/schema/bookings';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { emailStmt } from '../../adapters/messages';
import { collectPayment } from '../payments/service';
import { renterOf } from '../schedule/service';
import { depositByIntent, rentalInTenant } from './queries';
import { getLocationInTenant } from '../locations/service';
import { depositInfoStmt, ledgerMemo } from './statements';
import { depositOut, intentState, type BookingRow, type DepositRow, type DepositStatus } from './views';
import { depositErrors } from './errors';

async function depositForRental(ctx: Ctx, rental: BookingRow, paymentIntentId: string): Promise<DepositRow> {
  const d = await depositByIntent(ctx, paymentIntentId);
  if (!d)
    throw new ApiError(
      'not_found',
      `No deposit pre-authorization with payment intent ${paymentIntentId}; if the provider has it, record it with POST /preAuth/sync-missing-preauth/${paymentIntentId}`,
    );
  if (d.rentalId !== rental.id) throw new ApiError('bad_request', `Payment intent ${paymentIntentId} is the deposit of rental ${d.rentalId}, not ${rental.id}`);
  return d;
}

/** POST /preAuth/capture-deposit: captures all or part (dollars) of an authorized hold; the rest is released. */
export async function captureDeposit(
  ctx: Ctx,
  input: {
    rentalId: string;
    paymentIntentId: string;
    captureAmount: number;
    connectedAccountId?: string;
    description?: string;
    claimType?: string;
    feeInCents?: number;
    locationId?: string;
  },
) {
  requirePermission(ctx, 'payments');
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  const d = await depositForRental(ctx, rental, input.paymentIntentId);
  const notCapturable = (why: string) => depositErrors.fail('not_capturable', `The deposit cannot be captured: ${why}`, { extra: { depositStatus: d.status } });
  if (d.status !== 'authorized') throw notCapturable(`it is ${d.status}`);
  const pay = payments(ctx);
  const pi = await pay.getPaymentIntent(d.paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  if (pi.status !== 'requires_capture') throw notCapturable(`the provider reports it ${pi.status}`);
  const cents = toCents(input.captureAmount);
  if (cents > pi.amountCapturable) throw notCapturable(`${input.captureAmount} is more than the ${toDollars(pi.amountCapturable)} held`);
  if (input.feeInCents !== undefined && input.feeInCents > cents)
    throw new ApiError('bad_request', 'feeInCents cannot exceed the captured amount', { details: [{ field: 'feeInCents', message: 'exceeds the capture' }] });
  const status: DepositStatus = cents >= d.amount ? 'captured' : 'partially_captured';
  const row: DepositRow = {
    ...d,
    status,
    capturedAmount: cents,
    claimType: input.claimType ?? d.claimType,
    notes: input.description ?? d.notes,
    updatedAt: nowIso(ctx),
  };
  const stmts: Stmt[] = [
    ctx.db
      .update(deposits)
      .set({ status, capturedAmount: cents, claimType: row.claimType, notes: row.notes })
      .where(and(eq(deposits.id, d.id), eq(deposits.customerId, d.customerId), eq(deposits.status, 'authorized'))),
    depositInfoStmt(ctx, rental, row),
    ledgerMemo(ctx, rental, {
      entryType: 'deposit_capture',
      amount: cents,
      currency: d.currency,
      paymentIntentId: d.paymentIntentId,
      description: input.description ?? `Security deposit captured${input.claimType ? ` (${input.claimType})` : ''}`,
      metadata: { claimType: input.claimType ?? null, feeInCents: input.feeInCents ?? 0 },
    }),
  ];
  if (cents < d.amount) {
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_release',
        amount: -(d.amount - cents),
        currency: d.currency,
        paymentIntentId: d.paymentIntentId,
        description: 'Uncaptured rest of the security deposit released',
      }),
    );
  }
  // The capture and its ledger write go through the payments service (payment.completed in the same batch).
  let captured: PaymentIntent | null = null;
  try {
    await collectPayment(
      ctx,
      {
        mode: 'capture',
        customerId: rental.customerId,
        kind: 'deposit_capture',
        paymentIntentId: pi.id,
        amount: cents,
        data: { rentalId: rental.id, transactionId: rental.transactionId, locationId: d.locationId, claimType: input.claimType ?? null },
      },
      async (paid, commitMoney) => {
        captured = paid?.intent ?? null;
        await commitMoney(stmts, {
          audit: {
            action: 'deposit.capture',
            targetType: 'rental',
            targetId: rental.id,
            details: { paymentIntentId: d.paymentIntentId, amount: cents, claimType: input.claimType ?? null, feeInCents: input.feeInCents ?? 0 },
          },
        });
      },
    );
  } catch (err) {
    if (err instanceof PaymentError) throw notCapturable(err.message);
    throw err;
  }
  return { ...depositOut(row), provider: intentState(captured!), releasedAmount: toDollars(d.amount - cents), feeInCents: input.feeInCents ?? 0 };
}

/** POST /preAuth/release-deposit: cancels the hold; e-mails the renter when customerId and locationId are given. */
export async function releaseDeposit(
  ctx: Ctx,
  input: { rentalId: string; paymentIntentId: string; amount?: number; customerId?: string; locationId?: string; connectedAccountId?: string },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  const rental = await rentalInTenant(ctx, input.rentalId);
  const location = input.locationId ? await getLocationInTenant(ctx, input.locationId) : undefined;
  const d = await depositForRental(ctx, rental, input.paymentIntentId);
  if (d.status !== 'authorized' && d.status !== 'pending') {
    throw depositErrors.fail(
      'not_releasable',
      d.status === 'released' ? 'The deposit was already released' : `The deposit is ${d.status}; a captured amount is returned with a refund`,
      { extra: { depositStatus: d.status } },
    );
  }
  if (input.amount !== undefined && toCents(input.amount) !== d.amount) {
    throw new ApiError(
      'bad_request',
      `A hold is released whole: amount ${input.amount} does not match the ${toDollars(d.amount)} held (capture part of it instead to keep some)`,
      { details: [{ field: 'amount', message: 'must equal the held amount' }] },
    );
  }
  const pay = payments(ctx);
  let pi = await pay.getPaymentIntent(d.paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  if (pi.status === 'succeeded')
    throw depositErrors.fail('not_releasable', 'The provider reports this deposit captured; sync it with GET /preAuth/audit-preauths');
  if (pi.status !== 'canceled') {
    try {
      pi = await pay.cancelPaymentIntent(pi.id);
    } catch (err) {
      if (err instanceof PaymentError) throw depositErrors.fail('not_releasable', err.message);
      throw err;
    }
  }
  const now = nowIso(ctx);
  const row: DepositRow = { ...d, status: 'released', releasedAt: now, updatedAt: now };
  const stmts: Stmt[] = [
    ctx.db
      .update(deposits)
      .set({ status: 'released', releasedAt: now })
      .where(and(eq(deposits.id, d.id), eq(deposits.customerId, d.customerId), eq(deposits.status, d.status))),
    depositInfoStmt(ctx, rental, row),
  ];
  if (d.status === 'authorized')
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_release',
        amount: -d.amount,
        currency: d.currency,
        paymentIntentId: d.paymentIntentId,
        description: 'Security deposit released',
      }),
    );
  let notifiedTo: string | null = null;
  if (input.customerId && location) {
    const r = rental.renterId
      ? await ctx.db
          .select()
          .from(renters)
          .where(and(eq(renters.id, rental.renterId), eq(renters.customerId, customerId)))
          .get()
      : undefined;
    const who = renterOf(rental, r ?? null);
    if (who.email) {
      notifiedTo = who.email;
      const amount = `${toDollars(d.amount).toFixed(2)} ${d.currency.toUpperCase()}`;
      stmts.push(
        emailStmt(ctx, {
          to: who.email,
          subject: `Your security deposit at ${location.name} was released`,
          body: `Hello${who.firstName ? ` ${who.firstName}` : ''},\n\nThe security deposit hold of ${amount} for your rental ${rental.id} at ${location.name} has been released. Depending on your bank it can take a few days to disappear from your statement.\n\n${location.name}\n${location.phoneNumber}`,
          template: 'deposit.released',
          metadata: { rentalId: rental.id, paymentIntentId: d.paymentIntentId, locationId: location.id },
        }).stmt,
      );
    }
  }
  await commit(ctx, stmts, {
    audit: {
      action: 'deposit.release',
      targetType: 'rental',
      targetId: rental.id,
      details: { paymentIntentId: d.paymentIntentId, amount: d.amount, notified: notifiedTo !== null },
    },
  });
  return { ...depositOut(row), provider: intentState(pi), notified: notifiedTo !== null, notifiedTo };
}
