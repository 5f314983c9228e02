import type { z } from '@hono/zod-openapi';
import { toDollars } from '../../lib/money';
import type { aiBusinessAudits } from '../../db/schema/ai-helpers';
import type { BusinessAudit } from './schemas';

export type AuditRow = typeof aiBusinessAudits.$inferSelect;

/** A paid audit as the API answers it (`BusinessAudit`). */
export function auditOut(r: AuditRow): z.output<typeof BusinessAudit> {
  return {
    auditId: r.id,
    websiteUrl: r.websiteUrl,
    finalUrl: r.finalUrl,
    score: r.score,
    amount: toDollars(r.amount),
    amountCents: r.amount,
    currency: r.currency,
    paymentIntentId: r.paymentIntentId,
    createdAt: r.createdAt,
    report: r.report as z.output<typeof BusinessAudit>['report'],
  };
}
