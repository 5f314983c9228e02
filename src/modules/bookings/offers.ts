/**
 * Bundles and promo codes as the booking commit reads them from the operator's settings
 * (`customers.settings`):
 *
 *   bundles:    [{bundleCode, name, items: [{inventoryId, quantity}], discountPercentage}]
 *   promoCodes: [{promoCode, Details: {"%Discount": 10} | {"$Discount": 25}, ExpiryDate?,
 *                 inventoryIds?, locationId?, active?}]
 *
 * An unknown, expired or inapplicable code is 400 `invalid_promo_code`.
 *
 * Codes of the promo-codes module (POST /promoGiftCards) come first: their use is counted in the
 * booking's own batch (atomic with the usage limit) and released when the booking is cancelled.
 */
import { eq } from 'drizzle-orm';
import { toCents } from '../../lib/money';
import type { Ctx } from '../../lib/context';
import { customers } from '../../db/schema/accounts';
import type { OrderDiscount } from './pricing';
import { bookingErrors } from './errors';
import { bookingGiftCardUse, findBookingGiftCard, findBookingPromo, type BookingGiftCard, type BookingPromo } from '../promo-codes/service';
import { shares } from './payment-plan';

export type PromoUse = BookingPromo;

export interface BundleDef {
  bundleCode: string;
  name: string;
  items: { inventoryId: string; quantity: number }[];
  discountPercentage: number;
}

export interface PromoContext {
  customerId: string;
  locationId: string;
  itemIds: string[];
  now: number;
}

export async function operatorSettings(ctx: Ctx, customerId: string): Promise<Record<string, unknown>> {
  const row = await ctx.db.select({ settings: customers.settings }).from(customers).where(eq(customers.id, customerId)).get();
  return (row?.settings ?? {}) as Record<string, unknown>;
}

export function bundlesOf(settings: Record<string, unknown>): BundleDef[] {
  const list = Array.isArray(settings.bundles) ? settings.bundles : [];
  const out: BundleDef[] = [];
  for (const b of list as Record<string, unknown>[]) {
    if (!b || typeof b.bundleCode !== 'string' || !Array.isArray(b.items)) continue;
    const items = (b.items as Record<string, unknown>[])
      .filter((i) => i && typeof i.inventoryId === 'string')
      .map((i) => ({
        inventoryId: i.inventoryId as string,
        quantity: Number.isInteger(i.quantity) && (i.quantity as number) > 0 ? (i.quantity as number) : 1,
      }));
    if (!items.length) continue;
    const pct = Number(b.discountPercentage ?? 0);
    out.push({
      bundleCode: b.bundleCode,
      name: typeof b.name === 'string' ? b.name : b.bundleCode,
      items,
      discountPercentage: Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0,
    });
  }
  return out;
}

const invalidPromo = (message: string) => bookingErrors.fail('invalid_promo_code', message, { details: [{ field: 'discountDetails.promoCode', message }] });

export const promoExhausted = (code: string) => invalidPromo(`The promo code "${code}" has reached its usage limit`);

export async function resolvePromoCode(
  ctx: Ctx,
  settings: Record<string, unknown>,
  code: string,
  pc: PromoContext,
): Promise<{ discount: OrderDiscount; use: PromoUse | null }> {
  const stored = await findBookingPromo(ctx, pc.customerId, code, pc);
  if (stored) {
    if (!stored.ok) throw invalidPromo(stored.reason);
    const d = stored.use;
    const discount: OrderDiscount =
      d.percentOff != null ? { type: 'promo', code: d.code, percent: d.percentOff } : { type: 'promo', code: d.code, amount: d.amountOff ?? 0 };
    return { discount, use: d };
  }
  return { discount: await settingsPromo(settings, code, pc), use: null };
}

async function settingsPromo(settings: Record<string, unknown>, code: string, pc: PromoContext): Promise<OrderDiscount> {
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

const invalidGiftCard = (message: string) => bookingErrors.fail('invalid_promo_code', message, { details: [{ field: 'giftCard', message }] });

export const giftCardOverdrawn = (code: string) => invalidGiftCard(`The gift card "${code}" was spent by another order at the same moment; try again`);

/** A gift card of the operator to pay with (400 `invalid_promo_code` when unknown, not a gift card, empty, expired or not valid here). */
export async function resolveGiftCard(ctx: Ctx, code: string, pc: PromoContext): Promise<BookingGiftCard> {
  const found = await findBookingGiftCard(ctx, pc.customerId, code, pc);
  if (!found) throw invalidGiftCard(`Unknown gift card "${code}"`);
  if (!found.ok) throw invalidGiftCard(found.reason);
  return found.card;
}

/** Per rental, the part of the gift card's amount it is paid with (by value), and the spend of the booking's batch. */
export function giftCardPayment(ctx: Ctx, card: BookingGiftCard, amount: number, o: { transactionId: string; rentalIds: string[]; totals: number[] }) {
  return {
    perRental: shares(amount, o.totals),
    code: card.code,
    statements: bookingGiftCardUse(ctx, card, {
      transactionId: o.transactionId,
      rentalIds: o.rentalIds,
      orderAmount: o.totals.reduce((s, t) => s + t, 0),
      amount,
    }),
  };
}
