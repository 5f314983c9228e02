import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { salesJournal, type CsvOut } from './sales-journal';
import { payouts } from './payouts';

const router = createRouter();

const csvResponse = (out: CsvOut) =>
  new Response(out.csv, {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${out.filename}"`, 'cache-control': 'no-store' },
  });

mount(router, r.salesJournal, async (c, { query }) => {
  const out = await salesJournal(ctxOf(c), query);
  return typeof out.csv === 'string' ? csvResponse(out as CsvOut) : c.json(out);
});
mount(router, r.payouts, async (c, { query }) => {
  const out = await payouts(ctxOf(c), query);
  return typeof out.csv === 'string' ? csvResponse(out as CsvOut) : c.json(out);
});

export default router;
