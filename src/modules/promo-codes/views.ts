import type { z } from '@hono/zod-openapi';
import { promoCodes } from '../../db/schema/promo-codes';
import { toDollars } from '../../lib/money';
import type * as s from './schemas';

export type PromoRow = typeof promoCodes.$inferSelect;

export const isExpired = (p: PromoRow, now = Date.now()) => p.expiryDate !== null && Date.parse(p.expiryDate) < now;

export function promoOut(p: PromoRow): z.output<typeof s.PromoCode> {
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
    expired: isExpired(p),
    recipientName: p.recipientName,
    recipientEmail: p.recipientEmail,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
