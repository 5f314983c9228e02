import { and, asc, eq, gt, inArray, isNotNull, lte, min, sql } from 'drizzle-orm';
import { callerCtx, systemCtxFor, type Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { addDays, dayBounds, localDate } from '../../lib/time';
import { nowMs } from '../../lib/clock';
import { inJobScope } from '../../lib/job-scope';
import type { Env } from '../../env';
import { waitlistEntries } from '../../db/schema/waitlist';
import { locations } from '../../db/schema/locations';
import { existingWallTime } from '../availability/service';
import { changes, chunks } from './d1-results';
import { syncBooked } from './booked';
import { cascadeSpot } from './offers';
import { endHold, offerStillOpen } from './cancel';

// ------------------------------------------------------------------------------------------------
// Cron sweep

/** Offers past their expiry (not used by a booking) become `expired`; their hold ends and the spot cascades. */
export async function expireOffers(ctx: Ctx): Promise<{ expired: number; reoffered: number }> {
  const db = ctx.db;
  const now = nowMs(ctx);
  const due = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, new Date(now).toISOString()), inJobScope(ctx, waitlistEntries.customerId)),
    )
    .orderBy(asc(waitlistEntries.offerExpiresAt))
    .limit(200)
    .all();
  let expired = 0;
  let reoffered = 0;
  for (const e of due) {
    if (!e.offerId || e.offerStart == null || e.offerEnd == null) continue;
    const sctx = systemCtxFor(ctx, e.customerId);
    const nowIso = new Date(now).toISOString();
    const set = { status: 'expired' as const, expiredAt: nowIso, activeKey: null, updatedAt: nowIso };
    const { results } = await commit(sctx, [db.update(waitlistEntries).set(set).where(offerStillOpen(e)), ...endHold(db, e, 'expired')], {
      audit: { action: 'waitlist.offer_expired', targetType: 'waitlist_entry', targetId: e.id, customerId: e.customerId, details: { offerId: e.offerId } },
    });
    if (!changes(results[0])) continue;
    expired++;
    const r = await cascadeSpot(ctx, {
      customerId: e.customerId,
      itemId: e.inventoryId,
      start: e.offerStart,
      end: e.offerEnd,
      trigger: 'offer_expired',
      triggerSourceId: e.offerId,
    });
    reoffered += r.offered.length;
  }
  return { expired, reoffered };
}

/** Waiting entries whose date (or wanted departure/start time) has passed become `closed`. */
export async function closePastEntries(ctx: Ctx): Promise<{ closed: number }> {
  const db = ctx.db;
  const t = nowMs(ctx);
  // Local "today" is at most one day after the UTC date anywhere.
  const horizon = addDays(localDate(t, 'UTC'), 1);
  const rows = await db
    .select({
      id: waitlistEntries.id,
      customerId: waitlistEntries.customerId,
      locationId: waitlistEntries.locationId,
      date: waitlistEntries.date,
      time: waitlistEntries.time,
    })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'waiting'), lte(waitlistEntries.date, horizon), inJobScope(ctx, waitlistEntries.customerId)))
    .limit(500)
    .all();
  if (!rows.length) return { closed: 0 };
  const zones = new Map<string, string>();
  for (const part of chunks([...new Set(rows.map((r) => r.locationId))])) {
    for (const l of await db.select({ id: locations.id, timezone: locations.timezone }).from(locations).where(inArray(locations.id, part)).all())
      zones.set(l.id, l.timezone || 'UTC');
  }
  const due = rows.filter((r) => {
    const tz = zones.get(r.locationId) ?? 'UTC';
    const today = localDate(t, tz);
    if (r.date < today) return true;
    if (r.date === today && r.time) {
      const start = existingWallTime(r.date, r.time, tz);
      return start != null && start <= t;
    }
    return false;
  });
  const byCustomer = new Map<string, string[]>();
  for (const r of due) byCustomer.set(r.customerId, [...(byCustomer.get(r.customerId) ?? []), r.id]);
  let closed = 0;
  const nowIso = new Date(t).toISOString();
  for (const [customerId, ids] of byCustomer) {
    for (const part of chunks(ids)) {
      const { results } = await commit(
        systemCtxFor(ctx, customerId),
        [
          db
            .update(waitlistEntries)
            .set({ status: 'closed', closedAt: nowIso, activeKey: null, updatedAt: nowIso })
            .where(and(eq(waitlistEntries.customerId, customerId), inArray(waitlistEntries.id, part), eq(waitlistEntries.status, 'waiting'))),
        ],
        { audit: { action: 'waitlist.close', targetType: 'waitlist_entry', customerId, details: { entryIds: part, reason: 'date_passed' } } },
      );
      closed += changes(results[0]);
    }
  }
  return { closed };
}

/** Cron (every 5 minutes): booked offers, expired offers (re-offered), closed past entries. Takes a context (or a bare env). */
export async function sweepWaitlist(from: Ctx | Env) {
  const ctx = callerCtx(from);
  const db = ctx.db;
  const offered = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.status, 'offered'),
        sql`EXISTS (SELECT 1 FROM holds WHERE holds.id = ${waitlistEntries.offerId} AND holds.status = 'consumed')`,
        inJobScope(ctx, waitlistEntries.customerId),
      ),
    )
    .limit(500)
    .all();
  const synced = await syncBooked(ctx, offered);
  const booked = [...synced.values()].filter((e) => e.status === 'booked').length;
  const exp = await expireOffers(ctx);
  const { closed } = await closePastEntries(ctx);
  return { booked, ...exp, closed };
}

/** The instant a waiting entry's wish passes: its wanted start, else the end of its local day. */
function closesAt(e: { date: string; time: string | null }, tz: string): number {
  const start = e.time ? existingWallTime(e.date, e.time, tz) : null;
  return start ?? dayBounds(e.date, tz).end;
}

/**
 * When the sweep next has work (its `nextDue`): the earliest offer expiry, or the earliest instant a
 * waiting entry's date or wanted time passes, after now.
 */
export async function nextWaitlistDue(ctx: Ctx): Promise<number | null> {
  const db = ctx.db;
  const now = nowMs(ctx);
  const scope = inJobScope(ctx, waitlistEntries.customerId);
  const [offer, waiting] = await db.batch([
    db
      .select({ at: min(waitlistEntries.offerExpiresAt) })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.status, 'offered'), gt(waitlistEntries.offerExpiresAt, new Date(now).toISOString()), scope)),
    db
      .selectDistinct({ locationId: waitlistEntries.locationId, date: waitlistEntries.date, time: waitlistEntries.time, timezone: locations.timezone })
      .from(waitlistEntries)
      .innerJoin(locations, eq(locations.id, waitlistEntries.locationId))
      .where(and(eq(waitlistEntries.status, 'waiting'), isNotNull(waitlistEntries.date), gt(waitlistEntries.date, addDays(localDate(now, 'UTC'), -2)), scope))
      .orderBy(asc(waitlistEntries.date))
      .limit(100),
  ]);
  const dues = waiting.map((e) => closesAt(e, e.timezone || 'UTC'));
  if (offer[0]?.at) dues.push(Date.parse(offer[0].at));
  const ahead = dues.filter((d) => d > now);
  return ahead.length ? Math.min(...ahead) : null;
}
