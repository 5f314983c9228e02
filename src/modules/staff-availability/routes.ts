import { route } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Public'];
const RULES = `Staff are the operator's users whose \`userSkills\` include the skill and whose \`locations\` include the location (or are empty: every
location). A staff member works during their shifts (POST /staffSchedule, recurring shifts expanded), except during their time off (POST
/staff/time-off), and is busy during the pending, confirmed and checked-in bookings they are assigned to (POST /coreBooking/{rentalId}/staff, or
named in a booking's \`extendedData.assignedStaffIds\`) at any location. Answers only display names and ids, never shifts or bookings. An unknown
location (or one scheduled for deletion) answers 404; no credentials needed.`;

export const availableStaff = route({
  method: 'get',
  path: '/public/available-staff',
  operationId: 'listAvailableStaff',
  tags,
  access: 'public',
  summary: 'Staff with a skill who are free for a whole window',
  query: s.AvailableStaffQuery,
  ok: s.AvailableStaff,
  errors: [404],
  description: `\`skill\`: coach, captain, trainer or operations. A staff member is listed when their shifts cover the whole window from
\`startTime\` to \`endTime\` (back-to-back shifts join) and no assigned booking overlaps it. \`endTime\` must be after \`startTime\` and at most 24 hours
later (400). ${RULES}`,
});

export const availableStaffRange = route({
  method: 'get',
  path: '/public/available-staff-range',
  operationId: 'listStaffAvailabilityRange',
  tags,
  access: 'public',
  summary: 'Free staff by day and skill over a date range',
  query: s.StaffRangeQuery,
  ok: s.StaffRange,
  errors: [404],
  description: `For each local day (the location's zone) between \`start\` and \`end\` (at most 62 days; 400 otherwise) and each skill, the staff
with free time that day and their free intervals: scheduled time minus time off and assigned bookings. ${RULES}`,
});
