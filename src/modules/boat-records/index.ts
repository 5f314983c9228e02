import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { listRecords, rundownRecords } from './queries';
import { createRecord, deleteRecord, updateRecord } from './service';

const router = createRouter();

mount(router, r.rundownRecords, async (c, { query }) => c.json(await rundownRecords(ctxOf(c), query)));
mount(router, r.listRecords, async (c, { query }) => c.json(await listRecords(ctxOf(c), query)));
mount(router, r.createRecord, async (c, { body }) => c.json(await createRecord(ctxOf(c), body), 201));
mount(router, r.updateRecord, async (c, { body }) => c.json(await updateRecord(ctxOf(c), body)));
mount(router, r.deleteRecord, async (c, { body }) => c.json(await deleteRecord(ctxOf(c), body)));

export default router;
