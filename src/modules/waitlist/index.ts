import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { cancelEntry } from './cancel';
import { joinWaitlist } from './join';
import { offerManually } from './offers';
import { getEntry, listEntries } from './queries';
import { limitAbuse } from '../../lib/abuse';
import { locationRowAnyOperator } from '../locations/service';

const router = createRouter();

mount(router, r.join, async (c, { body }) => {
  await limitAbuse(c, 'waitlist-join', { operator: async () => (await locationRowAnyOperator(ctxOf(c), body.locationId))?.customerId, target: body.email });
  const { entry, created } = await joinWaitlist(ctxOf(c), body);
  return c.json({ ...entry, created }, created ? 201 : 200);
});
mount(router, r.list, async (c, { query }) => c.json(await listEntries(ctxOf(c), query)));
mount(router, r.get, async (c, { params }) => c.json(await getEntry(ctxOf(c), params.id)));
mount(router, r.cancel, async (c, { params }) => c.json(await cancelEntry(ctxOf(c), params.id)));
mount(router, r.offer, async (c, { params, body }) => c.json(await offerManually(ctxOf(c), params.id, body)));

export default router;
