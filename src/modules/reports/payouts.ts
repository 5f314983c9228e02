/**
 * GET /reports/payouts: the figures of a location's local days grouped by day (every date of the
 * range, zeros included), by item (an inventory item or a point-of-sale product; entries of no item
 * apart) or by payment method (money in and out per method; charges have no method and sit apart).
 * The rows add up to the totals.
 */
import type { Ctx } from '../../lib/context';
import { datesBetween } from '../analytics/service';
import { readReport, type JournalEntry } from './queries';
import { reportHeader, requireReports, type CsvOut, type ReportFormat } from './sales-journal';
import { Tally } from './totals';
import { payoutsCsv } from './views';

type GroupBy = 'day' | 'item' | 'method';

const keyOf: Record<GroupBy, (e: JournalEntry) => string | null> = {
  day: (e) => e.date,
  item: (e) => e.itemId,
  method: (e) => e.method,
};

function labelOf(groupBy: GroupBy, key: string | null, first: JournalEntry | undefined): string {
  if (groupBy === 'day') return key!;
  if (groupBy === 'item') return key === null ? 'No item (payments, fees, order-level entries)' : (first?.itemName ?? key);
  return key === null ? 'Charges (no payment method)' : key;
}

export async function payouts(ctx: Ctx, q: { locationId: string; from: string; to: string; format: ReportFormat; groupBy: GroupBy }) {
  requireReports(ctx);
  const r = await readReport(ctx, q);
  const groups = new Map<string | null, { tally: Tally; first?: JournalEntry }>();
  if (q.groupBy === 'day') for (const d of datesBetween(q.from, q.to)) groups.set(d, { tally: new Tally() });
  for (const e of r.entries) {
    const k = keyOf[q.groupBy](e);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { tally: new Tally(), first: e }));
    g.first ??= e;
    g.tally.add(e);
  }
  const keys = [...groups.keys()];
  // Days in order; items and methods by name, the group of none last.
  if (q.groupBy !== 'day') keys.sort((a, b) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
  const rows = keys.map((key) => {
    const g = groups.get(key)!;
    return { key, label: labelOf(q.groupBy, key, g.first), ...g.tally.figures() };
  });
  const header = reportHeader(r, q);
  if (q.format === 'csv')
    return { csv: payoutsCsv(q.groupBy, rows, header.totals), filename: `payouts-by-${q.groupBy}-${q.from}-${q.to}.csv` } satisfies CsvOut;
  return { ...header, groupBy: q.groupBy, rows };
}
