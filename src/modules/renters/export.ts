import { csv } from '../../lib/csv';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { listWhere, selectPage, type ListFilters } from './queries';
import type { renterOut } from './views';
import { todayIn } from '../../lib/clock';
import { operatorTimeZone } from '../locations/service';

export const EXPORT_PAGE_SIZE = 200;
export const CSV_COLUMNS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'dob',
  'status',
  'riskScore',
  'licenseNumber',
  'loyaltyPoints',
  'payment_customer_id',
  'waivers_signed_urls',
  'createdAt',
  'updatedAt',
] as const;

function csvRow(r: ReturnType<typeof renterOut>, includeAccounting: boolean): Record<string, string | number> {
  const row: Record<string, string | number> = {};
  for (const c of CSV_COLUMNS) {
    const v = (r as Record<string, unknown>)[c];
    row[c] = v == null ? '' : Array.isArray(v) || typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
  }
  if (includeAccounting) {
    row.balance = r.accounting?.balance ?? 0;
    row.balanceCents = r.accounting?.balanceCents ?? 0;
  }
  return row;
}

/**
 * The renters matching the filters as CSV (one header row, the columns of CSV_COLUMNS plus
 * `balance` and `balanceCents` with accounting) or as a JSON array. The body is a stream that
 * reads D1 one page at a time, so exports of any size use constant memory.
 */
export async function exportRenters(
  ctx: Ctx,
  q: ListFilters & { format: 'csv' | 'json' },
): Promise<{ stream: ReadableStream<Uint8Array>; contentType: string; filename: string }> {
  requirePermission(ctx, 'renters');
  listWhere(ctx, q); // checks customerId before the stream starts
  const enc = new TextEncoder();
  const includeAccounting = !!q.includeAccounting;
  const fields = [...CSV_COLUMNS, ...(includeAccounting ? ['balance', 'balanceCents'] : [])];
  let offset = 0;
  let started = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const page = await selectPage(ctx, q, EXPORT_PAGE_SIZE, offset);
        offset += page.length;
        const last = page.length < EXPORT_PAGE_SIZE;
        let chunk = '';
        if (q.format === 'csv') {
          chunk += csv(
            fields,
            page.map((r) => fields.map((f) => csvRow(r, includeAccounting)[f])),
            { header: !started },
          );
        } else {
          const body = page.map((r) => JSON.stringify(r)).join(',');
          chunk += (started ? (body ? ',' : '') : '[') + body + (last ? ']' : '');
        }
        started = true;
        if (chunk) controller.enqueue(enc.encode(chunk));
        if (last) {
          done = true;
          controller.close();
        }
      } catch (err) {
        controller.error(err);
      }
    },
  });
  // Today at the operator (its first location's zone), on its clock.
  const date = todayIn(ctx, await operatorTimeZone(ctx));
  return {
    stream,
    contentType: q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    filename: `renters-${date}.${q.format}`,
  };
}
