/**
 * D1 read replication for public reads (the booking widget). A request runs its queries in one D1
 * session (`env.DB.withSession(...)`): reads may be served by a nearby read replica, and every read
 * of the session sees at least what the bookmark it started from saw. The answer carries the
 * session's latest bookmark in `X-D1-Bookmark`; a client that sends it back on its next request
 * (the widget does) never reads older data than it already saw, in particular its own booking
 * right after placing it (the booking is written on the primary and its bookmark handed back).
 */
import type { Context } from 'hono';
import { getDb } from '../db/client';
import { ctxOf, type AppEnv, type Ctx } from './context';

export const BOOKMARK_HEADER = 'x-d1-bookmark';

/** D1 bookmarks are opaque short strings; anything else is ignored (the session then starts unconstrained). */
const BOOKMARK = /^[A-Za-z0-9._:-]{1,200}$/;

export interface SessionCtx {
  ctx: Ctx;
  /** Sets `X-D1-Bookmark` on the answer being built (call it after the queries, before `c.json`). */
  stamp(): void;
}

/**
 * A context whose `db` runs in one D1 session: `read` starts from the caller's bookmark (or
 * anywhere), `write` starts on the primary (a booking). Where the binding has no sessions (older
 * runtimes), the plain binding is used and no bookmark is answered.
 */
export function sessionCtx(c: Context<AppEnv>, mode: 'read' | 'write' = 'read'): SessionCtx {
  const ctx = ctxOf(c);
  const sent = c.req.header(BOOKMARK_HEADER);
  const d1 = c.env.DB;
  if (typeof d1.withSession !== 'function') return { ctx, stamp: () => undefined };
  const start = sent && BOOKMARK.test(sent) ? sent : mode === 'write' ? 'first-primary' : 'first-unconstrained';
  const session = d1.withSession(start);
  return {
    ctx: { ...ctx, db: getDb(session as unknown as D1Database) },
    stamp: () => {
      const b = session.getBookmark();
      if (b) c.header(BOOKMARK_HEADER, b);
    },
  };
}
