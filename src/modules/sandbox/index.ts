import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { advanceTestClock, createTestClock, deleteTestClock, getTestClock, listTestClocks } from './test-clocks';

const router = createRouter();

mount(router, r.createTestClock, async (c, { body }) => c.json(await createTestClock(ctxOf(c), body), 201));
mount(router, r.listTestClocks, async (c, { query }) => c.json(await listTestClocks(ctxOf(c), query)));
mount(router, r.getTestClock, async (c, { params }) => c.json(await getTestClock(ctxOf(c), params.id)));
mount(router, r.advanceTestClock, async (c, { params, body }) => c.json(await advanceTestClock(ctxOf(c), params.id, body)));
mount(router, r.deleteTestClock, async (c, { params }) => c.json(await deleteTestClock(ctxOf(c), params.id)));

export default router;
