import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { bookings, deposits, ledgerEntries, renters } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { payments, PaymentError, type PaymentIntent, type PaymentsPort } from '../../adapters/payments';
import { emailStmt } from '../../adapters/messages';
import { renterOf } from '../schedule/service';

type DepositRow = typeof deposits.$inferSelect;
type DepositStatus = DepositRow['status'];
type BookingRow = typeof bookings.$inferSelect;

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

const intentState = (pi: PaymentIntent) => ({
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

async function rentalInTenant(ctx: Ctx, rentalId: string): Promise<BookingRow> {
  const row = await ctx.db.select().from(bookings).where(and(eq(bookings.id, rentalId), eq(bookings.customerId, tenantOf(ctx)))).get();
  if (!row) throw notFound('Rental');
  return row;
}

async function locationInTenant(ctx: Ctx, locationId: string) {
  const row = await ctx.db.select().from(locations).where(and(eq(locations.id, locationId), eq(locations.customerId, tenantOf(ctx)))).get();
  if (!row) throw notFound('Location');
  return row;
}

async function depositByIntent(ctx: Ctx, paymentIntentId: string): Promise<DepositRow | undefined> {
  return ctx.db.select().from(deposits).where(and(eq(deposits.paymentIntentId, paymentIntentId), eq(deposits.customerId, tenantOf(ctx)))).get();
}

/** 402 for a refused card, 400 for anything else the provider refuses. */
function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) {
    if (err.code === 'card_declined' || err.code === 'authentication_required') {
      throw new ApiError('payment_failed', err.code === 'card_declined' ? 'The card was declined; no deposit is held' : 'The card needs authentication (3-D Secure); complete it with the client secret, then record the hold with POST /preAuth/post-deposit', {
        extra: {
          declineCode: err.code,
          paymentIntentId: err.intent?.id ?? null,
          ...(err.code === 'authentication_required' ? { clientSecret: err.intent?.clientSecret ?? null } : {}),
        },
      });
    }
    throw new ApiError('bad_request', err.message);
  }
  throw err;
}

function ledgerMemo(ctx: Ctx, b: BookingRow, d: { entryType: string; amount: number; currency: string; paymentIntentId: string; description: string; metadata?: Record<string, unknown> }): Stmt {
  return ctx.db.insert(ledgerEntries).values({
    id: newId('led'),
    customerId: b.customerId,
    locationId: b.locationId,
    renterId: b.renterId,
    transactionId: b.transactionId,
    rentalId: b.id,
    itemId: b.itemId,
    entryType: d.entryType,
    amount: d.amount,
    currency: d.currency,
    affectsBalance: false,
    occurredAt: new Date().toISOString(),
    description: d.description,
    source: 'deposit',
    reference: d.paymentIntentId,
    metadata: d.metadata ?? null,
  });
}

/**
 * Merges the deposit summary into the rental's `depositInformation` (an atomic JSON merge in the
 * UPDATE). The booking's version is left alone: it belongs to the booking lifecycle's
 * compare-and-swap (status, times, money), which a deposit change does not touch.
 */
