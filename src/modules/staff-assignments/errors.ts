import { defineErrors } from '../../lib/errors';

/** The codes of staff assignments (each a 409: the staff member or the booking cannot take the assignment now). */
export const staffErrors = defineErrors({
  staff_conflict: { status: 409, meaning: 'The staff member is already assigned to an overlapping booking (named in `conflict`)' },
  staff_off_schedule: { status: 409, meaning: "The booking is outside the staff member's shifts at its location (a manager may force it)" },
  staff_time_off: { status: 409, meaning: 'The staff member has time off during the booking (a manager may force it)' },
  staff_skill_missing: { status: 409, meaning: 'The staff member does not have the requested skill (a manager may force it)' },
  no_staff_available: { status: 409, meaning: 'No staff member with the skill is free for the whole booking' },
  not_assignable: {
    status: 409,
    meaning: 'The booking is cancelled, completed or a no-show: staff are assigned to pending, confirmed and checked-in bookings',
  },
});
