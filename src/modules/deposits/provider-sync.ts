import { nowIso } from '../../lib/clock';
import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { deposits } from '../../db/schema/bookings';
import { payments } from '../../adapters/payments';
import { intentOfTenant, rentalInTenant } from './queries';
import { getLocationInTenant } from '../locations/service';
import { depositInfoStmt, ledgerMemo } from './statements';
import { depositOut, intentState, statusFromIntent, type DepositRow } from './views';

/** POST /preAuth/sync-missing-preauth/{paymentIntentId}: records a hold the provider has and Berth lacks. */
export async function syncMissingPreauth(ctx: Ctx, paymentIntentId: string, input: { rentalId?: string; locationId?: string }) {
  const customerId = tenantOf(ctx);
  const pay = payments(ctx);
  const pi = await intentOfTenant(ctx, pay, paymentIntentId);
  const existing = await ctx.db.select().from(deposits).where(eq(deposits.paymentIntentId, pi.id)).get();
  if (existing) {
    if (existing.customerId !== customerId) throw notFound('Payment intent');
    return { ...depositOut(existing), provider: intentState(pi), synced: false };
  }
  if (pi.captureMethod !== 'manual') throw new ApiError('bad_request', `Payment intent ${pi.id} is not a pre-authorization (it captures automatically)`);
  const listed = (pi.metadata?.rentalIds ?? '').split(',').filter(Boolean);
  const rentalId = input.rentalId ?? pi.metadata?.rentalId ?? (listed.length === 1 ? listed[0] : undefined);
  if (!rentalId)
    throw new ApiError('validation_failed', 'The intent names no rental; give rentalId', {
      details: [{ field: 'rentalId', code: 'required', message: 'rentalId is required for an intent without rental metadata' }],
    });
  const rental = await rentalInTenant(ctx, rentalId);
  const locationId = input.locationId ? (await getLocationInTenant(ctx, input.locationId)).id : (pi.metadata?.locationId ?? rental.locationId);
  const status = statusFromIntent(pi);
  const now = nowIso(ctx);
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
  if (status === 'authorized')
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_hold',
        amount: pi.amount,
        currency: pi.currency,
        paymentIntentId: pi.id,
        description: 'Security deposit authorized (synced from the provider)',
      }),
    );
  if (pi.amountReceived > 0)
    stmts.push(
      ledgerMemo(ctx, rental, {
        entryType: 'deposit_capture',
        amount: pi.amountReceived,
        currency: pi.currency,
        paymentIntentId: pi.id,
        description: 'Security deposit captured (synced from the provider)',
      }),
    );
  await commit(ctx, stmts, { audit: { action: 'deposit.sync', targetType: 'rental', targetId: rental.id, details: { paymentIntentId: pi.id, status } } });
  return { ...depositOut(row), provider: intentState(pi), synced: true };
}

/** GET /preAuth/audit-preauths/{rentalId}: the rental's holds beside their state at the provider. */
export async function auditPreauths(ctx: Ctx, rentalId: string, q: { locationId?: string; connected_account_id?: string }) {
  const rental = await rentalInTenant(ctx, rentalId);
  const conds = [eq(deposits.customerId, rental.customerId), eq(deposits.rentalId, rental.id)];
  if (q.locationId) conds.push(eq(deposits.locationId, q.locationId));
  const rows = await ctx.db
    .select()
    .from(deposits)
    .where(and(...conds))
    .orderBy(asc(deposits.createdAt))
    .all();
  const pay = payments(ctx);
  const out = await Promise.all(
    rows.map(async (d) => {
      const pi = await pay.getPaymentIntent(d.paymentIntentId);
      const expected = pi ? statusFromIntent(pi) : null;
      return {
        ...depositOut(d),
        provider: pi ? intentState(pi) : null,
        expectedStatus: expected,
        inSync: expected === d.status && (!pi || pi.amountReceived === d.capturedAmount),
      };
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
  const loc = input.locationId ? await getLocationInTenant(ctx, input.locationId) : undefined;
  const terminalLocation = typeof loc?.details?.terminalLocationId === 'string' ? (loc.details.terminalLocationId as string) : undefined;
  const token = await payments(ctx).createConnectionToken(terminalLocation);
  return { secret: token.secret, locationId: loc?.id ?? null };
}
