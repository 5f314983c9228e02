/**
 * Time off of staff members: absences from one instant to another (a holiday, a sick day, an
 * appointment). Public staff availability subtracts them from the shifts, and an assignment to a
 * booking inside one is refused (staff-assignments). Recording time off over bookings the person is
 * already assigned to is allowed (the absence is a fact) and answers those assignments, so the
 * operator can reassign them.
 */
import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { overlapping } from './busy';
import { staffTimeOff } from '../../db/schema/staff';
import { getUserInTenant } from '../users/service';

type TimeOffRow = typeof staffTimeOff.$inferSelect;

const DAY = 86_400_000;
const MAX_DAYS = 366;
const iso = (ms: number) => new Date(ms).toISOString();
const invalid = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });

/** Managers and holders of `staff_schedule` record anyone's time off; a staff member records their own. */
function requireTimeOffWriter(ctx: Ctx, staffId: string) {
  if (ctx.principal.userId && ctx.principal.userId === staffId) return;
  requirePermission(ctx, 'staff_schedule');
}

function checkWindow(start: number, end: number) {
  if (!(end > start)) throw invalid('endTime', 'endTime must be after startTime');
  if (end - start > MAX_DAYS * DAY) throw invalid('endTime', `Time off lasts at most ${MAX_DAYS} days`);
}

function timeOffOut(r: TimeOffRow) {
  return {
    id: r.id,
    customerId: r.customerId,
    staffId: r.staffId,
    startTime: iso(r.start),
    endTime: iso(r.end),
    reason: r.reason,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The person's active assigned bookings overlapping the window (busy.ts: assignment rows and `extendedData.assignedStaffIds`). */
async function assignmentsDuring(ctx: Ctx, r: Pick<TimeOffRow, 'customerId' | 'staffId' | 'start' | 'end'>) {
  const rows = await ctx.db.all<{ rentalId: string; start: number; end: number }>(
    sql`SELECT DISTINCT * FROM (${overlapping({ customerId: r.customerId, staffId: r.staffId, start: r.start, end: r.end, except: '' })}) ORDER BY start`,
  );
  return rows.map((a) => ({ rentalId: a.rentalId, startTime: iso(Number(a.start)), endTime: iso(Number(a.end)) }));
}

async function timeOffInTenant(ctx: Ctx, id: string): Promise<TimeOffRow> {
  const row = await ctx.db
    .select()
    .from(staffTimeOff)
    .where(and(eq(staffTimeOff.id, id), eq(staffTimeOff.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Time off');
  return row;
}

/** POST /staff/time-off. */
export async function createTimeOff(ctx: Ctx, input: { staffId: string; startTime: string; endTime: string; reason?: string }) {
  const customerId = tenantOf(ctx);
  requireTimeOffWriter(ctx, input.staffId);
  await getUserInTenant(ctx, input.staffId);
  const start = Date.parse(input.startTime);
  const end = Date.parse(input.endTime);
  checkWindow(start, end);
  const now = nowIso(ctx);
  const row: TimeOffRow = {
    id: newId('sto'),
    customerId,
    staffId: input.staffId,
    start,
    end,
    reason: input.reason ?? null,
    createdBy: ctx.principal.userId,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(staffTimeOff).values(row)], {
    audit: { action: 'staff_time_off.create', targetType: 'staff_time_off', targetId: row.id, details: { staffId: row.staffId } },
  });
  return { ...timeOffOut(row), assignments: await assignmentsDuring(ctx, row) };
}

/** GET /staff/time-off: the operator's time off in start order, of one staff member and/or overlapping a window. */
export async function listTimeOff(ctx: Ctx, q: { staffId?: string; from?: string; to?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const where = and(
    eq(staffTimeOff.customerId, customerId),
    q.staffId ? eq(staffTimeOff.staffId, q.staffId) : undefined,
    q.to ? lt(staffTimeOff.start, Date.parse(q.to)) : undefined,
    q.from ? gt(staffTimeOff.end, Date.parse(q.from)) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(staffTimeOff).where(where).orderBy(asc(staffTimeOff.start), asc(staffTimeOff.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(staffTimeOff)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(timeOffOut), total: Number(total?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** PUT /staff/time-off/{id}: new times and/or reason. */
export async function updateTimeOff(ctx: Ctx, id: string, input: { startTime?: string; endTime?: string; reason?: string | null }) {
  if (input.startTime === undefined && input.endTime === undefined && input.reason === undefined)
    throw new ApiError('no_changes', 'Give at least one of startTime, endTime, reason');
  const existing = await timeOffInTenant(ctx, id);
  requireTimeOffWriter(ctx, existing.staffId);
  const start = input.startTime ? Date.parse(input.startTime) : existing.start;
  const end = input.endTime ? Date.parse(input.endTime) : existing.end;
  checkWindow(start, end);
  const patch = { start, end, reason: input.reason === undefined ? existing.reason : input.reason, updatedAt: nowIso(ctx) };
  await commit(
    ctx,
    [
      ctx.db
        .update(staffTimeOff)
        .set(patch)
        .where(and(eq(staffTimeOff.id, id), eq(staffTimeOff.customerId, existing.customerId))),
    ],
    {
      audit: { action: 'staff_time_off.update', targetType: 'staff_time_off', targetId: id },
    },
  );
  const row = { ...existing, ...patch };
  return { ...timeOffOut(row), assignments: await assignmentsDuring(ctx, row) };
}

/** DELETE /staff/time-off/{id}. */
export async function deleteTimeOff(ctx: Ctx, id: string) {
  const existing = await timeOffInTenant(ctx, id);
  requireTimeOffWriter(ctx, existing.staffId);
  await commit(ctx, [ctx.db.delete(staffTimeOff).where(and(eq(staffTimeOff.id, id), eq(staffTimeOff.customerId, existing.customerId)))], {
    audit: { action: 'staff_time_off.delete', targetType: 'staff_time_off', targetId: id, details: { staffId: existing.staffId } },
  });
  return { success: true, id };
}

/** Time off of an operator's staff overlapping [from, to), for availability and assignment checks (no permission check: callers answer availability only). */
export async function timeOffDuring(ctx: Ctx, q: { customerId: string; from: number; to: number; staffId?: string }) {
  return ctx.db
    .select({ staffId: staffTimeOff.staffId, start: staffTimeOff.start, end: staffTimeOff.end })
    .from(staffTimeOff)
    .where(
      and(
        eq(staffTimeOff.customerId, q.customerId),
        q.staffId ? eq(staffTimeOff.staffId, q.staffId) : undefined,
        lt(staffTimeOff.start, q.to),
        gt(staffTimeOff.end, q.from),
      ),
    )
    .all();
}
