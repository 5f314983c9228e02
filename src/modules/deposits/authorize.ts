import { nowIso } from '../../lib/clock';
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { deposits } from '../../db/schema/bookings';
import { payments, PaymentError, type PaymentIntent } from '../../adapters/payments';
import { intentOfTenant, rentalInTenant } from './queries';
import { getLocationInTenant } from '../locations/service';
import { depositInfoStmt, ledgerMemo } from './statements';
import { depositOut, intentState, statusFromIntent, type DepositRow } from './views';
import { depositErrors } from './errors';
import { collectPayment } from '../payments/service';

/**
 * Simulated card readers (offline payment simulator only). A terminal authorization with one of
 * these reader ids is "tapped" at once with a test card; any other reader id answers 400 in
 * simulator mode. With a real provider the reader collects the card through the terminal SDK
 * (connection token + the intent's client secret) and POST /preAuth/post-deposit records it.
 */
export const SIMULATED_READERS: Record<string, string | null> = {
  tmr_simulated: 'pm_card_visa',
  tmr_simulated_visa: 'pm_card_visa',
  tmr_simulated_declined: 'pm_card_chargeDeclined',
  tmr_simulated_idle: null,
};

/** 402 for a refused card, 400 for anything else the provider refuses. */
function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required') {
      throw new ApiError(
        'payment_failed',
        err.code === 'card_declined'
          ? 'The card was declined; no deposit is held'
          : 'The card needs authentication (3-D Secure); complete it with the client secret, then record the hold with POST /preAuth/post-deposit',
        {
          extra: {
            declineCode: err.code,
            paymentIntentId: err.intent?.id ?? null,
            ...(err.code === 'authentication_required' ? { clientSecret: err.intent?.clientSecret ?? null } : {}),
          },
        },
      );
    }
    throw new ApiError('bad_request', err.message);
  }
  throw err;
}

export interface AuthorizeInput {
  rentalId: string;
  authorizeAmount: number;
  paymentMethodType: 'card' | 'terminal' | 'card_present';
  currency?: string;
  description?: string;
  customer?: string;
  paymentMethodId?: string;
  notes?: string;
  readerId?: string;
  connectedAccountId?: string;
  platformFeePercent?: number;
  customerId?: string;
  locationId?: string;
}

type Rental = Awaited<ReturnType<typeof rentalInTenant>>;

/** A deposit hold being taken: the rental, where and how much (cents), and whether a card reader takes it. */
interface DepositHold {
  customerId: string;
  rental: Rental;
  locationId: string;
  terminal: boolean;
  amount: number;
  currency: string;
  input: AuthorizeInput;
}

/** POST /preAuth/authorize-deposit */
export async function authorizeDeposit(ctx: Ctx, input: AuthorizeInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  const terminal = checkAuthorizeInput(input);
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (rental.status === 'cancelled' || rental.status === 'no_show')
    throw new ApiError('invalid_state', `The rental is ${rental.status}; no deposit can be taken for it`);
  const locationId = input.locationId ? (await getLocationInTenant(ctx, input.locationId)).id : rental.locationId;
  const hold: DepositHold = {
    customerId,
    rental,
    locationId,
    terminal,
    amount: toCents(input.authorizeAmount),
    currency: input.currency ?? rental.currency,
    input,
  };
  const intent = await createHoldIntent(ctx, hold);
  const row = depositRowOf(hold, intent, nowIso(ctx));
  await recordHold(ctx, hold, row, intent);
  return {
    ...depositOut(row),
    provider: intentState(intent),
    clientSecret: terminal ? intent.clientSecret : null,
    nextStep: terminal ? 'When the reader has processed the card, record the hold with POST /preAuth/post-deposit {rentalId, intentId}' : null,
  };
}

/** A card deposit needs `paymentMethodId`, a terminal one `readerId`; answers whether a card reader takes it. */
function checkAuthorizeInput(input: AuthorizeInput): boolean {
  const terminal = input.paymentMethodType !== 'card';
  if (!terminal && !input.paymentMethodId)
    throw new ApiError('validation_failed', 'paymentMethodId is required for card deposits', {
      details: [{ field: 'paymentMethodId', code: 'required', message: 'paymentMethodId is required when paymentMethodType is card' }],
    });
  if (terminal && !input.readerId)
    throw new ApiError('validation_failed', 'readerId is required for terminal deposits', {
      details: [{ field: 'readerId', code: 'required', message: `readerId is required when paymentMethodType is ${input.paymentMethodType}` }],
    });
  return terminal;
}

