import type { z } from '@hono/zod-openapi';
import { promoCodes } from '../../db/schema/promo-codes';
import { toDollars } from '../../lib/money';
import type * as s from './schemas';

export type PromoRow = typeof promoCodes.$inferSelect;

/** Whether the code's expiry is before `now` (the caller's clock, ms). */
export const isExpired = (p: PromoRow, now: number) => p.expiryDate !== null && Date.parse(p.expiryDate) < now;

/** A code as answered; `now` (the caller's clock, ms) says whether it has expired. */
export function promoOut(p: PromoRow, now: number): z.output<typeof s.PromoCode> {
  return {
    promoCode: p.code,
    customerId: p.customerId,
    kind: p.kind,
    Details: p.details,
    ExpiryDate: p.expiryDate,
    inventoryIds: p.inventoryIds ?? [],
    locationId: p.locationId,
    affiliateId: p.affiliateId,
    usageLimit: p.usageLimit,
    timesUsed: p.timesUsed,
    remainingUses: p.usageLimit === null ? null : Math.max(0, p.usageLimit - p.timesUsed),
    balance: p.kind === 'gift_card' ? toDollars(p.balance) : null,
    currency: p.currency,
    active: p.active,
    expired: isExpired(p, now),
    recipientName: p.recipientName,
    recipientEmail: p.recipientEmail,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
