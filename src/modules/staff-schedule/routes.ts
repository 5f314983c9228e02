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
