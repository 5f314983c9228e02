/**
 * Reads of staff assignments. When a person is busy (`overlapping`: assignment rows and
 * `extendedData.assignedStaffIds`) is staff-schedule's busy.ts, which time off reads too.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ACTIVE_STATUS_LIST } from '../../lib/booking-status';
import { overlapping } from '../staff-schedule/service';
import { staffAssignments } from '../../db/schema/staff';
import { users } from '../../db/schema/accounts';

export type AssignmentRow = typeof staffAssignments.$inferSelect;

/** The first active booking of the staff member overlapping the window (the conflict an assignment names). */
export async function conflictOf(ctx: Ctx, o: { customerId: string; staffId: string; start: number; end: number; except: string }) {
  const rows = await ctx.db.all<{ rentalId: string; start: number; end: number }>(sql`SELECT * FROM (${overlapping(o)}) ORDER BY start LIMIT 1`);
  return rows[0] ? { rentalId: rows[0].rentalId, start: Number(rows[0].start), end: Number(rows[0].end) } : null;
}

/** Every staff member's active assigned bookings overlapping [from, to) at any location of the operator. */
export async function busyDuring(ctx: Ctx, q: { customerId: string; from: number; to: number }) {
  const rows = await ctx.db.all<{ staffId: string; rentalId: string; start: number; end: number }>(sql`
    SELECT a.staff_id AS staffId, b.id AS rentalId, b.start AS start, b."end" AS "end"
      FROM staff_assignments a JOIN bookings b ON b.id = a.rental_id AND b.customer_id = a.customer_id
      WHERE a.customer_id = ${q.customerId} AND b.status IN (${ACTIVE_STATUS_LIST}) AND b.start < ${q.to} AND b."end" > ${q.from}
    UNION ALL
    SELECT j.value, b.id, b.start, b."end"
      FROM bookings b, json_each(coalesce(json_extract(b.extended_data, '$.assignedStaffIds'), '[]')) j
      WHERE b.customer_id = ${q.customerId} AND b.status IN (${ACTIVE_STATUS_LIST}) AND b.start < ${q.to} AND b."end" > ${q.from}`);
  return rows.map((r) => ({ staffId: String(r.staffId), rentalId: r.rentalId, start: Number(r.start), end: Number(r.end) }));
}

/** Assignments of some rentals with the staff member's name, in the order they were made, by rental id. */
export async function assignmentsOfRentals(ctx: Ctx, customerId: string, rentalIds: string[]) {
  const out = new Map<string, (AssignmentRow & { name: string; profileName: string | null })[]>(rentalIds.map((id) => [id, []]));
  for (let i = 0; i < rentalIds.length; i += 90) {
    const rows = await ctx.db
      .select({ a: staffAssignments, name: users.name, profileName: users.profileName })
      .from(staffAssignments)
      .innerJoin(users, and(eq(users.id, staffAssignments.staffId), eq(users.customerId, staffAssignments.customerId)))
      .where(and(eq(staffAssignments.customerId, customerId), inArray(staffAssignments.rentalId, rentalIds.slice(i, i + 90))))
      .orderBy(asc(staffAssignments.createdAt), asc(staffAssignments.id))
      .all();
    for (const r of rows) out.get(r.a.rentalId)?.push({ ...r.a, name: r.name, profileName: r.profileName });
  }
  return out;
}

/** How many active bookings of the location-local day each staff member is assigned to (fair automatic assignment). */
export async function assignmentCountsOn(ctx: Ctx, q: { customerId: string; localDate: string }) {
  const rows = await ctx.db.all<{ staffId: string; n: number }>(sql`
    SELECT a.staff_id AS staffId, count(*) AS n
      FROM staff_assignments a JOIN bookings b ON b.id = a.rental_id AND b.customer_id = a.customer_id
      WHERE a.customer_id = ${q.customerId} AND b.local_date = ${q.localDate} AND b.status IN (${ACTIVE_STATUS_LIST})
      GROUP BY a.staff_id`);
  return new Map(rows.map((r) => [String(r.staffId), Number(r.n)]));
}

/** One assignment of a rental. */
export async function assignmentOf(ctx: Ctx, customerId: string, rentalId: string, staffId: string) {
  return ctx.db
    .select()
    .from(staffAssignments)
    .where(and(eq(staffAssignments.customerId, customerId), eq(staffAssignments.rentalId, rentalId), eq(staffAssignments.staffId, staffId)))
    .get();
}
