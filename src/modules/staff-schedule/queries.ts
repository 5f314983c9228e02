import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { staffSchedules } from '../../db/schema/locations';
import { getLocationInTenant, listLocations } from '../locations/service';
import { occurrencesOf, ruleZone, type Pattern } from './recurrence';
import { shiftOut, type ShiftRow } from './views';

/** The occurrences of a stored shift in a window, in its rule's zone (or its location's, for rules stored without one). */
export function rowOccurrences(r: ShiftRow, locationZone: string, window: { from: number; to: number }) {
  return occurrencesOf(
    { startTime: r.startTime, endTime: r.endTime, recurring: r.recurring, recurrencePattern: r.recurrencePattern as Pattern | null },
    ruleZone(r.rrule) ?? locationZone,
    window,
  );
}

/** The zones of the caller's locations (for shifts whose rule was stored without one). */
async function locationZones(ctx: Ctx, locationId?: string): Promise<Map<string, string>> {
  if (locationId) {
    const loc = await getLocationInTenant(ctx, locationId);
    return new Map([[loc.id, loc.timezone]]);
  }
  const all = await listLocations(ctx, {});
  return new Map(('data' in all ? all.data : [all]).map((l) => [l.locationId, l.timezone]));
}

/** Shifts of a location or of the operator; with `from`/`to`, only those with occurrences in that window (at most 62 days). */
export async function listShifts(ctx: Ctx, q: { locationId?: string; customerId?: string; staffId?: string; from?: string; to?: string }) {
  if (!q.locationId && !q.customerId)
    throw new ApiError('validation_failed', 'Give locationId or customerId', {
      details: [{ field: 'locationId', message: 'locationId or customerId is required' }],
    });
  const customerId = ownCustomer(ctx, q.customerId);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  let window: { from: number; to: number } | undefined;
  if (q.from || q.to) {
    if (!q.from || !q.to)
      throw new ApiError('validation_failed', 'from and to go together', {
        details: [{ field: q.from ? 'to' : 'from', message: 'required with the other bound' }],
      });
    window = { from: Date.parse(q.from), to: Date.parse(q.to) };
    if (window.to <= window.from || window.to - window.from > 62 * 86_400_000) {
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
  if (!window) return { data: rows.map((r) => shiftOut(r)) };
  const w = window;
  const zones = rows.some((r) => r.recurring && !ruleZone(r.rrule)) ? await locationZones(ctx, q.locationId) : new Map<string, string>();
  const out = rows.map((r) => shiftOut(r, rowOccurrences(r, zones.get(r.locationId) ?? 'UTC', w)));
  return { data: out.filter((s) => s.occurrences?.length) };
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
