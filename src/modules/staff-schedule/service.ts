import { and, eq } from 'drizzle-orm';
import { RRule, Weekday } from 'rrule';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { staffSchedules } from '../../db/schema/locations';
import { users } from '../../db/schema/accounts';
import { getLocationInTenant } from '../locations/service';
import type { RecurrencePattern } from './schemas';

type ShiftRow = typeof staffSchedules.$inferSelect;
type Pattern = z.infer<typeof RecurrencePattern>;

const FREQ = { daily: RRule.DAILY, weekly: RRule.WEEKLY, monthly: RRule.MONTHLY } as const;
const DAYS: Record<string, Weekday> = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU };

function buildRule(start: string, p: Pattern): RRule {
  return new RRule({
    freq: FREQ[p.frequency],
    interval: p.interval ?? 1,
    byweekday: p.byWeekday?.map((d) => DAYS[d]),
    dtstart: new Date(start),
    until: p.until ? new Date(p.until) : undefined,
    count: p.count,
  });
}

function shiftOut(r: ShiftRow, window?: { from: Date; to: Date }) {
  const base = {
    id: r.id,
    customerId: r.customerId,
    locationId: r.locationId,
    staffId: r.staffId,
    startTime: r.startTime,
    endTime: r.endTime,
    recurring: r.recurring,
    recurrencePattern: r.recurrencePattern,
    rrule: r.rrule,
    templateId: r.templateId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
  if (!window) return base;
  const duration = Date.parse(r.endTime) - Date.parse(r.startTime);
  let starts: Date[];
  if (r.recurring && r.recurrencePattern) {
    // Look back one shift length so a shift that started before `from` and is still running is included.
    starts = buildRule(r.startTime, r.recurrencePattern as Pattern).between(new Date(window.from.getTime() - duration), window.to, true);
  } else {
    starts = [new Date(r.startTime)];
  }
  const occurrences = starts
    .filter((s) => s.getTime() < window.to.getTime() && s.getTime() + duration > window.from.getTime())
    .map((s) => ({ startTime: s.toISOString(), endTime: new Date(s.getTime() + duration).toISOString() }));
  return { ...base, occurrences };
}

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
  await getLocationInTenant(ctx, input.locationId);
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
  const now = new Date().toISOString();
  const row: ShiftRow = {
    id: newId('shf'),
    customerId,
    locationId: input.locationId,
    staffId: input.staffId,
    startTime,
    endTime,
    recurring,
    recurrencePattern: recurring ? (input.recurrencePattern as Record<string, unknown>) : null,
    rrule: recurring ? buildRule(startTime, input.recurrencePattern!).toString() : null,
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
  return { data: window ? out.filter((s) => (s as { occurrences?: unknown[] }).occurrences?.length) : out };
}

async function shiftInTenant(ctx: Ctx, id: string): Promise<ShiftRow> {
  const row = await ctx.db
    .select()
    .from(staffSchedules)
    .where(and(eq(staffSchedules.id, id), eq(staffSchedules.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Shift');
  return row;
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
  const patch = {
    startTime,
    endTime,
    recurring,
    recurrencePattern: recurring ? (pattern as Record<string, unknown>) : null,
    rrule: recurring && pattern ? buildRule(startTime, pattern).toString() : null,
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
  return shiftOut({ ...existing, ...patch, updatedAt: new Date().toISOString() });
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
 * Shift occurrences of a location's staff overlapping [from, to) (recurring shifts expanded), for
 * public staff availability. No permission check: callers answer only availability, never the shifts.
 */
export async function shiftOccurrencesAt(ctx: Ctx, q: { customerId: string; locationId: string; from: Date; to: Date }) {
  const rows = await ctx.db
    .select()
    .from(staffSchedules)
    .where(and(eq(staffSchedules.customerId, q.customerId), eq(staffSchedules.locationId, q.locationId)))
    .all();
  const window = { from: q.from, to: q.to };
  return rows.flatMap((r) =>
    ((shiftOut(r, window) as { occurrences?: { startTime: string; endTime: string }[] }).occurrences ?? []).map((o) => ({
      staffId: r.staffId,
      start: Date.parse(o.startTime),
      end: Date.parse(o.endTime),
    })),
  );
}
