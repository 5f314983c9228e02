/**
 * What the affiliates module reads about bookings: the rentals attributed to an affiliate (a
 * referral `extendedData.refAffiliate`, or one of its promo codes) and the affiliate of a promo code.
 * Promo codes are read from the operator's settings (`settings.promoCodes[].affiliateId`), like the
 * booking commit reads them (offers.ts); when promo codes move to their own table this is the one
 * place to point at it.
 */
import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { bookings } from '../../db/schema/bookings';
import { operatorSettings } from './offers';

export interface AttributedRental {
  rentalId: string;
  transactionId: string;
  status: string;
  /** Pre-tax price after discounts, cents (without tip). */
  basis: number;
  createdAt: string;
  promoCode: string | null;
  refAffiliate: string | null;
}

type PromoEntry = { promoCode?: unknown; affiliateId?: unknown };

async function promoList(ctx: Ctx, customerId: string): Promise<PromoEntry[]> {
  const settings = await operatorSettings(ctx, customerId);
  return (Array.isArray(settings.promoCodes) ? settings.promoCodes : []) as PromoEntry[];
}

/** The operator's promo codes attributed to an affiliate (lower-cased). */
export async function promoCodesOfAffiliate(ctx: Ctx, customerId: string, affiliateId: string): Promise<string[]> {
  return (await promoList(ctx, customerId))
    .filter((p) => p && typeof p.promoCode === 'string' && p.affiliateId === affiliateId)
    .map((p) => (p.promoCode as string).toLowerCase());
}

/** The affiliate of a promo code of the operator, or null. */
export async function promoAffiliateOf(ctx: Ctx, customerId: string, code: string): Promise<string | null> {
  const p = (await promoList(ctx, customerId)).find((x) => x && typeof x.promoCode === 'string' && x.promoCode.toLowerCase() === code.toLowerCase());
  return typeof p?.affiliateId === 'string' ? p.affiliateId : null;
}

const REF = sql<string | null>`json_extract(${bookings.extendedData}, '$.refAffiliate')`;

/** Rentals of the operator referred by the affiliate or sold with one of `promoCodes` (any status). */
export async function attributedRentals(ctx: Ctx, customerId: string, o: { refAffiliate: string; promoCodes: string[] }): Promise<AttributedRental[]> {
  const conds: SQL[] = [sql`${REF} = ${o.refAffiliate}`];
  if (o.promoCodes.length) conds.push(inArray(sql`lower(${bookings.promoCode})`, o.promoCodes.slice(0, 80)));
  const rows = await ctx.db
    .select({
      rentalId: bookings.id,
      transactionId: bookings.transactionId,
      status: bookings.status,
      basis: sql<number>`${bookings.subtotal} - ${bookings.discountTotal}`,
      createdAt: bookings.createdAt,
      promoCode: bookings.promoCode,
      refAffiliate: REF,
    })
    .from(bookings)
    .where(and(eq(bookings.customerId, customerId), or(...conds)))
    .all();
  return rows.map((r) => ({ ...r, basis: Number(r.basis), refAffiliate: r.refAffiliate == null ? null : String(r.refAffiliate) }));
}