function depositInfoStmt(ctx: Ctx, b: BookingRow, d: DepositRow): Stmt {
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

/** POST /preAuth/authorize-deposit */
export async function authorizeDeposit(ctx: Ctx, input: AuthorizeInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  const terminal = input.paymentMethodType !== 'card';
  if (!terminal && !input.paymentMethodId) throw new ApiError('validation_failed', 'paymentMethodId is required for card deposits', { details: [{ field: 'paymentMethodId', code: 'required', message: 'paymentMethodId is required when paymentMethodType is card' }] });
  if (terminal && !input.readerId) throw new ApiError('validation_failed', 'readerId is required for terminal deposits', { details: [{ field: 'readerId', code: 'required', message: `readerId is required when paymentMethodType is ${input.paymentMethodType}` }] });
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (rental.status === 'cancelled' || rental.status === 'no_show') throw new ApiError('invalid_state', `The rental is ${rental.status}; no deposit can be taken for it`);
  const locationId = input.locationId ? (await locationInTenant(ctx, input.locationId)).id : rental.locationId;
  const pay = payments(ctx.env);
  const readerCard = terminal && pay.mode === 'simulator' ? simulatedReader(input.readerId!) : undefined;
  const amount = toCents(input.authorizeAmount);
  const currency = input.currency ?? rental.currency;
  const metadata: Record<string, string> = { kind: 'deposit', customerId, berthCustomerId: customerId, rentalId: rental.id, transactionId: rental.transactionId, locationId };
  if (input.readerId) metadata.readerId = input.readerId;
  if (input.platformFeePercent !== undefined) metadata.platformFeePercent = String(input.platformFeePercent);

  let intent: PaymentIntent;
  try {
    intent = await pay.createPaymentIntent({
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
    if (readerCard) intent = await pay.confirmPaymentIntent(intent.id, readerCard);
  } catch (err) {
    if (err instanceof PaymentError) {
      await commit(ctx, [], { audit: { action: 'deposit.authorize_failed', targetType: 'rental', targetId: rental.id, details: { reason: err.code, paymentIntentId: err.intent?.id ?? null, amount } } });
    }
    paymentFailure(err);
  }
  const now = new Date().toISOString();
  const row: DepositRow = {
    id: newId('dep'),
    customerId,
    rentalId: rental.id,
    locationId,
    paymentIntentId: intent.id,
    method: terminal ? 'terminal' : 'card',
    readerId: input.readerId ?? null,
    // A card hold is authorized now; a terminal hold is recorded by POST /preAuth/post-deposit.
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
  const stmts: Stmt[] = [ctx.db.insert(deposits).values(row), depositInfoStmt(ctx, rental, row)];
  if (row.status === 'authorized') {
    stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_hold', amount, currency, paymentIntentId: intent.id, description: `Security deposit authorized (${input.paymentMethodType})` }));
  }
  await commit(ctx, stmts, { audit: { action: 'deposit.authorize', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: intent.id, amount, method: row.method, readerId: row.readerId } } });
  return {
    ...depositOut(row),
    provider: intentState(intent),
    clientSecret: terminal ? intent.clientSecret : null,
    nextStep: terminal ? 'When the reader has processed the card, record the hold with POST /preAuth/post-deposit {rentalId, intentId}' : null,
  };
}

function simulatedReader(readerId: string): string | undefined {
  if (!(readerId in SIMULATED_READERS)) {
    throw new ApiError('bad_request', `Unknown card reader "${readerId}". The payment simulator has the readers ${Object.keys(SIMULATED_READERS).join(', ')}`, { details: [{ field: 'readerId', code: 'unknown_reader', message: 'no such reader' }] });
  }
  return SIMULATED_READERS[readerId] ?? undefined;
}

/** Reads an intent at the provider; 404 when it does not exist or belongs to another operator. */
async function intentOfTenant(ctx: Ctx, pay: PaymentsPort, paymentIntentId: string): Promise<PaymentIntent> {
  const pi = await pay.getPaymentIntent(paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  // Intents Berth creates name the operator account (`customerId`, and `berthCustomerId` for deposits).
  const owner = pi.metadata?.berthCustomerId ?? pi.metadata?.customerId;
  if (owner && owner !== tenantOf(ctx)) throw notFound('Payment intent');
  return pi;
}

/** POST /preAuth/post-deposit: records on the rental a hold the card reader has completed. */
export async function postDeposit(ctx: Ctx, input: { rentalId: string; intentId: string; authorizeAmount?: number; customerId?: string; locationId?: string; notes?: string; connectId?: string }) {
  ownCustomer(ctx, input.customerId);
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (input.locationId) await locationInTenant(ctx, input.locationId);
  const pay = payments(ctx.env);
  const pi = await intentOfTenant(ctx, pay, input.intentId);
  if (pi.metadata?.rentalId && pi.metadata.rentalId !== rental.id) throw new ApiError('bad_request', `Payment intent ${pi.id} belongs to rental ${pi.metadata.rentalId}`);
  const existing = await ctx.db.select().from(deposits).where(eq(deposits.paymentIntentId, pi.id)).get();
  if (existing && existing.customerId !== rental.customerId) throw notFound('Payment intent');
  if (existing && existing.rentalId !== rental.id) throw new ApiError('bad_request', `Payment intent ${pi.id} is recorded on rental ${existing.rentalId}`);
  if (pi.status !== 'requires_capture' && pi.status !== 'succeeded') {
    throw new ApiError('payment_not_successful', `The payment did not succeed (provider status ${pi.status}${pi.lastError ? `, ${pi.lastError}` : ''}); nothing was recorded`, { status: 400, extra: { providerStatus: pi.status } });
  }
  if (input.authorizeAmount !== undefined && toCents(input.authorizeAmount) !== pi.amount) {
    throw new ApiError('bad_request', `authorizeAmount ${input.authorizeAmount} does not match the intent's amount ${toDollars(pi.amount)}`, { details: [{ field: 'authorizeAmount', message: 'does not match the payment intent' }] });
  }
  const status = statusFromIntent(pi);
  if (existing && existing.status === status) return { ...depositOut(existing), provider: intentState(pi) };
  const now = new Date().toISOString();
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
      ? ctx.db.update(deposits).set({ status, capturedAmount: row.capturedAmount, notes: row.notes }).where(and(eq(deposits.id, existing.id), eq(deposits.customerId, existing.customerId), eq(deposits.status, existing.status)))
      : ctx.db.insert(deposits).values(row),
    depositInfoStmt(ctx, rental, row),
  ];
  if (!existing || existing.status === 'pending') {
    stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_hold', amount: pi.amount, currency: pi.currency, paymentIntentId: pi.id, description: 'Security deposit authorized (terminal)' }));
  }
  const events: DomainEvent[] = [];
  if (pi.amountReceived > 0) {
    stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_capture', amount: pi.amountReceived, currency: pi.currency, paymentIntentId: pi.id, description: 'Security deposit captured at the terminal' }));
    events.push(paymentCompleted(rental, row, pi.amountReceived, null));
  }
  await commit(ctx, stmts, { audit: { action: 'deposit.post', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: pi.id, status } }, events });
  return { ...depositOut(row), provider: intentState(pi) };
}

function paymentCompleted(rental: BookingRow, d: DepositRow, cents: number, claimType: string | null): DomainEvent {
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

async function depositForRental(ctx: Ctx, rental: BookingRow, paymentIntentId: string): Promise<DepositRow> {
  const d = await depositByIntent(ctx, paymentIntentId);
  if (!d) throw new ApiError('not_found', `No deposit pre-authorization with payment intent ${paymentIntentId}; if the provider has it, record it with POST /preAuth/sync-missing-preauth/${paymentIntentId}`);
  if (d.rentalId !== rental.id) throw new ApiError('bad_request', `Payment intent ${paymentIntentId} is the deposit of rental ${d.rentalId}, not ${rental.id}`);
  return d;
}

/** POST /preAuth/capture-deposit: captures all or part (dollars) of an authorized hold; the rest is released. */
export async function captureDeposit(ctx: Ctx, input: { rentalId: string; paymentIntentId: string; captureAmount: number; connectedAccountId?: string; description?: string; claimType?: string; feeInCents?: number; locationId?: string }) {
  requirePermission(ctx, 'payments');
  const rental = await rentalInTenant(ctx, input.rentalId);
  if (input.locationId) await locationInTenant(ctx, input.locationId);
  const d = await depositForRental(ctx, rental, input.paymentIntentId);
  const notCapturable = (why: string) => new ApiError('not_capturable', `The deposit cannot be captured: ${why}`, { status: 400, extra: { depositStatus: d.status } });
  if (d.status !== 'authorized') throw notCapturable(`it is ${d.status}`);
  const pay = payments(ctx.env);
  const pi = await pay.getPaymentIntent(d.paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  if (pi.status !== 'requires_capture') throw notCapturable(`the provider reports it ${pi.status}`);
  const cents = toCents(input.captureAmount);
  if (cents > pi.amountCapturable) throw notCapturable(`${input.captureAmount} is more than the ${toDollars(pi.amountCapturable)} held`);
  if (input.feeInCents !== undefined && input.feeInCents > cents) throw new ApiError('bad_request', 'feeInCents cannot exceed the captured amount', { details: [{ field: 'feeInCents', message: 'exceeds the capture' }] });
  let captured: PaymentIntent;
  try {
    captured = await pay.capturePaymentIntent(pi.id, cents);
  } catch (err) {
    if (err instanceof PaymentError) throw notCapturable(err.message);
    throw err;
  }
  const status: DepositStatus = cents >= d.amount ? 'captured' : 'partially_captured';
  const row: DepositRow = { ...d, status, capturedAmount: cents, claimType: input.claimType ?? d.claimType, notes: input.description ?? d.notes, updatedAt: new Date().toISOString() };
  const stmts: Stmt[] = [
    ctx.db
      .update(deposits)
      .set({ status, capturedAmount: cents, claimType: row.claimType, notes: row.notes })
      .where(and(eq(deposits.id, d.id), eq(deposits.customerId, d.customerId), eq(deposits.status, 'authorized'))),
    depositInfoStmt(ctx, rental, row),
    ledgerMemo(ctx, rental, { entryType: 'deposit_capture', amount: cents, currency: d.currency, paymentIntentId: d.paymentIntentId, description: input.description ?? `Security deposit captured${input.claimType ? ` (${input.claimType})` : ''}`, metadata: { claimType: input.claimType ?? null, feeInCents: input.feeInCents ?? 0 } }),
  ];
  if (cents < d.amount) {
    stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_release', amount: -(d.amount - cents), currency: d.currency, paymentIntentId: d.paymentIntentId, description: 'Uncaptured rest of the security deposit released' }));
  }
  await commit(ctx, stmts, {
    audit: { action: 'deposit.capture', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: d.paymentIntentId, amount: cents, claimType: input.claimType ?? null, feeInCents: input.feeInCents ?? 0 } },
    events: [paymentCompleted(rental, row, cents, input.claimType ?? null)],
  });
  return { ...depositOut(row), provider: intentState(captured), releasedAmount: toDollars(d.amount - cents), feeInCents: input.feeInCents ?? 0 };
}

/** POST /preAuth/release-deposit: cancels the hold; e-mails the renter when customerId and locationId are given. */
export async function releaseDeposit(ctx: Ctx, input: { rentalId: string; paymentIntentId: string; amount?: number; customerId?: string; locationId?: string; connectedAccountId?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  const rental = await rentalInTenant(ctx, input.rentalId);
  const location = input.locationId ? await locationInTenant(ctx, input.locationId) : undefined;
  const d = await depositForRental(ctx, rental, input.paymentIntentId);
  if (d.status !== 'authorized' && d.status !== 'pending') {
    throw new ApiError('not_releasable', d.status === 'released' ? 'The deposit was already released' : `The deposit is ${d.status}; a captured amount is returned with a refund`, { status: 400, extra: { depositStatus: d.status } });
  }
  if (input.amount !== undefined && toCents(input.amount) !== d.amount) {
    throw new ApiError('bad_request', `A hold is released whole: amount ${input.amount} does not match the ${toDollars(d.amount)} held (capture part of it instead to keep some)`, { details: [{ field: 'amount', message: 'must equal the held amount' }] });
  }
  const pay = payments(ctx.env);
  let pi = await pay.getPaymentIntent(d.paymentIntentId);
  if (!pi) throw notFound('Payment intent');
  if (pi.status === 'succeeded') throw new ApiError('not_releasable', 'The provider reports this deposit captured; sync it with GET /preAuth/audit-preauths', { status: 400 });
  if (pi.status !== 'canceled') {
    try {
      pi = await pay.cancelPaymentIntent(pi.id);
    } catch (err) {
      if (err instanceof PaymentError) throw new ApiError('not_releasable', err.message, { status: 400 });
      throw err;
    }
  }
  const now = new Date().toISOString();
  const row: DepositRow = { ...d, status: 'released', releasedAt: now, updatedAt: now };
  const stmts: Stmt[] = [
    ctx.db.update(deposits).set({ status: 'released', releasedAt: now }).where(and(eq(deposits.id, d.id), eq(deposits.customerId, d.customerId), eq(deposits.status, d.status))),
    depositInfoStmt(ctx, rental, row),
  ];
  if (d.status === 'authorized') stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_release', amount: -d.amount, currency: d.currency, paymentIntentId: d.paymentIntentId, description: 'Security deposit released' }));
  let notifiedTo: string | null = null;
  if (input.customerId && location) {
    const r = rental.renterId ? await ctx.db.select().from(renters).where(and(eq(renters.id, rental.renterId), eq(renters.customerId, customerId))).get() : undefined;
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
  await commit(ctx, stmts, { audit: { action: 'deposit.release', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: d.paymentIntentId, amount: d.amount, notified: notifiedTo !== null } } });
  return { ...depositOut(row), provider: intentState(pi), notified: notifiedTo !== null, notifiedTo };
}

/** POST /preAuth/sync-missing-preauth/{paymentIntentId}: records a hold the provider has and Berth lacks. */
export async function syncMissingPreauth(ctx: Ctx, paymentIntentId: string, input: { rentalId?: string; locationId?: string }) {
  const customerId = tenantOf(ctx);
  const pay = payments(ctx.env);
  const pi = await intentOfTenant(ctx, pay, paymentIntentId);
  const existing = await ctx.db.select().from(deposits).where(eq(deposits.paymentIntentId, pi.id)).get();
  if (existing) {
    if (existing.customerId !== customerId) throw notFound('Payment intent');
    return { ...depositOut(existing), provider: intentState(pi), synced: false };
  }
  if (pi.captureMethod !== 'manual') throw new ApiError('bad_request', `Payment intent ${pi.id} is not a pre-authorization (it captures automatically)`);
  const listed = (pi.metadata?.rentalIds ?? '').split(',').filter(Boolean);
  const rentalId = input.rentalId ?? pi.metadata?.rentalId ?? (listed.length === 1 ? listed[0] : undefined);
  if (!rentalId) throw new ApiError('validation_failed', 'The intent names no rental; give rentalId', { details: [{ field: 'rentalId', code: 'required', message: 'rentalId is required for an intent without rental metadata' }] });
  const rental = await rentalInTenant(ctx, rentalId);
  const locationId = input.locationId ? (await locationInTenant(ctx, input.locationId)).id : (pi.metadata?.locationId ?? rental.locationId);
  const status = statusFromIntent(pi);
  const now = new Date().toISOString();
  const row: DepositRow = {
    id: newId('dep'),
    customerId,
    rentalId: rental.id,
    locationId,
    paymentIntentId: pi.id,
    method: pi.metadata?.readerId || (pi.metadata?.paymentMethodTypes ?? '').includes('card_present') ? 'terminal' : 'card',
    readerId: pi.metadata?.readerId ?? null,
    status,
    amount: pi.amount,
    capturedAmount: pi.amountReceived,
    currency: pi.currency,
    notes: 'Recorded by sync-missing-preauth',
    claimType: null,
    releasedAt: status === 'released' ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  const stmts: Stmt[] = [ctx.db.insert(deposits).values(row), depositInfoStmt(ctx, rental, row)];
  if (status === 'authorized') stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_hold', amount: pi.amount, currency: pi.currency, paymentIntentId: pi.id, description: 'Security deposit authorized (synced from the provider)' }));
  if (pi.amountReceived > 0) stmts.push(ledgerMemo(ctx, rental, { entryType: 'deposit_capture', amount: pi.amountReceived, currency: pi.currency, paymentIntentId: pi.id, description: 'Security deposit captured (synced from the provider)' }));
  await commit(ctx, stmts, { audit: { action: 'deposit.sync', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: pi.id, status } } });
  return { ...depositOut(row), provider: intentState(pi), synced: true };
}

/** GET /preAuth/audit-preauths/{rentalId}: the rental's holds beside their state at the provider. */
export async function auditPreauths(ctx: Ctx, rentalId: string, q: { locationId?: string; connected_account_id?: string }) {
  const rental = await rentalInTenant(ctx, rentalId);
  const conds = [eq(deposits.customerId, rental.customerId), eq(deposits.rentalId, rental.id)];
  if (q.locationId) conds.push(eq(deposits.locationId, q.locationId));
  const rows = await ctx.db.select().from(deposits).where(and(...conds)).orderBy(asc(deposits.createdAt)).all();
  const pay = payments(ctx.env);
  const out = await Promise.all(
    rows.map(async (d) => {
      const pi = await pay.getPaymentIntent(d.paymentIntentId);
      const expected = pi ? statusFromIntent(pi) : null;
      return { ...depositOut(d), provider: pi ? intentState(pi) : null, expectedStatus: expected, inSync: expected === d.status && (!pi || pi.amountReceived === d.capturedAmount) };
    }),
  );
  const known = new Set(rows.map((r) => r.paymentIntentId));
  const referenced = rental.depositInformation?.paymentIntentId;
  const untracked =
    typeof referenced === 'string' && !known.has(referenced)
      ? [{ paymentIntentId: referenced, provider: await pay.getPaymentIntent(referenced).then((pi) => (pi ? intentState(pi) : null)) }]
      : [];
  const sum = (f: (d: DepositRow) => number) => toDollars(rows.reduce((s, d) => s + f(d), 0));
  return {
    rentalId: rental.id,
    deposits: out,
    untracked,
    totals: {
      authorized: sum((d) => (d.status === 'authorized' ? d.amount : 0)),
      captured: sum((d) => d.capturedAmount),
      released: sum((d) => (d.status === 'released' ? d.amount : d.status === 'partially_captured' ? d.amount - d.capturedAmount : 0)),
      currency: rows[0]?.currency ?? rental.currency,
    },
  };
}

/** POST /preAuth/connection-token: a card-reader SDK connection token. */
export async function connectionToken(ctx: Ctx, input: { locationId?: string }) {
  tenantOf(ctx);
  const loc = input.locationId ? await locationInTenant(ctx, input.locationId) : undefined;
  const terminalLocation = typeof loc?.details?.terminalLocationId === 'string' ? (loc.details.terminalLocationId as string) : undefined;
  const token = await payments(ctx.env).createConnectionToken(terminalLocation);
  return { secret: token.secret, locationId: loc?.id ?? null };
}
