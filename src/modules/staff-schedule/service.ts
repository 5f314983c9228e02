/**
 * The staff-schedule module's face, and the shift writes its router calls. Others use it for:
 * - the shift occurrences of a location's staff (public staff availability): shiftOccurrencesAt.
 * - creating a shift (the seed): createShift.
 * - time off of staff overlapping a window (staff assignments and availability): timeOffDuring; recording it (the seed): createTimeOff.
 * - when a person is busy with bookings (staff assignments): overlapping.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { staffSchedules } from '../../db/schema/locations';
import { users } from '../../db/schema/accounts';
import { getLocationInTenant } from '../locations/service';
import { ruleText, type Pattern } from './recurrence';
import { rowOccurrences, shiftInTenant } from './queries';
import { shiftOut, type ShiftRow } from './views';

export { createTimeOff, timeOffDuring } from './time-off';
export { overlapping } from './busy';

function checkTimes(start: string, end: string) {
  if (Date.parse(end) <= Date.parse(start))
    throw new ApiError('validation_failed', 'endTime must be after startTime', { details: [{ field: 'endTime', message: 'must be after startTime' }] });
  if (Date.parse(end) - Date.parse(start) > 24 * 3600_000)
    throw new ApiError('validation_failed', 'A shift lasts at most 24 hours', { details: [{ field: 'endTime', message: 'shift longer than 24 hours' }] });
}

export async function createShift(
  ctx: Ctx,
  input: {
    customerId: string;
    locationId: string;
    staffId: string;
    startTime: string;
    endTime: string;
    recurring?: boolean;
    recurrencePattern?: Pattern;
    templateId?: string;
  },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'staff_schedule');
  const location = await getLocationInTenant(ctx, input.locationId);
  const staff = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, input.staffId), eq(users.customerId, customerId)))
    .get();
  if (!staff) throw notFound('Staff member');
  checkTimes(input.startTime, input.endTime);
  const recurring = input.recurring ?? Boolean(input.recurrencePattern);
  if (recurring && !input.recurrencePattern)
    throw new ApiError('validation_failed', 'recurrencePattern is required for a recurring shift', {
      details: [{ field: 'recurrencePattern', message: 'required when recurring is true' }],
    });
  const startTime = new Date(input.startTime).toISOString();
  const endTime = new Date(input.endTime).toISOString();
  const now = nowIso(ctx);
  const row: ShiftRow = {
    id: newId('shf'),
    customerId,
    locationId: input.locationId,
    staffId: input.staffId,
    startTime,
    endTime,
    recurring,
    recurrencePattern: recurring ? (input.recurrencePattern as Record<string, unknown>) : null,
    // The recurrence in the location's wall-clock time (DTSTART;TZID=...): see ./recurrence.ts.
    rrule: recurring ? ruleText(startTime, input.recurrencePattern!, location.timezone) : null,
    templateId: input.templateId ?? null,
    createdBy: ctx.principal.userId,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(staffSchedules).values(row)], {
    audit: { action: 'staff_schedule.create', targetType: 'staff_schedule', targetId: row.id, details: { staffId: row.staffId } },
  });
  return shiftOut(row);
}

export async function updateShift(
  ctx: Ctx,
  id: string,
  input: { startTime?: string; endTime?: string; recurring?: boolean; recurrencePattern?: Pattern | null },
) {
  requirePermission(ctx, 'staff_schedule');
  if (input.startTime === undefined && input.endTime === undefined && input.recurring === undefined && input.recurrencePattern === undefined) {
    throw new ApiError('no_changes', 'Give at least one of startTime, endTime, recurring, recurrencePattern');
  }
  const existing = await shiftInTenant(ctx, id);
  const startTime = input.startTime ? new Date(input.startTime).toISOString() : existing.startTime;
  const endTime = input.endTime ? new Date(input.endTime).toISOString() : existing.endTime;
  checkTimes(startTime, endTime);
  const pattern = input.recurrencePattern === undefined ? (existing.recurrencePattern as Pattern | null) : input.recurrencePattern;
  const recurring = input.recurring ?? (input.recurrencePattern === null ? false : existing.recurring || Boolean(input.recurrencePattern));
  if (recurring && !pattern)
    throw new ApiError('validation_failed', 'recurrencePattern is required for a recurring shift', {
      details: [{ field: 'recurrencePattern', message: 'required when recurring is true' }],
    });
  // The rule is written again in the location's zone (a rule stored before shifts kept wall-clock time gets its zone here).
  const zone = recurring && pattern ? (await getLocationInTenant(ctx, existing.locationId)).timezone : null;
  const patch = {
    startTime,
    endTime,
    recurring,
    recurrencePattern: recurring ? (pattern as Record<string, unknown>) : null,
    rrule: zone && pattern ? ruleText(startTime, pattern, zone) : null,
    updatedAt: nowIso(ctx),
  };
  await commit(
    ctx,
    [
      ctx.db
        .update(staffSchedules)
        .set(patch)
        .where(and(eq(staffSchedules.id, id), eq(staffSchedules.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'staff_schedule.update', targetType: 'staff_schedule', targetId: id },
    },
  );
  return shiftOut({ ...existing, ...patch });
}

export async function deleteShift(ctx: Ctx, id: string) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'staff_schedule');
  const row = await ctx.db.select().from(staffSchedules).where(eq(staffSchedules.id, id)).get();
  if (!row) throw notFound('Shift');
  if (row.customerId !== customerId) throw new ApiError('forbidden', 'Only the operator that owns this shift may delete it');
  await commit(ctx, [ctx.db.delete(staffSchedules).where(and(eq(staffSchedules.id, id), eq(staffSchedules.customerId, customerId)))], {
    audit: { action: 'staff_schedule.delete', targetType: 'staff_schedule', targetId: id },
  });
  return { success: true, id };
}

/**
 * Shift occurrences of a location's staff overlapping [from, to) (recurring shifts expanded in the
 * location's wall-clock time, `timezone`), for public staff availability. No permission check:
 * callers answer only availability, never the shifts.
 */
export async function shiftOccurrencesAt(ctx: Ctx, q: { customerId: string; locationId: string; timezone: string; from: Date; to: Date }) {
  const rows = await ctx.db
    .select()
    .from(staffSchedules)
    .where(and(eq(staffSchedules.customerId, q.customerId), eq(staffSchedules.locationId, q.locationId)))
    .all();
  const window = { from: q.from.getTime(), to: q.to.getTime() };
  return rows.flatMap((r) => rowOccurrences(r, q.timezone, window).map((o) => ({ staffId: r.staffId, start: o.start, end: o.end })));
}
