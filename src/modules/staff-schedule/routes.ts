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