/**
 * Creates the manual-capture intent (confirmed at once for a card, tapped at once on a simulated
 * reader); a provider refusal is audited as `deposit.authorize_failed` and answered 402/400.
 */
async function createHoldIntent(ctx: Ctx, hold: DepositHold): Promise<PaymentIntent> {
  const { customerId, rental, locationId, terminal, amount, currency, input } = hold;
  const pay = payments(ctx);
  const readerCard = terminal && pay.mode === 'simulator' ? simulatedReader(input.readerId!) : undefined;
  const metadata: Record<string, string> = {
    kind: 'deposit',
    customerId,
    berthCustomerId: customerId,
    rentalId: rental.id,
    transactionId: rental.transactionId,
    locationId,
  };
  if (input.readerId) metadata.readerId = input.readerId;
  if (input.platformFeePercent !== undefined) metadata.platformFeePercent = String(input.platformFeePercent);
  try {
    const intent = await pay.createPaymentIntent({
      amount,
      currency,
      customerId: input.customer ?? null,
      paymentMethodId: terminal ? null : input.paymentMethodId,
      captureMethod: 'manual',
      confirm: !terminal,
      paymentMethodTypes: terminal ? ['card_present'] : undefined,
      description: input.description ?? `Security deposit for rental ${rental.id}`,
      metadata,
    });
    return readerCard ? await pay.confirmPaymentIntent(intent.id, readerCard) : intent;
  } catch (err) {
    if (err instanceof PaymentError) {
      await commit(ctx, [], {
        audit: {
          action: 'deposit.authorize_failed',
          targetType: 'rental',
          targetId: rental.id,
          details: { reason: err.code, paymentIntentId: err.intent?.id ?? null, amount },
        },
      });
    }
    paymentFailure(err);
  }
}

/** The deposit row: a card hold is authorized now; a terminal hold is pending until POST /preAuth/post-deposit records it. */
function depositRowOf({ customerId, rental, locationId, terminal, amount, currency, input }: DepositHold, intent: PaymentIntent, now: string): DepositRow {
  return {
    id: newId('dep'),
    customerId,
    rentalId: rental.id,
    locationId,
    paymentIntentId: intent.id,
    method: terminal ? 'terminal' : 'card',
    readerId: input.readerId ?? null,
    status: terminal ? 'pending' : 'authorized',
    amount,
    capturedAmount: 0,
    currency,
    notes: input.notes ?? null,
    claimType: null,
    releasedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** One batch: the deposit, the rental's deposit info and, for an authorized hold, its ledger memo. */
async function recordHold(ctx: Ctx, { rental, amount, currency, input }: DepositHold, row: DepositRow, intent: PaymentIntent): Promise<void> {
  const stmts: Stmt[] = [ctx.db.insert(deposits).values(row), depositInfoStmt(ctx, rental, row)];
  if (row.status === 'authorized') {
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_hold',
        amount,
        currency,
        paymentIntentId: intent.id,
        description: `Security deposit authorized (${input.paymentMethodType})`,
      }),
    );
  }
  await commit(ctx, stmts, {
    audit: {
      action: 'deposit.authorize',
      targetType: 'rental',
      targetId: rental.id,
      details: { paymentIntentId: intent.id, amount, method: row.method, readerId: row.readerId },
    },
  });
}

function simulatedReader(readerId: string): string | undefined {
  if (!(readerId in SIMULATED_READERS)) {
    throw new ApiError('bad_request', `Unknown card reader "${readerId}". The payment simulator has the readers ${Object.keys(SIMULATED_READERS).join(', ')}`, {
      details: [{ field: 'readerId', code: 'unknown_reader', message: 'no such reader' }],
    });
  }
  return SIMULATED_READERS[readerId] ?? undefined;
}

