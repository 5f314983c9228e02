/**
 * The building blocks of slip money that every path shares (charging.ts for payments on existing
 * reservations, create.ts for a payment collected while a new reservation is written). Every
 * payment goes through the payments service (`collectPayment`): it calls the provider, commits the
 * caller's write with `payment.completed` in the same batch, and refunds a charge it made when that
 * write fails. Here: the request for the service, the statements that record a collected payment
 * on the reservation (payment row, amount paid, ledger entry), and the mapping of provider
 * refusals to API errors.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slipPayments, slipReservations } from '../../db/schema/slip-reservations';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { collectPayment, takePayment, type CollectRequest, type CommitMoney, type Collected, type MoneyMethod, type TakenPayment } from '../payments/service';
import { paymentLedger } from './ledger';
import type { PaymentRow, ReservationRow } from './views';

export type PaymentMethodKind = PaymentRow['method'];

/**
 * How a slip payment is taken: recorded at the desk (cash, check, transfer, a card run elsewhere),
 * a card charged now (a saved card of the renter, or a payment method the client just created), or
 * an intent the provider already completed (a reader payment, the renter's card form).
 */
export type SlipCharge =
  | { kind: 'offline'; method: PaymentMethodKind; amountCents: number; reference?: string | null; note?: string | null }
  | {
      kind: 'card';
      amountCents: number;
      paymentMethodId: string;
      paymentCustomerId?: string | null;
      idempotencyKey?: string;
      note?: string | null;
      /** `terminal`: a card-present payment at a (simulated) reader. */
      method?: 'card' | 'terminal';
      readerId?: string;
    }
  | { kind: 'captured'; method: 'card' | 'terminal'; intent: PaymentIntent; note?: string | null };

/** What the caller's write gets: the payment row and the statements that record it (no event: the payments service adds `payment.completed`). */
export interface SlipPaymentWrite {
  payment: PaymentRow;
  stmts: Stmt[];
}

export function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required')
      throw new ApiError(
        'payment_failed',
        err.code === 'card_declined' ? 'The card was declined; nothing was recorded' : 'The card needs authentication (3-D Secure)',
        {
          extra: {
            declineCode: err.code,
            paymentIntentId: err.intent?.id ?? null,
            ...(err.code === 'authentication_required' ? { clientSecret: err.intent?.clientSecret ?? null } : {}),
          },
        },
      );
    throw new ApiError(err.code === 'invalid_payment_method' ? 'invalid_payment_method' : 'payment_provider_error', err.message);
  }
  throw err;
}

/** Metadata put on provider intents of a reservation (the portal's card form and reader payments are matched back by it). */
export const intentMeta = (r: ReservationRow) => ({ slipReservationId: r.id, reservationNumber: r.reservationNumber, berthCustomerId: r.customerId });

const OFFLINE_METHOD: Record<PaymentMethodKind, MoneyMethod> = {
  card: 'card',
  terminal: 'terminal',
  cash: 'cash',
  check: 'check',
  bank_transfer: 'other',
  other: 'other',
};

function requestOf(r: ReservationRow, paymentId: string, c: SlipCharge): CollectRequest {
  const data = {
    reservationId: r.id,
    reservationNumber: r.reservationNumber,
    locationId: r.locationId,
    renterId: r.renterId,
    paymentId,
    method: c.kind === 'card' ? (c.method ?? 'card') : c.method,
  };
  const base = { customerId: r.customerId, kind: 'slip_payment', data };
  if (c.kind === 'offline')
    return { ...base, mode: 'offline', method: OFFLINE_METHOD[c.method], amount: c.amountCents, currency: r.currency, reference: c.reference ?? null };
  if (c.kind === 'captured') return { ...base, mode: 'captured', method: c.method, intent: c.intent };
  return {
    ...base,
    mode: 'charge',
    method: c.method ?? 'card',
    intent: {
      amount: c.amountCents,
      currency: r.currency,
      customerId: c.paymentCustomerId ?? null,
      paymentMethodId: c.paymentMethodId,
      description: `Slip reservation ${r.reservationNumber}`,
      metadata: { ...intentMeta(r), ...(c.readerId ? { readerId: c.readerId } : {}) },
      ...(c.method === 'terminal' ? { paymentMethodTypes: ['card_present'] } : {}),
      ...(c.idempotencyKey ? { idempotencyKey: c.idempotencyKey } : {}),
    },
  };
}

