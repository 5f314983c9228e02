import type { z } from '@hono/zod-openapi';
import type { affiliates } from '../../db/schema/affiliates';
import { toDollars } from '../../lib/money';
import type * as s from './schemas';

export type AffiliateRow = typeof affiliates.$inferSelect;

export function affiliateOut(a: AffiliateRow): z.output<typeof s.Affiliate> {
  return {
    affiliateId: a.id,
    customerId: a.customerId,
    name: a.name,
    email: a.email,
    percentageEarned: a.percentageEarned,
    customAffiliateId: a.customAffiliateId,
    commissionTotal: toDollars(a.commissionTotal),
    paidOut: toDollars(a.paidOut),
    balanceDue: toDollars(a.commissionTotal - a.paidOut),
    recalculatedAt: a.recalculatedAt,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}
