import type { Context } from 'hono';
import { createRouter, mount } from '../../lib/openapi';
import { ctxOf, type AppEnv } from '../../lib/context';
import * as r from './routes';
import { scanCheckIn } from './checkin';
import { calendarFile, walletPass, walletPassFile, walletSaveLink } from './service';

const router = createRouter();
const origin = (c: Context<AppEnv>) => (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/$/, '');

mount(router, r.passA, async (c, { params }) => c.json(await walletPass(ctxOf(c), params.rentalId, origin(c))));
mount(router, r.passADownload, async (c, { params }) => {
  const f = await walletPassFile(ctxOf(c), params.rentalId);
  return c.body(f.bytes, 200, {
    'Content-Type': 'application/vnd.apple.pkpass',
    'Content-Disposition': `attachment; filename="${f.fileName}"`,
    'Cache-Control': 'no-store',
  });
});
mount(router, r.passB, async (c, { params }) => c.json(await walletSaveLink(ctxOf(c), params.rentalId, origin(c))));
mount(router, r.calendar, async (c, { params }) => {
  const f = await calendarFile(ctxOf(c), params.rentalId, origin(c));
  return c.body(f.text, 200, {
    'Content-Type': 'text/calendar; charset=utf-8',
    'Content-Disposition': `attachment; filename="${f.fileName}"`,
    'Cache-Control': 'no-store',
  });
});
mount(router, r.scan, async (c, { body }) => c.json(await scanCheckIn(ctxOf(c), body)));

export default router;
