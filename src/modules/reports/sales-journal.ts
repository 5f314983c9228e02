/**
 * GET /reports/sales-journal: every ledger entry of a location over its local days, one row each
 * (date, booking or transaction, item, description, type, signed amount, payment method), the totals
 * an accountant reads, and the gift card liability at the end of the last day. The totals are the
 * rows added up (so the CSV's amount column sums to `ledgerSumCents`), with analytics' revenue rule.
 */
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { readReport, type ReportRead } from './queries';
import { liabilityOf, tally } from './totals';
import { journalCsv, journalRowOut } from './views';

export type ReportFormat = 'json' | 'csv';

/** A report's permission: admins and managers, or a user or key holding `reports`. */
export const requireReports = (ctx: Ctx) => requirePermission(ctx, 'reports');

/** The part every report answers: where, when, the totals of the range and the gift card liability. */
export function reportHeader(r: ReportRead, q: { from: string; to: string }) {
  return {
    locationId: r.location.locationId,
    timezone: r.location.timezone,
    currency: r.location.currency,
    from: q.from,
    to: q.to,
    totals: tally(r.entries),
    giftCardLiability: liabilityOf(r.giftCards, r.toIso),
  };
}

export interface CsvOut {
  csv: string;
  filename: string;
}

export async function salesJournal(ctx: Ctx, q: { locationId: string; from: string; to: string; format: ReportFormat; limit: number; offset: number }) {
  requireReports(ctx);
  const r = await readReport(ctx, q);
  if (q.format === 'csv') return { csv: journalCsv(r.entries), filename: `sales-journal-${q.from}-${q.to}.csv` } satisfies CsvOut;
  return {
    ...reportHeader(r, q),
    data: r.entries.slice(q.offset, q.offset + q.limit).map(journalRowOut),
    total: r.entries.length,
    limit: q.limit,
    offset: q.offset,
  };
}
