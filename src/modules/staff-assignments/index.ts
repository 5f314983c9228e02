import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { assignStaff, autoAssignStaff, listBookingStaff, unassignStaff } from './assign';

const router = createRouter();

mount(router, r.assignStaff, async (c, { params, body }) => {
  const { assignment, created } = await assignStaff(ctxOf(c), params.rentalId, body);
  return c.json(assignment, created ? 201 : 200);
});
mount(router, r.autoAssignStaff, async (c, { params, body }) => c.json((await autoAssignStaff(ctxOf(c), params.rentalId, body)).assignment, 201));
mount(router, r.listBookingStaff, async (c, { params }) => c.json(await listBookingStaff(ctxOf(c), params.rentalId)));
mount(router, r.unassignStaff, async (c, { params }) => c.json(await unassignStaff(ctxOf(c), params.rentalId, params.staffId)));

export default router;
