import { nowIso } from '../../lib/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { newId } from '../../lib/ids';
import { percentOf, toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import type { CapacityReleased } from '../../lib/hooks';
import { affiliateEntries, affiliates } from '../../db/schema/affiliates';
import { giftCardEntries, promoCodes, promoUses } from '../../db/schema/promo-codes';
import { promoFail } from './errors';
import { affiliateOf, findCode, getCode } from './queries';
import { isExpired, type PromoRow } from './views';
import type { BookingGiftCard, BookingPromo } from './types';
import { holdsMoney, issueCurrency, requireCurrency, saleCurrency } from './currency';

const GENERIC_REFUSAL = 'This code cannot be used';

/** Why a code cannot be used at `scope.now` (the caller's clock, ms; null when it can). */
export function refusalOf(p: PromoRow, scope: { now: number; locationId?: string; itemIds?: string[] }): string | null {
  if (!p.active) return `The code "${p.code}" is inactive`;
  if (isExpired(p, scope.now)) return `The code "${p.code}" has expired`;
  if (p.usageLimit !== null && p.timesUsed >= p.usageLimit) return `The code "${p.code}" has reached its usage limit of ${p.usageLimit}`;
  if (p.kind === 'gift_card' && p.balance <= 0) return `The gift card "${p.code}" has no balance left`;
  if (scope.locationId && p.locationId && p.locationId !== scope.locationId) return `The code "${p.code}" is not valid at this location`;
  const ids = p.inventoryIds ?? [];
  if (scope.itemIds && ids.length && !scope.itemIds.some((id) => ids.includes(id))) return `The code "${p.code}" does not apply to these items`;
  return null;
}

/** 400 `code_not_usable`: the reason for an operator, one generic message for an anonymous caller. */
export const notUsable = (ctx: Ctx, reason: string) =>
  promoFail('code_not_usable', ctx.principal.kind === 'anonymous' ? GENERIC_REFUSAL : reason, { details: [{ field: 'promoCode', message: 'not usable' }] });

const isCheck = (err: unknown, name: string) => /CHECK constraint failed/i.test(String(err)) && String(err).includes(name);

/** The booking batch failed because the code's usage limit was reached by a racing use. */
export const isPromoExhausted = (err: unknown) => isCheck(err, 'promo_codes_usage_limit');

async function commissionOf(ctx: Ctx, p: PromoRow, base: number): Promise<{ rate: number | null; amount: number }> {
  if (!p.affiliateId) return { rate: null, amount: 0 };
  const a = await ctx.db
    .select({ rate: affiliates.percentageEarned })
    .from(affiliates)
    .where(and(eq(affiliates.customerId, p.customerId), eq(affiliates.id, p.affiliateId)))
    .get();
  if (!a) return { rate: null, amount: 0 };
  return { rate: a.rate, amount: percentOf(base, a.rate) };
}

/**
 * POST /promoGiftCards/use. A promo code: its discount on `orderAmount`, counted with one
 * `times_used + 1` whose CHECK refuses to pass the usage limit (so parallel uses can never exceed
 * it). A gift card: redeems min(balance, orderAmount) with one `balance - x` whose CHECK refuses to go
 * below zero, in the same batch as its ledger entry. Each use records the affiliate's commission.
 * The order's currency (`currency`, else the `locationId`'s) must be the code's when the code holds
 * money (a gift card, an amount off): 400 `currency_mismatch` otherwise.
 */
export async function useCode(
  ctx: Ctx,
  input: { promoCode: string; customerId: string; orderAmount: number; userId?: string; currency?: string; locationId?: string },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  const order = toCents(input.orderAmount);
  const orderCurrency =
    input.currency || input.locationId ? await issueCurrency(ctx, customerId, { locationId: input.locationId, requested: input.currency }) : null;
  for (let attempt = 0; ; attempt++) {
    const p = await getCode(ctx, customerId, input.promoCode);
    const refusal = refusalOf(p, { now: ctx.clock.now(), locationId: input.locationId });
    if (refusal) throw notUsable(ctx, refusal);
    requireCurrency(p, orderCurrency);
    const discount =
      p.kind === 'gift_card' ? Math.min(p.balance, order) : p.percentOff !== null ? percentOf(order, p.percentOff) : Math.min(p.amountOff ?? 0, order);
    if (p.kind === 'gift_card' && discount <= 0) throw notUsable(ctx, 'orderAmount must be above zero to redeem a gift card');
    const commission = await commissionOf(ctx, p, p.kind === 'gift_card' ? discount : order - discount);
    const useId = newId('puse');
    const stmts: Stmt[] = [
      ctx.db
        .update(promoCodes)
        .set({
          timesUsed: sql`${promoCodes.timesUsed} + 1`,
          ...(p.kind === 'gift_card' ? { balance: sql`${promoCodes.balance} - ${discount}` } : {}),
        })
        .where(and(eq(promoCodes.id, p.id), eq(promoCodes.customerId, customerId))),
      ctx.db.insert(promoUses).values({
        id: useId,
        customerId,
        promoCodeId: p.id,
        code: p.code,
        kind: p.kind,
        source: 'api',
        orderAmount: order,
        discount,
        userId: input.userId ?? ctx.principal.userId,
        affiliateId: p.affiliateId,
        commissionRate: commission.rate,
        commission: commission.amount,
      }),
    ];
    if (p.kind === 'gift_card')
      stmts.push(
        ctx.db
          .insert(giftCardEntries)
          .values({ id: newId('gce'), customerId, promoCodeId: p.id, kind: 'redeem', amount: -discount, useId, reference: input.userId ?? null }),
      );
    try {
      await commit(ctx, stmts, {
        audit: { action: 'promo_code.use', targetType: 'promo_code', targetId: p.id, details: { code: p.code, orderAmount: order, discount, useId } },
      });
    } catch (err) {
      if (isCheck(err, 'promo_codes_') && attempt < 3) continue; // a racing use changed the count or balance: read again
      if (isCheck(err, 'promo_codes_')) throw notUsable(ctx, `The code "${p.code}" was used up by other uses at the same moment`);
      throw err;
    }
    const after = await getCode(ctx, customerId, input.promoCode);
    return {
      useId,
      promoCode: p.code,
      kind: p.kind,
      orderAmount: toDollars(order),
      discount: toDollars(discount),
      finalAmount: toDollars(order - discount),
      timesUsed: after.timesUsed,
      remainingUses: after.usageLimit === null ? null : Math.max(0, after.usageLimit - after.timesUsed),
      balance: p.kind === 'gift_card' ? toDollars(after.balance) : null,
      affiliateId: p.affiliateId,
      commission: toDollars(commission.amount),
      commissionRate: commission.rate,
    };
  }
}

/** Where a booking uses a code: its location and items, its operator's "now", and its currency when the caller knows it. */
export interface BookingScope {
  locationId: string;
  itemIds: string[];
  now: number;
  /** The order's currency; read from the first item (as the booking prices it) when not given. */
  currency?: string;
}

/** 400 `currency_mismatch` when a code holding money is used on an order in another currency. */
async function requireOrderCurrency(ctx: Ctx, customerId: string, p: PromoRow, scope: BookingScope, field: string) {
  if (!scope.currency && !scope.itemIds.length) return; // nothing sold yet (the code's kind only): the booking checks
  requireCurrency(p, scope.currency ?? (await saleCurrency(ctx, customerId, scope.itemIds)), field);
}

/**
 * A code of the promo-codes table for the booking commit: null when the operator has no such code
 * (the booking then reads its settings), a refusal, or the discount to apply. An amount off in
 * another currency than the order's answers 400 `currency_mismatch`.
 */
export async function findBookingPromo(
  ctx: Ctx,
  customerId: string,
  code: string,
  scope: BookingScope,
): Promise<{ ok: true; use: BookingPromo } | { ok: false; reason: string } | null> {
  const p = await findCode(ctx, customerId, code);
  if (!p) return null;
  if (p.kind === 'gift_card')
    return { ok: false, reason: `"${p.code}" is a gift card: redeem it as a payment (POST /promoGiftCards/use), not as a promo code` };
  const refusal = refusalOf(p, scope);
  if (refusal) return { ok: false, reason: ctx.principal.kind === 'anonymous' ? GENERIC_REFUSAL : refusal };
  if (holdsMoney(p)) await requireOrderCurrency(ctx, customerId, p, scope, 'discountDetails.promoCode');
  const commission = await commissionOf(ctx, p, 0);
  return {
    ok: true,
    use: { promoCodeId: p.id, code: p.code, percentOff: p.percentOff, amountOff: p.amountOff, affiliateId: p.affiliateId, commissionRate: commission.rate },
  };
}

/**
 * A gift card of the promo-codes table as a booking's tender (the booking widget's "promo or gift
 * code"): null when the operator has no such code or it is a promo code, a refusal, or the card with
 * its balance. What the card pays is spent in the booking's batch by `bookingGiftCardUse`. A card in
 * another currency than the order's answers 400 `currency_mismatch` (with items or a currency in scope).
 */
export async function findBookingGiftCard(
  ctx: Ctx,
  customerId: string,
  code: string,
  scope: BookingScope,
): Promise<{ ok: true; card: BookingGiftCard } | { ok: false; reason: string } | null> {
  const p = await findCode(ctx, customerId, code);
  if (!p || p.kind !== 'gift_card') return null;
  const refusal = refusalOf(p, scope);
  if (refusal) return { ok: false, reason: ctx.principal.kind === 'anonymous' ? GENERIC_REFUSAL : refusal };
  await requireOrderCurrency(ctx, customerId, p, scope, 'giftCard');
  const commission = await commissionOf(ctx, p, 0);
  return { ok: true, card: { promoCodeId: p.id, code: p.code, balance: p.balance, affiliateId: p.affiliateId, commissionRate: commission.rate } };
}

/**
 * The statements that spend `amount` cents of a gift card for a booking, for the booking's own batch:
 * one `balance - amount` whose CHECK refuses to go below zero (a racing spend aborts the booking),
 * the use (released with the order, giving the amount back) and the card's `redeem` entry.
 */
export function bookingGiftCardUse(
  ctx: Ctx,
  card: BookingGiftCard,
  order: { transactionId: string; rentalIds: string[]; orderAmount: number; amount: number },
): Stmt[] {
  const customerId = ctx.principal.customerId!;
  const useId = newId('puse');
  return [
    ctx.db
      .update(promoCodes)
      .set({ timesUsed: sql`${promoCodes.timesUsed} + 1`, balance: sql`${promoCodes.balance} - ${order.amount}` })
      .where(and(eq(promoCodes.id, card.promoCodeId), eq(promoCodes.customerId, customerId))),
    ctx.db.insert(promoUses).values({
      id: useId,
      customerId,
      promoCodeId: card.promoCodeId,
      code: card.code,
      kind: 'gift_card',
      source: 'booking',
      orderAmount: order.orderAmount,
      discount: order.amount,
      userId: ctx.principal.userId,
      affiliateId: card.affiliateId,
      commissionRate: card.commissionRate,
      commission: card.commissionRate ? percentOf(order.amount, card.commissionRate) : 0,
      transactionId: order.transactionId,
      rentalIds: order.rentalIds,
      openRentals: order.rentalIds.length,
    }),
    ctx.db
      .insert(giftCardEntries)
      .values({ id: newId('gce'), customerId, promoCodeId: card.promoCodeId, kind: 'redeem', amount: -order.amount, useId, reference: order.transactionId }),
  ];
}

/** The booking batch failed because a racing spend left the gift card without enough balance. */
export const isGiftCardOverdrawn = (err: unknown) => isCheck(err, 'promo_codes_balance_nonnegative');

/** The statements that count a booking's use of a code, for the booking's own batch (the CHECK aborts it past the limit). */
export function bookingPromoUse(
  ctx: Ctx,
  use: BookingPromo,
  order: { transactionId: string; rentalIds: string[]; orderAmount: number; discount: number },
): Stmt[] {
  const customerId = ctx.principal.customerId!;
  const base = order.orderAmount - order.discount;
  return [
    ctx.db
      .update(promoCodes)
      .set({ timesUsed: sql`${promoCodes.timesUsed} + 1` })
      .where(and(eq(promoCodes.id, use.promoCodeId), eq(promoCodes.customerId, customerId))),
    ctx.db.insert(promoUses).values({
      id: newId('puse'),
      customerId,
      promoCodeId: use.promoCodeId,
      code: use.code,
      kind: 'promo',
      source: 'booking',
      orderAmount: order.orderAmount,
      discount: order.discount,
      userId: ctx.principal.userId,
      affiliateId: use.affiliateId,
      commissionRate: use.commissionRate,
      commission: use.commissionRate ? percentOf(base, use.commissionRate) : 0,
      transactionId: order.transactionId,
      rentalIds: order.rentalIds,
      openRentals: order.rentalIds.length,
    }),
  ];
}

/**
 * Hook `capacity.released` (a booking was cancelled): when the last open rental of an order that
 * used a code is cancelled, the use is released and the code's count given back, exactly once
 * (both statements are conditional on the use still being active, in one batch).
 */
export async function releaseBookingUse(ctx: Ctx, e: CapacityReleased) {
  if (e.reason !== 'cancelled') return;
  const use = await ctx.db
    .select()
    .from(promoUses)
    .where(
      and(
        eq(promoUses.customerId, e.customerId),
        eq(promoUses.source, 'booking'),
        eq(promoUses.status, 'active'),
        sql`EXISTS (SELECT 1 FROM json_each(${promoUses.rentalIds}) WHERE value = ${e.rentalId})`,
      ),
    )
    .get();
  if (!use) return;
  const lastOpen = sql`EXISTS (SELECT 1 FROM promo_uses u WHERE u.id = ${use.id} AND u.status = 'active' AND u.open_rentals = 1)`;
  const gift = use.kind === 'gift_card';
  await commit(
    ctx,
    [
      ctx.db
        .update(promoCodes)
        // A gift card gets back what the order spent of it.
        .set({ timesUsed: sql`max(0, ${promoCodes.timesUsed} - 1)`, ...(gift ? { balance: sql`${promoCodes.balance} + ${use.discount}` } : {}) })
        .where(and(eq(promoCodes.id, use.promoCodeId), eq(promoCodes.customerId, e.customerId), lastOpen)),
      ...(gift
        ? [
            // The card's `release` entry, written only by the cancellation that releases the use.
            ctx.db.insert(giftCardEntries).select(
              ctx.db
                .select({
                  id: sql<string>`${newId('gce')}`.as('id'),
                  customerId: promoUses.customerId,
                  promoCodeId: promoUses.promoCodeId,
                  kind: sql<'release'>`'release'`.as('kind'),
                  amount: promoUses.discount,
                  useId: promoUses.id,
                  reference: promoUses.transactionId,
                  createdAt: sql<string>`${nowIso(ctx)}`.as('created_at'),
                })
                .from(promoUses)
                .where(and(eq(promoUses.id, use.id), eq(promoUses.status, 'active'), eq(promoUses.openRentals, 1))),
            ),
          ]
        : []),
      ctx.db
        .update(promoUses)
        .set({
          openRentals: sql`${promoUses.openRentals} - 1`,
          status: sql`CASE WHEN ${promoUses.openRentals} = 1 THEN 'released' ELSE ${promoUses.status} END`,
          releasedAt: sql`CASE WHEN ${promoUses.openRentals} = 1 THEN ${nowIso(ctx)} ELSE NULL END`,
        })
        .where(and(eq(promoUses.id, use.id), eq(promoUses.status, 'active'), sql`${promoUses.openRentals} >= 1`)),
    ],
    {
      audit: {
        action: 'promo_code.release',
        targetType: 'promo_code',
        targetId: use.promoCodeId,
        customerId: e.customerId,
        details: { useId: use.id, rentalId: e.rentalId },
      },
    },
  );
}

/**
 * The commission of a use, as the affiliate's total counts it (affiliates' queries.ts): a promo code's
 * booking use earns what the affiliate's `promo_booking` entries of its rentals hold (none when another
 * affiliate referred the booking; reversed as a rental is cancelled); any other use, what it recorded.
 */
const useCommission = sql<number>`CASE WHEN ${promoUses.source} = 'booking' AND ${promoUses.kind} = 'promo'
  THEN (SELECT coalesce(sum(e.amount), 0) FROM ${affiliateEntries} e
    WHERE e.customer_id = ${promoUses.customerId} AND e.affiliate_id = ${promoUses.affiliateId} AND e.source = 'promo_booking' AND e.excluded = 0
      AND e.source_id IN (SELECT value FROM json_each(${promoUses.rentalIds})))
  ELSE ${promoUses.commission} END`;

/** GET /promoGiftCards/affiliate/{affiliateId}: uses, revenue and commission of the affiliate's codes (released uses excluded). */
export async function affiliateStats(ctx: Ctx, affiliateId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const a = await affiliateOf(ctx, customerId, affiliateId);
  const revenue = sql<number>`coalesce(sum(CASE WHEN ${promoUses.kind} = 'promo' THEN ${promoUses.orderAmount} - ${promoUses.discount} ELSE ${promoUses.orderAmount} END), 0)`;
  const rows = await ctx.db
    .select({
      code: promoUses.code,
      uses: sql<number>`count(*)`,
      revenue,
      discounts: sql<number>`coalesce(sum(${promoUses.discount}), 0)`,
      commission: sql<number>`coalesce(sum(${useCommission}), 0)`,
    })
    .from(promoUses)
    .where(and(eq(promoUses.customerId, customerId), eq(promoUses.affiliateId, affiliateId), eq(promoUses.status, 'active')))
    .groupBy(promoUses.code)
    .all();
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + Number(f(r)), 0);
  return {
    affiliateId: a.id,
    name: a.name,
    percentageEarned: a.percentageEarned,
    uses: sum((r) => r.uses),
    revenue: toDollars(sum((r) => r.revenue)),
    discounts: toDollars(sum((r) => r.discounts)),
    commission: toDollars(sum((r) => r.commission)),
    codes: rows.map((r) => ({ promoCode: r.code, uses: Number(r.uses), revenue: toDollars(Number(r.revenue)), commission: toDollars(Number(r.commission)) })),
  };
}
