import { createRouter, mount } from '../../lib/openapi';
import { ctxOf } from '../../lib/context';
import * as r from './routes';
import { calendars, callback, chooseCalendar, connect, disconnect, status } from './connection';
import { createFeed, listFeeds, renderFeed, revokeFeed } from './feeds';
import { syncNow } from './push';

const router = createRouter();
const origin = (url: string) => new URL(url).origin;

mount(router, r.connect, async (c, { query }) => c.json(await connect(ctxOf(c), { ...query, origin: origin(c.req.url) })));
mount(router, r.callback, async (c, { query }) => {
  const res = await callback(ctxOf(c), query);
  if (res.kind === 'redirect') return c.redirect(res.url, 302);
  return c.html(res.html, 200, res.headers);
});
mount(router, r.disconnect, async (c, { body }) => c.json(await disconnect(ctxOf(c), body.userId)));
mount(router, r.status, async (c, { query }) => c.json(await status(ctxOf(c), query.userId)));
mount(router, r.calendars, async (c, { query }) => c.json(await calendars(ctxOf(c), query.userId)));
mount(router, r.chooseCalendar, async (c, { body }) => c.json(await chooseCalendar(ctxOf(c), body)));
mount(router, r.sync, async (c) => c.json(await syncNow(ctxOf(c))));
mount(router, r.createFeed, async (c, { body }) => c.json(await createFeed(ctxOf(c), { ...body, origin: origin(c.req.url) }), 201));
mount(router, r.listFeeds, async (c) => c.json(await listFeeds(ctxOf(c))));
mount(router, r.revokeFeed, async (c, { params }) => c.json(await revokeFeed(ctxOf(c), params.feedId)));
mount(router, r.feed, async (c, { params }) => {
  const body = await renderFeed(ctxOf(c), params.feedToken);
  return c.body(body, 200, {
    'content-type': 'text/calendar; charset=utf-8',
    'cache-control': 'private, max-age=300',
    'content-disposition': 'inline; filename="calendar.ics"',
  });
});

export default router;
