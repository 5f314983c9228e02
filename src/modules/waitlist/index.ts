import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';

const router = createRouter();

mount(router, r.join, async (c, { body }) => {
  await limitAbuse(c, 'waitlist-join', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  const { entry, created } = await svc.joinWaitlist(ctxOf(c), body);
  return c.json({ ...entry, created }, created ? 201 : 200);
});
mount(router, r.list, async (c, { query }) => c.json(await svc.listEntries(ctxOf(c), query)));
mount(router, r.get, async (c, { params }) => c.json(await svc.getEntry(ctxOf(c), params.id)));
mount(router, r.cancel, async (c, { params }) => c.json(await svc.cancelEntry(ctxOf(c), params.id)));
mount(router, r.offer, async (c, { params, body }) => c.json(await svc.offerManually(ctxOf(c), params.id, body)));

export default router;
