import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import { loadPdfFonts } from '../../lib/pdf-fonts';
import * as r from './routes';
import { buildManifest } from './manifest';
import { manifestCsv, manifestPdf } from './print';

const router = createRouter();

/** `format`, else the first of CSV or PDF the Accept header names, else JSON. */
function formatOf(format: string | undefined, accept: string | undefined): 'json' | 'csv' | 'pdf' {
  if (format === 'json' || format === 'csv' || format === 'pdf') return format;
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/csv')) return 'csv';
  if (a.includes('application/pdf')) return 'pdf';
  return 'json';
}

mount(router, r.getManifest, async (c, { params, query }) => {
  const ctx = ctxOf(c);
  const m = await buildManifest(ctx, params.locationId, query);
  const format = formatOf(query.format, c.req.header('accept'));
  const name = `manifest-${m.date}`;
  if (format === 'csv')
    return c.body(manifestCsv(m), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}.csv"`,
      // Renters' personal data, as the reports and renter exports: never kept by a cache.
      'cache-control': 'no-store',
    });
  if (format === 'pdf') {
    await loadPdfFonts(ctx.env.ASSETS);
    const pdf = await manifestPdf(m);
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${name}.pdf"`,
      'cache-control': 'no-store',
    });
  }
  return c.json(m);
});

export default router;
