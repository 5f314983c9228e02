/**
 * Private iCalendar feeds: a revocable secret URL per staff member (the bookings of their
 * locations) or for the operator (every location), which any calendar app can subscribe to. The
 * token is shown once and stored as its SHA-256; a revoked or unknown token answers 404.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import type { Ctx } from '../../lib/context';
import { requireAdmin, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { getOwnCustomer } from '../customers/service';
import { calendarFeeds } from '../../db/schema/calendar-sync';
import { calendarUser, feedByToken, feedInTenant, scheduleBookings, scheduleLocations, scheduleUser, type FeedRow } from './queries';
import { feedOut } from './views';
import { eventContent, versionsOf } from './events';
import { renderCalendar } from './ical';

const DAY = 86_400_000;

const feedPath = (token: string) => `/integrations/calendar/feeds/${token}/calendar.ics`;

/** POST /integrations/calendar/feeds */
export async function createFeed(ctx: Ctx, input: { userId?: string; name?: string; origin: string }) {
  const customerId = tenantOf(ctx);
  let name = input.name;
  if (input.userId) {
    const user = await calendarUser(ctx, input.userId);
    name ??= `${user.name}: schedule`;
  } else {
    requireAdmin(ctx);
    name ??= `${(await getOwnCustomer(ctx)).name}: all bookings`;
  }
  const token = `bcf_${randomString(40)}`;
  const row: FeedRow = {
    id: newId('cfd'),
    customerId,
    userId: input.userId ?? null,
    name,
    tokenHash: await sha256Hex(token),
    tokenPrefix: token.slice(0, 8),
    createdBy: ctx.principal.userId,
    revokedAt: null,
    lastFetchedAt: null,
    createdAt: nowIso(ctx),
  };
  await commit(ctx, [ctx.db.insert(calendarFeeds).values(row)], {
    audit: { action: 'calendar_feed.create', targetType: 'calendar_feed', targetId: row.id, details: { userId: row.userId } },
  });
  const base = (ctx.env.PUBLIC_BASE_URL ?? input.origin).replace(/\/$/, '');
  return { ...feedOut(row), token, url: `${base}${feedPath(token)}` };
}

/** GET /integrations/calendar/feeds: an admin sees every feed of the operator, a user their own. */
export async function listFeeds(ctx: Ctx) {
  const customerId = tenantOf(ctx);
  const admin = ctx.principal.role === 'admin' || ctx.principal.permissions.includes('admin');
  const rows = await ctx.db
    .select()
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.customerId, customerId), admin ? undefined : eq(calendarFeeds.userId, ctx.principal.userId ?? '')))
    .orderBy(desc(calendarFeeds.createdAt))
    .all();
  return { data: rows.map(feedOut) };
}

/** DELETE /integrations/calendar/feeds/{feedId}: the URL stops working at once. */
export async function revokeFeed(ctx: Ctx, feedId: string) {
  const customerId = tenantOf(ctx);
  const feed = await feedInTenant(ctx, feedId);
  if (feed.userId) await calendarUser(ctx, feed.userId);
  else requireAdmin(ctx);
  const revokedAt = feed.revokedAt ?? nowIso(ctx);
  if (!feed.revokedAt) {
    await commit(
      ctx,
      [
        ctx.db
          .update(calendarFeeds)
          .set({ revokedAt })
          .where(and(eq(calendarFeeds.id, feed.id), eq(calendarFeeds.customerId, customerId), isNull(calendarFeeds.revokedAt))),
      ],
      { audit: { action: 'calendar_feed.revoke', targetType: 'calendar_feed', targetId: feed.id } },
    );
  }
  return feedOut({ ...feed, revokedAt });
}

/** GET /integrations/calendar/feeds/{feedToken}/calendar.ics: the feed's bookings from 30 days ago to a year ahead. */
export async function renderFeed(ctx: Ctx, token: string): Promise<string> {
  const db = ctx.db;
  const feed = await feedByToken(ctx, token);
  if (!feed || feed.revokedAt) throw notFound('Calendar feed');
  const user = feed.userId ? await scheduleUser(ctx, feed.customerId, feed.userId) : null;
  if (feed.userId && !user) throw notFound('Calendar feed');
  // The operator is known from the feed: its clock (a sandbox test clock's operator reads its clock's time).
  const tctx: Ctx = await onOperatorClock({ ...ctx, principal: { ...ctx.principal, customerId: feed.customerId } }, feed.customerId);
  const locs = await scheduleLocations(tctx, feed.customerId, user ?? null);
  const now = tctx.clock.now();
  const scheduled = await scheduleBookings(tctx, feed.customerId, locs, now - 30 * DAY, now + 365 * DAY);
  const contents = scheduled.map(eventContent);
  const versions = await versionsOf(tctx, feed.customerId, contents);
  ctx.waitUntil(
    db
      .update(calendarFeeds)
      .set({ lastFetchedAt: nowIso(tctx) })
      .where(eq(calendarFeeds.id, feed.id))
      .run()
      .catch(() => undefined),
  );
  return renderCalendar(
    feed.name,
    contents.map((c) => ({ content: c, version: versions.get(c.rentalId)! })),
  );
}
