/**
 * The payments module's face. Other modules use it for:
 * - taking money and recording it (every sales path): collectPayment, takePayment, CollectRequest, TakenPayment, CommitMoney, Collected, MoneyMethod.
 * - giving money back (cancellations and refunds): refundPayment, Refunded.
 * - refusing a payment in another currency (POS): requireSameCurrency.
 *
 * The payments service: the one way money moves in Berth. Every capture and every refund, whether
 * through the payment provider (card, terminal) or recorded at the counter (cash, account), goes
 * through `collectPayment` or `refundPayment`. The caller gives a `record` callback that builds its
 * ledger write and commits it with the `commitMoney` it is handed; `commitMoney` adds the
 * `payment.completed` / `payment.refunded` event to that same D1 batch, so the event exists exactly
 * when the ledger entry does and no path can forget it.
 *
 * If the caller's write fails after the provider took the money, the charge is refunded (a charge
 * made here) and the error rethrown; a refund made at the provider whose write failed still commits
 * its event with an audit row, so the operator hears about every refund.
 */
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { commit, type CommitOptions, type DomainEvent } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { toDollars } from '../../lib/money';
import { purgeIdempotencyKeys } from '../../lib/idempotency';
import { payments, PaymentError, type CreateIntentInput, type PaymentIntent, type PaymentRegion } from '../../adapters/payments';
import type { Collected, MoneyMethod, Refunded } from './types';

export type { Collected, MoneyMethod, Refunded } from './types';

/** Commits the caller's ledger write with the payment's event (once). */
export interface CommitMoney {
  (statements: Stmt[], meta?: CommitOptions): Promise<void>;
  /** The money's ledger write and event exist already (a racing path wrote them): nothing to write, nothing to undo. */
  alreadyRecorded(): void;
}

function moneyCommitter(ctx: Ctx, event: DomainEvent, what: string): { commitMoney: CommitMoney; recorded: () => boolean } {
  let recorded = false;
  const fn = async (statements: Stmt[], meta?: CommitOptions) => {
    if (recorded) throw new Error(`commitMoney called twice for one ${what}`);
    await commit(ctx, statements, { ...meta, events: [event, ...(meta?.events ?? [])] });
    recorded = true;
  };
  return { commitMoney: Object.assign(fn, { alreadyRecorded: () => void (recorded = true) }), recorded: () => recorded };
}

interface MoneyBase {
  /** The operator the money belongs to (owner of the event). */
  customerId: string;
  /** What the money is for: `booking`, `installment`, `pos_sale`, `gift_card`, `protection_plan`, `deposit_capture`, ... */
  kind: string;
  /** Fields added to the event's `data` (ids of the sale, booking, card, ...). */
  data?: Record<string, unknown>;
  region?: PaymentRegion;
}

export type CollectRequest = MoneyBase &
  (
    | { mode: 'charge'; method?: 'card' | 'terminal'; intent: CreateIntentInput }
    /** `currency`: what the caller records the money in; an intent in another currency is refused (400 `currency_mismatch`), nothing recorded. */
    | { mode: 'capture'; paymentIntentId: string; amount?: number; currency?: string }
    | { mode: 'captured'; method?: 'card' | 'terminal'; intent: PaymentIntent; currency?: string }
    | { mode: 'offline'; method: MoneyMethod; amount: number; currency: string; reference?: string | null }
  );

export type RefundRequest = MoneyBase &
  (
    | { mode: 'provider'; paymentIntentId: string; amount: number; currency: string; reason?: string }
    | { mode: 'offline'; method: MoneyMethod; amount: number; currency: string }
  );

const log = (ctx: Ctx, msg: string, fields: Record<string, unknown>) => ctx.log.error(msg, fields);

/** 400 `currency_mismatch` when a payment was made in another currency than the one it is recorded in. */
export function requireSameCurrency(intent: Pick<PaymentIntent, 'id' | 'currency'>, currency: string): void {
  const paid = intent.currency.toLowerCase();
  const wanted = currency.toLowerCase();
  if (paid === wanted) return;
  const message = `Payment ${intent.id} was made in ${paid.toUpperCase()}, not ${wanted.toUpperCase()}`;
  throw new ApiError('currency_mismatch', message, { details: [{ field: 'paymentIntentId', message }], extra: { currency: paid, requestedCurrency: wanted } });
}

/**
 * Takes a payment and records it. `record` receives the collected payment and must commit its
 * ledger write with `commitMoney` (once). With `req` null nothing is charged and `commitMoney` is a
 * plain commit (a booking paid later, for example).
 */
export async function collectPayment<T>(
  ctx: Ctx,
  req: CollectRequest | null,
  record: (paid: Collected | null, commitMoney: CommitMoney) => Promise<T>,
): Promise<T> {
  const taken = await takePayment(ctx, req);
  try {
    const out = await record(taken.paid, taken.commitMoney);
    if (req && !taken.recorded()) throw new Error(`payment ${taken.paid?.reference ?? req.kind} was taken but not recorded`);
    return out;
  } catch (err) {
    await taken.undo(err);
    throw err;
  }
}

/** A payment taken, to be recorded with `commitMoney` (once); `undo` gives it back when it never was. */
export interface TakenPayment {
  paid: Collected | null;
  commitMoney: CommitMoney;
  recorded(): boolean;
  /** Refunds a charge made here whose write did not happen (logs a captured one); nothing once recorded. */
  undo(err?: unknown): Promise<void>;
}

/**
 * The first half of `collectPayment`, for callers that take the money in one step and write in a
 * later one (the sale pipeline's charge and write phases): the caller must commit with
 * `commitMoney` or call `undo`.
 */