/** The payment row, the increment of the amount paid and the ledger entry of a collected payment. */
function paymentWrite(
  ctx: Ctx,
  r: ReservationRow,
  id: string,
  c: SlipCharge,
  paid: Collected,
  card: { brand: string; last4: string } | null,
): SlipPaymentWrite {
  const p: PaymentRow = {
    id,
    customerId: r.customerId,
    reservationId: r.id,
    kind: 'payment',
    method: c.kind === 'card' ? (c.method ?? 'card') : c.method,
    amountCents: paid.amount,
    refundedCents: 0,
    currency: r.currency,
    paymentIntentId: paid.intent?.id ?? null,
    providerRefundId: null,
    paymentId: null,
    reference: c.kind === 'offline' ? (c.reference ?? null) : null,
    note: c.note ?? null,
    cardBrand: card?.brand ?? null,
    cardLast4: card?.last4 ?? null,
    recordedBy: ctx.principal.userId ?? ctx.principal.credentialId,
    createdAt: nowIso(ctx),
  };
  return {
    payment: p,
    stmts: [
      ctx.db.insert(slipPayments).values(p),
      ctx.db
        .update(slipReservations)
        .set({ amountPaidCents: sql`${slipReservations.amountPaidCents} + ${paid.amount}` })
        .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId))),
      ...paymentLedger(ctx, r, paid.amount, p.method, p.paymentIntentId ?? p.reference),
    ],
  };
}

/** The card of a payment made with a saved card (brand and last 4 on the payment row), when the provider tells. */
async function cardOf(ctx: Ctx, c: SlipCharge, paid: Collected) {
  const customer = c.kind === 'card' ? c.paymentCustomerId : paid.intent?.customerId;
  const pm = paid.intent?.paymentMethodId;
  if (!customer || !pm) return null;
  const m = (
    await payments(ctx)
      .listPaymentMethods(customer)
      .catch(() => [])
  ).find((x) => x.id === pm);
  return m ? { brand: m.brand, last4: m.last4 } : null;
}

/**
 * Takes a slip payment through the payments service. `record` builds the caller's batch around the
 * payment's statements and commits it with `commitMoney` (once); a refusal of the provider answers
 * 402 `payment_failed`, and a charge whose write fails is refunded by the service.
 */
export async function takeSlipPayment<T>(
  ctx: Ctx,
  r: ReservationRow,
  c: SlipCharge,
  record: (w: SlipPaymentWrite, commitMoney: CommitMoney) => Promise<T>,
): Promise<T> {
  const id = newId('spay');
  try {
    return await collectPayment(ctx, requestOf(r, id, c), async (paid, commitMoney) =>
      record(paymentWrite(ctx, r, id, c, paid!, await cardOf(ctx, c, paid!)), commitMoney),
    );
  } catch (err) {
    paymentFailure(err);
  }
}

/** The payment of a new stay, taken in its sale's charge phase and recorded by its write phase (create.ts). */
export interface HeldSlipPayment {
  /** The payment row and the statements that record it on the reservation, for the sale's batch. */
  paid: SlipPaymentWrite;
  /** Commits the sale's batch with the payment's `payment.completed` (once). */
  record: CommitMoney;
  /** The sale failed before its write: a charge made here is refunded. */
  abandon(): Promise<void>;
}

/**
 * `takeSlipPayment` in two steps, through the payments service's `takePayment`: the money is taken
 * now (a refusal answers 402 `payment_failed`); the sale records it in its one batch or abandons it.
 */
export async function takeStayPayment(ctx: Ctx, r: ReservationRow, c: SlipCharge): Promise<HeldSlipPayment> {
  const id = newId('spay');
  let taken: TakenPayment;
  try {
    taken = await takePayment(ctx, requestOf(r, id, c));
  } catch (err) {
    paymentFailure(err);
  }
  try {
    const paid = paymentWrite(ctx, r, id, c, taken.paid!, await cardOf(ctx, c, taken.paid!));
    return { paid, record: taken.commitMoney, abandon: () => taken.undo() };
  } catch (err) {
    await taken.undo(err);
    throw err;
  }
}
