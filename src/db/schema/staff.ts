import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { tenant, createdAt } from './_columns';

/**
 * A staff member (a user of the operator) assigned to a rental (one booking line). Owner: the
 * staff-assignments module. The booking's own `start` and `end` are the assignment's window (read
 * live, so a rescheduled booking moves its staff with it). The INSERT is one conditional statement:
 * `staff_id` is NULL (and the NOT NULL constraint aborts the batch) when the person is already on an
 * overlapping active booking or on time off, so two parallel assignments can never both win.
 */
export const staffAssignments = sqliteTable(
  'staff_assignments',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    rentalId: text('rental_id').notNull(),
    staffId: text('staff_id').notNull(),
    /** The skill the person works the booking in (captain, coach, trainer, operations), when given. */
    role: text('role'),
    /** Assigned by a manager outside the person's schedule or time off (`force`). */
    forced: integer('forced', { mode: 'boolean' }).notNull().default(false),
    /** `manual` (POST .../staff) or `auto` (POST .../staff/auto). */
    method: text('method').notNull().default('manual'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('staff_assignments_rental_staff_uq').on(t.rentalId, t.staffId), index('staff_assignments_staff_idx').on(t.customerId, t.staffId)],
);

/**
 * Time off of a staff member: an absence from `start` to `end` (epoch ms, UTC). Owner: the
 * staff-schedule module. Availability subtracts it from the shifts; an assignment inside it is refused.
 */
export const staffTimeOff = sqliteTable(
  'staff_time_off',
  {
    id: text('id').primaryKey(),
    customerId: tenant(),
    staffId: text('staff_id').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    reason: text('reason'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('staff_time_off_staff_idx').on(t.customerId, t.staffId, t.start)],
);
