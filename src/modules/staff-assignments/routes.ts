import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Staff assignments'];

const RULES = `A staff member is never on two overlapping active bookings (pending, confirmed, checked in), at any location: such an assignment
answers 409 \`staff_conflict\` with the other booking in \`conflict\` (\`rentalId\`, \`startTime\`, \`endTime\`), also when two requests race. The
person must have a shift at the booking's location covering the whole booking (409 \`staff_off_schedule\`) and no time off during it (409
\`staff_time_off\`). Bookings that are cancelled, completed or no-shows answer 409 \`not_assignable\`. Needs the \`staff_schedule\` permission (admins
and managers hold it). An unknown booking or staff member (or another operator's) answers 404.`;

export const assignStaff = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/staff',
  operationId: 'assignBookingStaff',
  tags,
  summary: 'Assign a staff member to a booking',
  params: s.RentalParam,
  body: s.AssignBody,
  ok: s.StaffAssignment,
  status: 201,
  errors: [403, 404, 409],
  description: `Assigns \`staffId\` (a user of the account) to the booking, optionally in a \`role\` (a skill the person has: 409
\`staff_skill_missing\` otherwise). ${RULES} With \`force: true\` an admin or manager assigns past the shifts, time off and skills (never past a
conflict); others get 403. Assigning a person already on the booking answers the existing assignment with 200. Fires \`booking.updated\` with
\`change: "staff_assigned"\`.`,
});

export const autoAssignStaff = route({
  method: 'post',
  path: '/coreBooking/{rentalId}/staff/auto',
  operationId: 'autoAssignBookingStaff',
  tags,
  summary: 'Assign a free staff member with a skill, fairly',
  params: s.RentalParam,
  body: s.AutoAssignBody,
  ok: s.StaffAssignment,
  status: 201,
  errors: [403, 404, 409],
  description: `Picks, among the staff with \`skill\` who work the whole booking at its location, have no time off and no overlapping assignment,
the one with the fewest assignments that day (the location's date; ties by name), and assigns them in that role. None free: 409
\`no_staff_available\`. ${RULES}`,
});

export const listBookingStaff = route({
  method: 'get',
  path: '/coreBooking/{rentalId}/staff',
  operationId: 'listBookingStaff',
  tags,
  summary: "A booking's assigned staff",
  params: s.RentalParam,
  ok: s.StaffAssignments,
  errors: [404],
  description: "The staff assigned to the booking in the order they were assigned, each with the booking window. Another operator's booking answers 404.",
});

export const unassignStaff = route({
  method: 'delete',
  path: '/coreBooking/{rentalId}/staff/{staffId}',
  operationId: 'unassignBookingStaff',
  tags,
  summary: 'Remove a staff member from a booking',
  params: s.RentalStaffParam,
  ok: s.Unassigned,
  errors: [403, 404],
  description: `Needs the \`staff_schedule\` permission. A person not assigned to the booking answers 404. Fires \`booking.updated\` with
\`change: "staff_unassigned"\`.`,
});
