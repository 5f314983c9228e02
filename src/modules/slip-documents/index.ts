import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import * as svc from './service';

const router = createRouter();

mount(router, r.list, async (c, { query }) => c.json(await svc.listDocuments(ctxOf(c), query)));
mount(router, r.get, async (c, { params }) => c.json(await svc.getDocument(ctxOf(c), params.id)));
mount(router, r.file, async (c, { params }) => {
  const f = await svc.documentFile(ctxOf(c), params.id);
  return c.body(f.bytes, 200, {
    'content-type': f.contentType,
    'content-disposition': `attachment; filename="${f.fileName}"`,
    'x-content-type-options': 'nosniff',
  });
});
mount(router, r.review, async (c, { params, body }) => c.json(await svc.reviewDocument(ctxOf(c), params.id, body)));

export default router;
