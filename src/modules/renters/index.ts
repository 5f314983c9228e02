import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { journalEntries, owingRenters } from './balances';
import { deleteRenter, patchRenter, upsertRenter } from './edit';
import { exportRenters } from './export';
import { attachPaymentMethod, listPaymentMethods } from './payment-methods';
import { getRenter, listRenters, searchSuggestions } from './queries';

const router = createRouter();

// Fixed paths before `/renters/{id}`.
mount(router, r.listRenters, async (c, { query }) => c.json(await listRenters(ctxOf(c), query)));
mount(router, r.upsertRenter, async (c, { body }) => {
  const { created, renter } = await upsertRenter(ctxOf(c), body);
  return c.json(renter, created ? 201 : 200);
});
mount(router, r.exportRenters, async (c, { query }) => {
  const out = await exportRenters(ctxOf(c), query);
  return new Response(out.stream, {
    status: 200,
    headers: { 'content-type': out.contentType, 'content-disposition': `attachment; filename="${out.filename}"`, 'cache-control': 'no-store' },
  });
});
mount(router, r.searchSuggestions, async (c, { query }) => c.json(await searchSuggestions(ctxOf(c), query)));
mount(router, r.owingRenters, async (c, { query }) => c.json(await owingRenters(ctxOf(c), query)));
mount(router, r.journalEntries, async (c, { params }) => c.json(await journalEntries(ctxOf(c), params.id)));
mount(router, r.getRenter, async (c, { params }) => c.json(await getRenter(ctxOf(c), params.id)));
mount(router, r.patchRenter, async (c, { params, body }) => c.json(await patchRenter(ctxOf(c), params.id, body)));
mount(router, r.deleteRenter, async (c, { params }) => c.json(await deleteRenter(ctxOf(c), params.id)));
mount(router, r.attachPaymentMethod, async (c, { params, body }) => c.json(await attachPaymentMethod(ctxOf(c), params.id, body)));
mount(router, r.listPaymentMethods, async (c, { params }) => c.json(await listPaymentMethods(ctxOf(c), params.id)));

export default router;
