import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { staffSchedules } from '../../db/schema/locations';
import { getLocationInTenant } from '../locations/service';
import { shiftOut, type ShiftRow } from './views';

/** Shifts of a location or of the operator; with `from`/`to`, only those with occurrences in that window (at most 62 days). */
export async function listShifts(ctx: Ctx, q: { locationId?: string; customerId?: string; staffId?: string; from?: string; to?: string }) {
  if (!q.locationId && !q.customerId)
    throw new ApiError('validation_failed', 'Give locationId or customerId', {
      details: [{ field: 'locationId', message: 'locationId or customerId is required' }],
    });
  const customerId = ownCustomer(ctx, q.customerId);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  let window: { from: Date; to: Date } | undefined;
  if (q.from || q.to) {
    if (!q.from || !q.to)
      throw new ApiError('validation_failed', 'from and to go together', {
        details: [{ field: q.from ? 'to' : 'from', message: 'required with the other bound' }],
      });
    window = { from: new Date(q.from), to: new Date(q.to) };
    if (window.to <= window.from || window.to.getTime() - window.from.getTime() > 62 * 86_400_000) {
      throw new ApiError('validation_failed', 'to must be after from and at most 62 days later', { details: [{ field: 'to', message: 'invalid window' }] });
    }
  }
  const rows = await ctx.db
    .select()
    .from(staffSchedules)
    .where(
      and(
        eq(staffSchedules.customerId, customerId),
        q.locationId ? eq(staffSchedules.locationId, q.locationId) : undefined,
        q.staffId ? eq(staffSchedules.staffId, q.staffId) : undefined,
      ),
    )
    .orderBy(staffSchedules.startTime)
    .all();
  const out = rows.map((r) => shiftOut(r, window));
  return { data: window ? out.filter((s) => s.occurrences?.length) : out };
}

/** Tenant-scoped read; another operator's shift answers 404. */
export async function shiftInTenant(ctx: Ctx, id: string): Promise<ShiftRow> {
  const row = await ctx.db
    .select()
    .from(staffSchedules)
    .where(and(eq(staffSchedules.id, id), eq(staffSchedules.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Shift');
  return row;
}
