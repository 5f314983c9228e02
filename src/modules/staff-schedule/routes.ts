import { z } from '@hono/zod-openapi';
import { route, Ok } from '../../lib/openapi';
import * as s from './schemas';

const tags = ['Staff schedule'];

export const createShift = route({
  method: 'post',
  path: '/staffSchedule',
  operationId: 'createStaffShift',
  tags,
  summary: 'Create a shift, optionally recurring',
  body: s.CreateBody,
  ok: s.Shift,
  status: 201,
  errors: [403, 404],
  description: `A shift of the staff member \`staffId\` (a user of the account) at \`locationId\`, from \`startTime\` to \`endTime\` (ISO 8601 with
offset, at most 24 hours). With \`recurrencePattern\` (or \`recurring: true\`, which requires it) the shift repeats in the location's wall-clock
time: the pattern is stored with its RFC 5545 \`rrule\` in the location's zone (\`DTSTART;TZID=America/New_York:20270104T080000\`), so a shift
from 08:00 to 18:00 stays 08:00–18:00 local on both sides of a daylight-saving change. Needs the \`staff_schedule\` permission; another
operator's \`customerId\` answers 403, an unknown location or staff member 404.`,
});
export const listShifts = route({
  method: 'get',
  path: '/staffSchedule',
  operationId: 'listStaffShifts',
  tags,
  summary: 'Shifts of a location or of the whole account (one of locationId, customerId required)',
  query: s.ListQuery,
  ok: z.object({ data: z.array(s.Shift) }),
  errors: [403],
  description: `The account's shifts in start order, of one location (\`locationId\`) or of the whole account (\`customerId\`, which must be the
caller's), optionally of one \`staffId\`. With \`from\` and \`to\` (together, at most 62 days apart) only shifts occurring in that window are answered,
each with its \`occurrences\` in it (recurring shifts expanded per local date: each occurrence starts and ends at the first one's local times).`,
});
export const updateShift = route({
  method: 'put',
  path: '/staffSchedule/{id}',
  operationId: 'updateStaffShift',
  tags,
  summary: 'Change times or recurrence of a shift',
  params: s.IdParam,
  body: s.UpdateBody,
  ok: s.Shift,
  errors: [404],
  description: `Changes the times and/or the recurrence of a shift of the caller's account (\`recurrencePattern: null\` makes it a one-off shift). A body
with nothing to change answers 400 \`no_changes\`; an unknown shift 404.`,
});
export const deleteShift = route({
  method: 'delete',
  path: '/staffSchedule/{id}',
  operationId: 'deleteStaffShift',
  tags,
  summary: 'Delete a shift (only its owner operator)',
  params: s.IdParam,
  ok: Ok,
  errors: [403, 404],
  description: "A shift of another operator answers 403 (the spec's owner rule for this endpoint); an unknown id answers 404.",
});

const timeOffTags = ['Staff schedule'];
const WHO = `Needs the \`staff_schedule\` permission (admins and managers hold it), except for a staff member's own time off. An unknown staff
member or time-off id (or another operator's) answers 404.`;

export const createTimeOff = route({
  method: 'post',
  path: '/staff/time-off',
  operationId: 'createStaffTimeOff',
  tags: timeOffTags,
  summary: 'Record time off of a staff member',
  body: s.CreateTimeOffBody,
  ok: s.TimeOffWritten,
  status: 201,
  errors: [403, 404],
  description: `An absence of \`staffId\` from \`startTime\` to \`endTime\` (ISO 8601 with offset; at most 366 days). Public staff availability
subtracts it from the person's shifts, and assigning the person to a booking that overlaps it answers 409 \`staff_time_off\` (unless a manager forces
it). Time off over bookings the person is already assigned to is recorded all the same: the answer's \`assignments\` lists them, to reassign. ${WHO}`,
});
export const listTimeOff = route({
  method: 'get',
  path: '/staff/time-off',
  operationId: 'listStaffTimeOff',
  tags: timeOffTags,
  summary: 'Time off of the account, optionally of one staff member or in a window',
  query: s.TimeOffQuery,
  ok: s.TimeOffList,
  description: "Time off of the caller's account in start order; `staffId`, `from` and `to` narrow it. Paginated with `limit` and `offset`.",
});
export const updateTimeOff = route({
  method: 'put',
  path: '/staff/time-off/{id}',
  operationId: 'updateStaffTimeOff',
  tags: timeOffTags,
  summary: 'Change the times or reason of time off',
  params: s.IdParam,
  body: s.UpdateTimeOffBody,
  ok: s.TimeOffWritten,
  errors: [403, 404],
  description: `A body with nothing to change answers 400 \`no_changes\`. The answer lists the assignments the new window overlaps. ${WHO}`,
});
export const deleteTimeOff = route({
  method: 'delete',
  path: '/staff/time-off/{id}',
  operationId: 'deleteStaffTimeOff',
  tags: timeOffTags,
  summary: 'Delete time off',
  params: s.IdParam,
  ok: Ok,
  errors: [403, 404],
  description: WHO,
});