export async function takePayment(ctx: Ctx, req: CollectRequest | null): Promise<TakenPayment> {
  if (!req) {
    const plain = async (statements: Stmt[], meta?: CommitOptions) => void (await commit(ctx, statements, meta ?? {}));
    return { paid: null, commitMoney: Object.assign(plain, { alreadyRecorded: () => undefined }), recorded: () => true, undo: async () => {} };
  }
  const { paid, madeHere } = await collected(ctx, req);
  const event: DomainEvent = {
    type: 'payment.completed',
    customerId: req.customerId,
    data: {
      kind: req.kind,
      method: paid.method,
      paymentIntentId: paid.intent?.id ?? null,
      reference: paid.reference,
      amount: toDollars(paid.amount),
      amountCents: paid.amount,
      currency: paid.currency,
      ...(req.data ?? {}),
    },
  };
  const { commitMoney, recorded } = moneyCommitter(ctx, event, 'payment');
  const undo = async (err?: unknown) => {
    if (recorded() || !paid.intent) return;
    if (madeHere) {
      await payments(ctx, req.region)
        .refund(paid.intent.id, undefined, 'not_recorded')
        .catch((e) => log(ctx, 'compensating refund failed', { paymentIntentId: paid.intent?.id, error: String(e) }));
    } else {
      log(ctx, 'captured payment not recorded', { paymentIntentId: paid.intent.id, kind: req.kind, error: String(err) });
    }
  };
  return { paid, commitMoney, recorded, undo };
}

/** The money of a request: charged, captured, given as captured, or recorded offline. */
async function collected(ctx: Ctx, req: CollectRequest): Promise<{ paid: Collected; madeHere: boolean }> {
  const pay = payments(ctx, req.region);
  if (req.mode === 'charge') {
    const intent = await pay.createPaymentIntent({ captureMethod: 'automatic', confirm: true, ...req.intent });
    if (intent.status !== 'succeeded') throw new PaymentError('card_declined', 'The payment did not complete', intent);
    return {
      madeHere: true,
      paid: { intent, amount: intent.amountReceived || intent.amount, currency: intent.currency, method: req.method ?? 'card', reference: intent.id },
    };
  }
  if (req.mode === 'capture') {
    if (req.currency) {
      // Checked before the capture: money in another currency is never taken for this amount.
      const held = await pay.getPaymentIntent(req.paymentIntentId);
      if (held) requireSameCurrency(held, req.currency);
    }
    const intent = await pay.capturePaymentIntent(req.paymentIntentId, req.amount);
    return { madeHere: false, paid: { intent, amount: req.amount ?? intent.amountReceived, currency: intent.currency, method: 'card', reference: intent.id } };
  }
  if (req.mode === 'captured') {
    if (req.intent.status !== 'succeeded' && req.intent.status !== 'requires_capture')
      throw new PaymentError('provider_error', `The payment is ${req.intent.status}, not completed`, req.intent);
    if (req.currency) requireSameCurrency(req.intent, req.currency);
    const i = req.intent;
    return { madeHere: false, paid: { intent: i, amount: i.amountReceived || i.amount, currency: i.currency, method: req.method ?? 'card', reference: i.id } };
  }
  return { madeHere: false, paid: { intent: null, amount: req.amount, currency: req.currency, method: req.method, reference: req.reference ?? null } };
}

/** Gives money back and records it; `record` must commit the refund's ledger write with `commitMoney`. */
export async function refundPayment<T>(ctx: Ctx, req: RefundRequest, record: (refund: Refunded, commitMoney: CommitMoney) => Promise<T>): Promise<T> {
  let refund: Refunded;
  if (req.mode === 'provider') {
    const r = await payments(ctx, req.region).refund(req.paymentIntentId, req.amount, req.reason);
    refund = { refundId: r.id, amount: r.amount, currency: req.currency, method: 'card', paymentIntentId: req.paymentIntentId };
  } else {
    refund = { refundId: null, amount: req.amount, currency: req.currency, method: req.method, paymentIntentId: null };
  }
  const event: DomainEvent = {
    type: 'payment.refunded',
    customerId: req.customerId,
    data: {
      kind: req.kind,
      method: refund.method,
      paymentIntentId: refund.paymentIntentId,
      refundId: refund.refundId,
      amount: toDollars(refund.amount),
      amountCents: refund.amount,
      currency: refund.currency,
      ...(req.data ?? {}),
    },
  };
  const { commitMoney, recorded } = moneyCommitter(ctx, event, 'refund');
  try {
    const out = await record(refund, commitMoney);
    if (!recorded()) throw new Error(`refund ${refund.refundId ?? req.kind} was made but not recorded`);
    return out;
  } catch (err) {
    if (!recorded() && req.mode === 'provider') {
      // The money went back: the operator still gets the event, with an audit row saying the write failed.
      log(ctx, 'refund not recorded in the ledger', { refundId: refund.refundId, kind: req.kind, error: String(err) });
      await commit(ctx, [], {
        audit: {
          action: 'payment.refund_unrecorded',
          targetType: 'payment',
          targetId: refund.paymentIntentId,
          customerId: req.customerId,
          details: { refundId: refund.refundId, amount: refund.amount, kind: req.kind, error: String(err) },
        },
        events: [event],
      }).catch((e) => log(ctx, 'refund event not written', { refundId: refund.refundId, error: String(e) }));
    }
    throw err;
  }
}

/** Cron: drops expired Idempotency-Key records (kept 24 hours). */
/** Cron (platform housekeeping): purges the Idempotency-Key records expired at the context's clock. */
export const purgeExpiredIdempotencyKeys = (ctx: Ctx) => purgeIdempotencyKeys(ctx.db, ctx.clock.now());
