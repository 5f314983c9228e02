import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listWaiverNumbers, validatePin } from './queries';
import { completeWaiverNumber, createWaiverNumber, deleteWaiverNumber, patchWaiverNumber } from './service';

const router = createRouter();

mount(router, r.createWaiverNumber, async (c, { body }) => c.json(await createWaiverNumber(ctxOf(c), body), 201));
mount(router, r.listWaiverNumbers, async (c, { query }) => c.json(await listWaiverNumbers(ctxOf(c), query)));
mount(router, r.validatePin, async (c, { query }) => c.json(await validatePin(ctxOf(c), query.pin)));
mount(router, r.completeWaiverNumber, async (c, { params, body }) => c.json(await completeWaiverNumber(ctxOf(c), params.waiverNumber, body)));
mount(router, r.patchWaiverNumber, async (c, { params, body }) => c.json(await patchWaiverNumber(ctxOf(c), params.waiverNumber, body)));
mount(router, r.deleteWaiverNumber, async (c, { params }) => c.json(await deleteWaiverNumber(ctxOf(c), params.waiverNumber)));

export default router;
