/**
 * When a person is busy with bookings: the active bookings (pending, confirmed, checked in) they are
 * assigned to, as rows of `staff_assignments` and as the staff ids a booking may carry in
 * `extendedData.assignedStaffIds` (set by clients at booking time, before assignments had a table of
 * their own). Both count everywhere: time off, availability, conflicts, automatic assignment.
 */
import { sql, type SQL } from 'drizzle-orm';
import { ACTIVE_STATUS_LIST } from '../../lib/booking-status';

type Value = SQL | string | number;

/**
 * The active bookings of `staffId` (assigned in the table or in `extendedData.assignedStaffIds`)
 * overlapping [start, end), other than `except`: a subquery answering `rentalId, start, end`. Its
 * values may be columns of an outer query (the conditional INSERT of an assignment) or literals.
 */
export function overlapping(o: { customerId: string; staffId: Value; start: Value; end: Value; except: Value }): SQL {
  return sql`SELECT o.id AS rentalId, o.start AS start, o."end" AS "end"
      FROM staff_assignments a JOIN bookings o ON o.id = a.rental_id AND o.customer_id = a.customer_id
      WHERE a.customer_id = ${o.customerId} AND a.staff_id = ${o.staffId} AND o.id <> ${o.except}
        AND o.status IN (${ACTIVE_STATUS_LIST}) AND o.start < ${o.end} AND o."end" > ${o.start}
    UNION ALL
    SELECT o.id, o.start, o."end"
      FROM bookings o, json_each(coalesce(json_extract(o.extended_data, '$.assignedStaffIds'), '[]')) j
      WHERE o.customer_id = ${o.customerId} AND j.value = ${o.staffId} AND o.id <> ${o.except}
        AND o.status IN (${ACTIVE_STATUS_LIST}) AND o.start < ${o.end} AND o."end" > ${o.start}`;
}
