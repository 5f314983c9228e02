/**
 * Staff on a booking: assign a person by hand or automatically, unassign, list. A person is never on
 * two overlapping active bookings: the INSERT is one conditional statement that writes NULL into the
 * NOT NULL `staff_id` (aborting its whole batch: no audit row, no event) when the person already has
 * an overlapping assignment or, unless forced, time off; D1 runs statements one at a time, so of two
 * parallel assignments of one person to overlapping bookings exactly one wins. Shifts (recurring
 * rules, expanded in the location's zone) and skills are checked before it; a manager may force
 * past them and past time off, never past a conflict.
 */
import { and, eq, sql } from 'drizzle-orm';
import { isAdmin, requirePermission, tenantOf, type Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/clock';
import { formatLocalRange } from '../../lib/local-time';
import { ACTIVE_STATUSES, ACTIVE_STATUS_LIST } from '../../lib/booking-status';
import type { Skill } from '../../lib/staff-skills';
import { staffAssignments } from '../../db/schema/staff';
import { getBookingRow, type BookingRow } from '../bookings/service';
import { getLocationInTenant } from '../locations/service';
import { getUserInTenant } from '../users/service';
import { staffErrors } from './errors';
import { covers, staffStates } from './free-time';
import { assignmentCountsOn, assignmentOf, assignmentsOfRentals, conflictOf } from './queries';
import { overlapping } from '../staff-schedule/service';
import { assignmentOut, displayNameOf } from './views';

type User = Awaited<ReturnType<typeof getUserInTenant>>;
const isManager = (ctx: Ctx) => isAdmin(ctx.principal) || ctx.principal.role === 'manager';
const active = (b: BookingRow) => (ACTIVE_STATUSES as string[]).includes(b.status);
const errText = (err: unknown) => `${(err as { message?: string })?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;

function notAssignable(b: BookingRow) {
  return staffErrors.fail('not_assignable', `Staff are assigned to pending, confirmed and checked-in bookings; this one is ${b.status.replace('_', '-')}`, {
    extra: { status: b.status },
  });
}

async function staffMember(ctx: Ctx, staffId: string): Promise<User> {
  try {
    return await getUserInTenant(ctx, staffId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') throw new ApiError('not_found', `Staff member ${staffId} not found`);
    throw err;
  }
}

/** The booking, its location's zone and the checks every assignment makes first. */
async function assignable(ctx: Ctx, rentalId: string) {
  requirePermission(ctx, 'staff_schedule');
  const b = await getBookingRow(ctx, rentalId);
  const loc = await getLocationInTenant(ctx, b.locationId);
  if (!active(b)) throw notAssignable(b);
  return { b, loc: { customerId: b.customerId, id: loc.id, timezone: loc.timezone } };
}

/** Writes the assignment, or explains (409) why the conditional INSERT refused it; an existing assignment of the pair is answered as is. */
async function insertAssignment(
  ctx: Ctx,
  b: BookingRow,
  tz: string,
  staff: User,
  o: { role: string | null; forced: boolean; method: 'manual' | 'auto' },
): Promise<{ assignment: ReturnType<typeof assignmentOut>; created: boolean }> {
  const customerId = b.customerId;
  const existing = await assignmentOf(ctx, customerId, b.id, staff.id);
  if (existing) return { assignment: assignmentOut(existing, staff, b), created: false };
  const id = newId('sas');
  // Columns in the table's order: id, customer_id, rental_id, staff_id, role, forced, method, created_by, created_at.
  const insert = ctx.db.insert(staffAssignments).select(
    sql`SELECT ${id}, ${customerId}, ${b.id},
      CASE WHEN EXISTS (
        SELECT 1 FROM bookings b WHERE b.id = ${b.id} AND b.customer_id = ${customerId} AND b.status IN (${ACTIVE_STATUS_LIST})
          AND NOT EXISTS (${overlapping({ customerId, staffId: staff.id, start: sql`b.start`, end: sql`b."end"`, except: sql`b.id` })})
          AND (${o.forced ? 1 : 0} = 1 OR NOT EXISTS (
            SELECT 1 FROM staff_time_off t WHERE t.customer_id = ${customerId} AND t.staff_id = ${staff.id} AND t.start < b."end" AND t."end" > b.start))
      ) THEN ${staff.id} END,
      ${o.role}, ${o.forced ? 1 : 0}, ${o.method}, ${ctx.principal.userId}, ${nowIso(ctx)}`,
  );
  try {
    await commit(ctx, [insert], {
      audit: {
        action: 'booking.staff_assign',
        targetType: 'booking',
        targetId: b.id,
        details: { staffId: staff.id, role: o.role, forced: o.forced, method: o.method },
      },
      events: [
        { type: 'booking.updated', data: { rentalId: b.id, transactionId: b.transactionId, change: 'staff_assigned', staffId: staff.id, role: o.role } },
      ],
    });
  } catch (err) {
    const text = errText(err);
    if (/UNIQUE constraint failed: staff_assignments/i.test(text)) {
      const row = await assignmentOf(ctx, customerId, b.id, staff.id);
      if (row) return { assignment: assignmentOut(row, staff, b), created: false };
    }
    if (/NOT NULL constraint failed: staff_assignments\.staff_id/i.test(text)) throw await refusal(ctx, b, tz, staff);
    throw err;
  }
  const row = (await assignmentOf(ctx, customerId, b.id, staff.id))!;
  return { assignment: assignmentOut(row, staff, b), created: true };
}

/** Why the conditional INSERT wrote nothing: the booking's state moved, a conflict, or time off. */
async function refusal(ctx: Ctx, b0: BookingRow, tz: string, staff: User): Promise<ApiError> {
  const b = await getBookingRow(ctx, b0.id);
  if (!active(b)) return notAssignable(b);
  const who = displayNameOf(staff);
  const conflict = await conflictOf(ctx, { customerId: b.customerId, staffId: staff.id, start: b.start, end: b.end, except: b.id });
  if (conflict)
    return staffErrors.fail(
      'staff_conflict',
      `${who} is already assigned to booking ${conflict.rentalId} (${formatLocalRange(conflict.start, conflict.end, tz)})`,
      {
        extra: {
          conflict: { rentalId: conflict.rentalId, startTime: new Date(conflict.start).toISOString(), endTime: new Date(conflict.end).toISOString() },
        },
      },
    );
  return staffErrors.fail('staff_time_off', `${who} has time off during this booking (${formatLocalRange(b.start, b.end, tz)})`);
}

/** POST /coreBooking/{rentalId}/staff. */
export async function assignStaff(ctx: Ctx, rentalId: string, input: { staffId: string; role?: Skill; force?: boolean }) {
  const { b, loc } = await assignable(ctx, rentalId);
  const staff = await staffMember(ctx, input.staffId);
  const forced = input.force === true;
  if (forced && !isManager(ctx)) throw new ApiError('forbidden', 'Only admins and managers may force an assignment');
  const who = displayNameOf(staff);
  if (input.role && !(staff.userSkills ?? []).includes(input.role) && !forced)
    throw staffErrors.fail('staff_skill_missing', `${who} does not have the ${input.role} skill`, { extra: { skills: staff.userSkills ?? [] } });
  if (!forced) {
    const worksHere = !staff.locations?.length || staff.locations.includes(loc.id);
    const state = worksHere
      ? (await staffStates(ctx, loc, { start: b.start, end: b.end }, { exceptRental: b.id })).find((s) => s.staffId === staff.id)
      : undefined;
    if (!state || !covers(state.worked, { start: b.start, end: b.end }))
      throw staffErrors.fail('staff_off_schedule', `${who} has no shift at this location covering ${formatLocalRange(b.start, b.end, loc.timezone)}`);
  }
  return insertAssignment(ctx, b, loc.timezone, staff, { role: input.role ?? null, forced, method: 'manual' });
}

/**
 * POST /coreBooking/{rentalId}/staff/auto: of the staff with the skill who work the whole booking at
 * its location and are free then (no time off, no overlapping assignment), the one with the fewest
 * assignments that local day (then by name); a person taken meanwhile by a parallel request is
 * skipped for the next.
 */
export async function autoAssignStaff(ctx: Ctx, rentalId: string, input: { skill: Skill }) {
  const { b, loc } = await assignable(ctx, rentalId);
  const w = { start: b.start, end: b.end };
  const [states, counts, current] = await Promise.all([
    staffStates(ctx, loc, w, { exceptRental: b.id }),
    assignmentCountsOn(ctx, { customerId: b.customerId, localDate: b.localDate }),
    assignmentsOfRentals(ctx, b.customerId, [b.id]),
  ]);
  const already = new Set((current.get(b.id) ?? []).map((a) => a.staffId));
  const candidates = states
    .filter((s) => s.skills.includes(input.skill) && !already.has(s.staffId) && covers(s.free, w))
    .sort(
      (x, y) => (counts.get(x.staffId) ?? 0) - (counts.get(y.staffId) ?? 0) || x.displayName.localeCompare(y.displayName) || x.staffId.localeCompare(y.staffId),
    );
  for (const c of candidates) {
    const staff = await getUserInTenant(ctx, c.staffId);
    try {
      return await insertAssignment(ctx, b, loc.timezone, staff, { role: input.skill, forced: false, method: 'auto' });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'staff_conflict' || err.code === 'staff_time_off')) continue;
      throw err;
    }
  }
  throw staffErrors.fail('no_staff_available', `No ${input.skill} is free for the whole booking (${formatLocalRange(b.start, b.end, loc.timezone)})`);
}

/** GET /coreBooking/{rentalId}/staff. */
export async function listBookingStaff(ctx: Ctx, rentalId: string) {
  const b = await getBookingRow(ctx, rentalId);
  const rows = (await assignmentsOfRentals(ctx, tenantOf(ctx), [b.id])).get(b.id) ?? [];
  return { rentalId: b.id, data: rows.map((r) => assignmentOut(r, r, b)) };
}

/** DELETE /coreBooking/{rentalId}/staff/{staffId}: 404 when the person is not assigned to the booking. */
export async function unassignStaff(ctx: Ctx, rentalId: string, staffId: string) {
  requirePermission(ctx, 'staff_schedule');
  const b = await getBookingRow(ctx, rentalId);
  const row = await assignmentOf(ctx, b.customerId, b.id, staffId);
  if (!row) throw new ApiError('not_found', `Staff member ${staffId} is not assigned to booking ${b.id}`);
  await commit(ctx, [ctx.db.delete(staffAssignments).where(and(eq(staffAssignments.id, row.id), eq(staffAssignments.customerId, b.customerId)))], {
    audit: { action: 'booking.staff_unassign', targetType: 'booking', targetId: b.id, details: { staffId } },
    events: [{ type: 'booking.updated', data: { rentalId: b.id, transactionId: b.transactionId, change: 'staff_unassigned', staffId } }],
  });
  return { success: true, rentalId: b.id, staffId };
}
