import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { documentFile, reviewDocument } from './documents';
import { getDocument, listDocuments } from './queries';

const router = createRouter();

mount(router, r.list, async (c, { query }) => c.json(await listDocuments(ctxOf(c), query)));
mount(router, r.get, async (c, { params }) => c.json(await getDocument(ctxOf(c), params.id)));
mount(router, r.file, async (c, { params }) => {
  const f = await documentFile(ctxOf(c), params.id);
  return c.body(f.bytes, 200, {
    'content-type': f.contentType,
    'content-disposition': `attachment; filename="${f.fileName}"`,
    'x-content-type-options': 'nosniff',
  });
});
mount(router, r.review, async (c, { params, body }) => c.json(await reviewDocument(ctxOf(c), params.id, body)));

export default router;
