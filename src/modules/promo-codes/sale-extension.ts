/**
 * Promo codes and gift cards in the booking sale (lib/sale-extensions.ts), declared in this
 * module's `module.ts`; the bookings module does not import them.
 *
 * - `discountDetails.promoCode`: a code of the promo-codes table first (its use counted in the
 *   booking's own batch, atomic with the usage limit, and given back when the booking is
 *   cancelled), else a code of the operator's settings (`customers.settings.promoCodes`:
 *   `[{promoCode, Details: {"%Discount": 10} | {"$Discount": 25}, ExpiryDate?, inventoryIds?,
 *   locationId?, active?}]`). An unknown, expired or inapplicable code is 400 `invalid_promo_code`.
 * - A gift card (the widget's "promo or gift code") pays what it can of what is due now after
 *   membership credits; its spend is a conditional update in the booking's batch, so a card spent
 *   meanwhile fails the booking (400 `invalid_promo_code`, the card charge refunded).
 */
import { toCents } from '../../lib/money';
import type { Ctx } from '../../lib/context';
import { saleExtension, type SaleDiscount, type SaleScope } from '../../lib/sale-extensions';
import { promoErrors } from './errors';
import type { BookingGiftCard, BookingPromo } from './types';
import { bookingGiftCardUse, bookingPromoUse, findBookingGiftCard, findBookingPromo, isGiftCardOverdrawn, isPromoExhausted } from './use';

const invalidPromo = (message: string) => promoErrors.fail('invalid_promo_code', message, { details: [{ field: 'discountDetails.promoCode', message }] });
const invalidGiftCard = (message: string) => promoErrors.fail('invalid_promo_code', message, { details: [{ field: 'giftCard', message }] });

/** Where a code is used: the operator, the order's location, items, currency and "now". */
export interface CodeScope {
  customerId: string;
  locationId: string;
  itemIds: string[];
  now: number;
  currency?: string;
}

/** A promo code's discount, and its use to count when it is a code of the promo-codes table. */
export async function resolvePromoCode(
  ctx: Ctx,
  settings: Record<string, unknown>,
  code: string,
  pc: CodeScope,
): Promise<{ discount: SaleDiscount; use: BookingPromo | null }> {
  const stored = await findBookingPromo(ctx, pc.customerId, code, pc);
  if (stored) {
    if (!stored.ok) throw invalidPromo(stored.reason);
    const d = stored.use;
    const discount: SaleDiscount =
      d.percentOff != null ? { type: 'promo', code: d.code, percent: d.percentOff } : { type: 'promo', code: d.code, amount: d.amountOff ?? 0 };
    return { discount, use: d };
  }
  return { discount: settingsPromo(settings, code, pc), use: null };
}

/** A promo code of the operator's settings (`customers.settings.promoCodes`). */
function settingsPromo(settings: Record<string, unknown>, code: string, pc: CodeScope): SaleDiscount {
  const list = (Array.isArray(settings.promoCodes) ? settings.promoCodes : []) as Record<string, unknown>[];
  const promo = list.find((p) => p && typeof p.promoCode === 'string' && p.promoCode.toLowerCase() === code.toLowerCase());
  if (!promo || promo.active === false) throw invalidPromo(`Unknown promo code "${code}"`);
  if (typeof promo.ExpiryDate === 'string' && Date.parse(promo.ExpiryDate) < pc.now) throw invalidPromo(`The promo code "${code}" has expired`);
  if (typeof promo.locationId === 'string' && promo.locationId && promo.locationId !== pc.locationId)
    throw invalidPromo(`The promo code "${code}" is not valid at this location`);
  const ids = Array.isArray(promo.inventoryIds) ? (promo.inventoryIds as string[]) : [];
  if (ids.length && !pc.itemIds.some((id) => ids.includes(id))) throw invalidPromo(`The promo code "${code}" does not apply to these items`);
  const details = (promo.Details ?? {}) as Record<string, unknown>;
  const pct = Number(details['%Discount']);
  const amt = Number(details['$Discount']);
  if (Number.isFinite(pct) && pct > 0) return { type: 'promo', code: promo.promoCode as string, percent: Math.min(100, pct) };
  if (Number.isFinite(amt) && amt > 0) return { type: 'promo', code: promo.promoCode as string, amount: toCents(amt) };
  throw invalidPromo(`The promo code "${code}" has no discount`);
}

/** A gift card of the operator to pay with (400 `invalid_promo_code` when unknown, not a gift card, empty, expired or not valid here). */
export async function resolveGiftCard(ctx: Ctx, code: string, pc: CodeScope): Promise<BookingGiftCard> {
  const found = await findBookingGiftCard(ctx, pc.customerId, code, pc);
  if (!found) throw invalidGiftCard(`Unknown gift card "${code}"`);
  if (!found.ok) throw invalidGiftCard(found.reason);
  return found.card;
}

const codeScopeOf = (s: SaleScope): CodeScope => ({ customerId: s.customerId, locationId: s.locationId, itemIds: s.itemIds, now: s.now, currency: s.currency });

/** `discountDetails.promoCode`: an order discount, its use counted in the booking's batch. */
export const promoCodeSale = saleExtension<{ discount: SaleDiscount; use: BookingPromo | null }>({
  name: 'promo-codes',
  wanted: (f) => !!f.asks.promoCode,
  resolve: (ctx, scope) => resolvePromoCode(ctx, scope.settings, scope.asks.promoCode!, codeScopeOf(scope)),
  discount: (_scope, found) => found?.discount ?? null,
  writes: (ctx, found, sale) =>
    found?.use
      ? bookingPromoUse(ctx, found.use, {
          transactionId: sale.transactionId,
          rentalIds: sale.rentalIds,
          orderAmount: sale.subtotal,
          discount: sale.discounted.promo ?? 0,
        })
      : [],
  failure: (err, facts) => (isPromoExhausted(err) ? invalidPromo(`The promo code "${facts.asks.promoCode ?? ''}" has reached its usage limit`) : undefined),
});

/** A gift card paying part of what is due now, spent in the booking's batch. */
export const giftCardSale = saleExtension<BookingGiftCard>({
  name: 'promo-codes',
  wanted: (f) => !!f.asks.giftCard,
  payOrder: 2,
  resolve: (ctx, scope) => resolveGiftCard(ctx, scope.asks.giftCard!, codeScopeOf(scope)),
  pay: (_scope, card, due) =>
    card
      ? {
          source: 'gift_card',
          amount: Math.max(0, Math.min(card.balance, due)),
          reference: card.code,
          description: `Paid with gift card ${card.code}`,
          available: card.balance,
        }
      : null,
  writes: (ctx, card, sale, payment) =>
    card && payment && payment.amount > 0
      ? bookingGiftCardUse(ctx, card, {
          transactionId: sale.transactionId,
          rentalIds: sale.rentalIds,
          orderAmount: sale.totals.reduce((s, t) => s + t, 0),
          amount: payment.amount,
        })
      : [],
  failure: (err, facts) =>
    isGiftCardOverdrawn(err)
      ? invalidGiftCard(`The gift card "${facts.asks.giftCard ?? ''}" was spent by another order at the same moment; try again`)
      : undefined,
});