/** POST /preAuth/post-deposit: records on the rental a hold the card reader has completed. */
export async function postDeposit(
  ctx: Ctx,
  input: { rentalId: string; intentId: string; authorizeAmount?: number; customerId?: string; locationId?: string; notes?: string; connectId?: string },
) {
  ownCustomer(ctx, input.customerId);
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  const pay = payments(ctx);
  const pi = await intentOfTenant(ctx, pay, input.intentId);
  if (pi.metadata?.rentalId && pi.metadata.rentalId !== rental.id)
    throw new ApiError('bad_request', `Payment intent ${pi.id} belongs to rental ${pi.metadata.rentalId}`);
  const existing = await ctx.db.select().from(deposits).where(eq(deposits.paymentIntentId, pi.id)).get();
  if (existing && existing.customerId !== rental.customerId) throw notFound('Payment intent');
  if (existing && existing.rentalId !== rental.id) throw new ApiError('bad_request', `Payment intent ${pi.id} is recorded on rental ${existing.rentalId}`);
  if (pi.status !== 'requires_capture' && pi.status !== 'succeeded') {
    throw depositErrors.fail(
      'payment_not_successful',
      `The payment did not succeed (provider status ${pi.status}${pi.lastError ? `, ${pi.lastError}` : ''}); nothing was recorded`,
      { extra: { providerStatus: pi.status } },
    );
  }
  if (input.authorizeAmount !== undefined && toCents(input.authorizeAmount) !== pi.amount) {
    throw new ApiError('bad_request', `authorizeAmount ${input.authorizeAmount} does not match the intent's amount ${toDollars(pi.amount)}`, {
      details: [{ field: 'authorizeAmount', message: 'does not match the payment intent' }],
    });
  }
  const status = statusFromIntent(pi);
  if (existing && existing.status === status) return { ...depositOut(existing), provider: intentState(pi) };
  const now = nowIso(ctx);
  const row: DepositRow = existing
    ? { ...existing, status, capturedAmount: pi.amountReceived, notes: input.notes ?? existing.notes, updatedAt: now }
    : {
        id: newId('dep'),
        customerId: rental.customerId,
        rentalId: rental.id,
        locationId: input.locationId ?? pi.metadata?.locationId ?? rental.locationId,
        paymentIntentId: pi.id,
        method: 'terminal',
        readerId: pi.metadata?.readerId ?? null,
        status,
        amount: pi.amount,
        capturedAmount: pi.amountReceived,
        currency: pi.currency,
        notes: input.notes ?? null,
        claimType: null,
        releasedAt: null,
        createdAt: now,
        updatedAt: now,
      };
  const stmts: Stmt[] = [
    existing
      ? ctx.db
          .update(deposits)
          .set({ status, capturedAmount: row.capturedAmount, notes: row.notes })
          .where(and(eq(deposits.id, existing.id), eq(deposits.customerId, existing.customerId), eq(deposits.status, existing.status)))
      : ctx.db.insert(deposits).values(row),
    depositInfoStmt(ctx, rental, row),
  ];
  if (!existing || existing.status === 'pending') {
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_hold',
        amount: pi.amount,
        currency: pi.currency,
        paymentIntentId: pi.id,
        description: 'Security deposit authorized (terminal)',
      }),
    );
  }
  if (pi.amountReceived > 0) {
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_capture',
        amount: pi.amountReceived,
        currency: pi.currency,
        paymentIntentId: pi.id,
        description: 'Security deposit captured at the terminal',
      }),
    );
  }
  // A capture made at the terminal is recorded through the payments service (payment.completed in the same batch).
  await collectPayment(
    ctx,
    pi.amountReceived > 0
      ? {
          mode: 'captured',
          method: 'terminal',
          intent: pi,
          customerId: rental.customerId,
          kind: 'deposit_capture',
          data: { rentalId: rental.id, transactionId: rental.transactionId, locationId: row.locationId, claimType: null },
        }
      : null,
    (_paid, commitMoney) =>
      commitMoney(stmts, { audit: { action: 'deposit.post', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: pi.id, status } } }),
  );
  return { ...depositOut(row), provider: intentState(pi) };
}
