/**
 * Keeping provider calendars in step with the bookings of each user's schedule.
 *
 * A sync of one connection: (1) read what changed in the calendar since the stored sync token
 * (all events without one, or when the provider answers 410 because the token expired): events of
 * ours the user deleted lose their link (they are written again), and on a full listing events of
 * ours without a link are adopted instead of duplicated; (2) push every booking of the schedule
 * window whose content changed (insert, update with the bumped SEQUENCE, or delete for cancelled
 * and no-show bookings). The cron job runs an incremental sync of every connection every 5
 * minutes, a cancellation triggers one at once (the `capacity.released` hook), and POST
 * /integrations/calendar/sync runs a full one.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { requirePermission, tenantOf } from '../../lib/context';
import type { Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { ApiError } from '../../lib/errors';
import type { CapacityReleased } from '../../lib/hooks';
import { calendarProvider, type CalendarEventInput, type CalendarProvider } from '../../adapters/calendar';
import { ProviderError } from '../../adapters/simulators';
import { calendarConnections, calendarEventLinks } from '../../db/schema/calendar-sync';
import { accessTokenOf } from './connection';
import { eventContent, versionsOf, type EventContent } from './events';
import { scheduleBookings, scheduleLocations, scheduleUser, type ConnectionRow } from './queries';

const DAY = 86_400_000;
/** The pushed window: from yesterday to 180 days ahead. */
const PUSH_BACK = DAY;
const PUSH_AHEAD = 180 * DAY;

type LinkRow = typeof calendarEventLinks.$inferSelect;

export interface SyncOutcome {
  userId: string;
  connectionId: string;
  full: boolean;
  created: number;
  updated: number;
  deleted: number;
  relinked: number;
  resyncedAfterExpiredToken: boolean;
  error: string | null;
}

function toInput(e: EventContent, sequence: number): CalendarEventInput {
  return {
    uid: e.uid,
    summary: e.summary,
    description: e.description,
    location: e.location,
    start: new Date(e.start).toISOString(),
    end: new Date(e.end).toISOString(),
    status: 'confirmed',
    sequence,
    rentalId: e.rentalId,
  };
}

/** Lists the calendar's changes (incremental, or everything after a 410); returns what it learnt about our events and the next sync token. */
async function reconcile(provider: CalendarProvider, token: string, conn: ConnectionRow, full: boolean) {
  let syncToken = full ? null : conn.syncToken;
  let expired = false;
  const seen: { id: string; rentalId: string; cancelled: boolean }[] = [];
  let next: string | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    seen.length = 0;
    try {
      let pageToken: string | undefined;
      do {
        const page = await provider.listEvents(token, conn.calendarId, { syncToken, pageToken });
        for (const e of page.items) if (e.rentalId) seen.push({ id: e.id, rentalId: e.rentalId, cancelled: e.status === 'cancelled' });
        pageToken = page.nextPageToken;
        next = page.nextSyncToken ?? next;
      } while (pageToken);
      return { fullListing: !syncToken, seen, nextSyncToken: next ?? null, expired };
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'gone' && syncToken) {
        // The sync token expired: list everything again.
        syncToken = null;
        expired = true;
        continue;
      }
      throw err;
    }
  }
  throw new Error('unreachable');
}

export async function syncConnection(ctx: Ctx, conn: ConnectionRow, opts: { full?: boolean } = {}): Promise<SyncOutcome> {
  const out: SyncOutcome = {
    userId: conn.userId,
    connectionId: conn.id,
    full: !!opts.full,
    created: 0,
    updated: 0,
    deleted: 0,
    relinked: 0,
    resyncedAfterExpiredToken: false,
    error: null,
  };
  const provider = calendarProvider(ctx.env);
  if (!provider) return { ...out, error: 'Calendar sync is not configured' };
  const where = and(eq(calendarConnections.id, conn.id), eq(calendarConnections.customerId, conn.customerId));
  try {
    const token = await accessTokenOf(ctx, conn, provider);
    const r = await reconcile(provider, token, conn, !!opts.full || !conn.syncToken);
    out.full = r.fullListing;
    out.resyncedAfterExpiredToken = r.expired;

    const links = new Map<string, LinkRow>();
    for (const l of await ctx.db
      .select()
      .from(calendarEventLinks)
      .where(and(eq(calendarEventLinks.customerId, conn.customerId), eq(calendarEventLinks.connectionId, conn.id)))
      .all())
      links.set(l.rentalId, l);
    const stmts: Stmt[] = [];
    const dropLink = (l: LinkRow) => {
      links.delete(l.rentalId);
      stmts.push(ctx.db.delete(calendarEventLinks).where(and(eq(calendarEventLinks.id, l.id), eq(calendarEventLinks.customerId, conn.customerId))));
    };
    if (r.fullListing) {
      const live = new Map<string, string[]>();
      for (const e of r.seen) if (!e.cancelled) live.set(e.rentalId, [...(live.get(e.rentalId) ?? []), e.id]);
      for (const l of [...links.values()]) if (!live.get(l.rentalId)?.includes(l.eventId)) dropLink(l);
      for (const [rentalId, ids] of live) {
        const link = links.get(rentalId);
        const keep = link?.eventId ?? ids[0];
        // Duplicates of one booking (a link lost earlier): keep one, delete the others.
        for (const id of ids) if (id !== keep) await provider.deleteEvent(token, conn.calendarId, id);
        if (!link) {
          const l: LinkRow = {
            id: newId('cel'),
            customerId: conn.customerId,
            connectionId: conn.id,
            rentalId,
            eventId: keep,
            sequence: -1,
            fingerprint: '',
            createdAt: nowIso(ctx),
            updatedAt: nowIso(ctx),
          };
          links.set(rentalId, l);
          stmts.push(ctx.db.insert(calendarEventLinks).values(l));
          out.relinked++;
        }
      }
    } else {
      for (const e of r.seen) {
        const l = links.get(e.rentalId);
        if (e.cancelled && l?.eventId === e.id) dropLink(l);
      }
    }

    const user = await scheduleUser(ctx, conn.customerId, conn.userId);
    const locs = user ? await scheduleLocations(ctx, conn.customerId, user) : [];
    const now = ctx.clock.now();
    const scheduled = await scheduleBookings(ctx, conn.customerId, locs, now - PUSH_BACK, now + PUSH_AHEAD);
    const contents = scheduled.map(eventContent);
    const versions = await versionsOf(ctx, conn.customerId, contents);
    for (const e of contents) {
      const link = links.get(e.rentalId);
      const fp = versions.get(e.rentalId)!.fingerprint;
      const sequence = versions.get(e.rentalId)!.sequence;
      if (e.cancelled) {
        if (link) {
          await provider.deleteEvent(token, conn.calendarId, link.eventId);
          dropLink(link);
          out.deleted++;
        }
        continue;
      }
      if (link && link.fingerprint === fp && link.sequence === sequence && !opts.full) continue;
      let eventId = link?.eventId;
      if (eventId) {
        try {
          await provider.updateEvent(token, conn.calendarId, eventId, toInput(e, sequence));
          out.updated++;
        } catch (err) {
          if (!(err instanceof ProviderError && (err.kind === 'not_found' || err.kind === 'gone'))) throw err;
          eventId = undefined;
        }
      }
      if (!eventId) {
        eventId = (await provider.insertEvent(token, conn.calendarId, toInput(e, sequence))).id;
        out.created++;
      }
      if (link) {
        stmts.push(
          ctx.db
            .update(calendarEventLinks)
            .set({ eventId, fingerprint: fp, sequence, updatedAt: nowIso(ctx) })
            .where(and(eq(calendarEventLinks.id, link.id), eq(calendarEventLinks.customerId, conn.customerId))),
        );
      } else {
        stmts.push(
          ctx.db
            .insert(calendarEventLinks)
            .values({ id: newId('cel'), customerId: conn.customerId, connectionId: conn.id, rentalId: e.rentalId, eventId, fingerprint: fp, sequence })
            .onConflictDoUpdate({ target: [calendarEventLinks.connectionId, calendarEventLinks.rentalId], set: { eventId, fingerprint: fp, sequence } }),
        );
      }
    }
    const syncedAt = nowIso(ctx);
    stmts.push(
      ctx.db
        .update(calendarConnections)
        .set({
          syncToken: r.nextSyncToken,
          lastSyncAt: syncedAt,
          ...(out.full ? { lastFullSyncAt: syncedAt } : {}),
          status: 'connected',
          lastError: null,
        })
        .where(where),
    );
    for (let i = 0; i < stmts.length; i += 50) await ctx.db.batch(stmts.slice(i, i + 50) as [Stmt, ...Stmt[]]);
    return out;
  } catch (err) {
    const message = err instanceof ApiError || err instanceof ProviderError ? err.message : String(err);
    ctx.log.warn('calendar sync failed', { connectionId: conn.id, error: message });
    await ctx.db
      .update(calendarConnections)
      .set({ lastError: message.slice(0, 500), lastSyncAt: nowIso(ctx) })
      .where(where);
    return { ...out, error: message };
  }
}

/** POST /integrations/calendar/sync: a full sync of every connected calendar of the caller's operator. */
export async function syncNow(ctx: Ctx) {
  requirePermission(ctx, 'integrations');
  const customerId = tenantOf(ctx);
  const conns = await ctx.db.select().from(calendarConnections).where(eq(calendarConnections.customerId, customerId)).all();
  const results: SyncOutcome[] = [];
  for (const c of conns) results.push(await syncConnection(ctx, c, { full: true }));
  return { connections: conns.length, results };
}

/**
 * Cron (every 5 minutes): incremental sync of the connected calendars of the operators in the job's
 * scope, least recently synced first.
 */
export async function syncAll(ctx: Ctx, max = 50) {
  const conns = await ctx.db
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.status, 'connected'), inJobScope(ctx, calendarConnections.customerId)))
    .orderBy(asc(calendarConnections.lastSyncAt))
    .limit(max)
    .all();
  let failed = 0;
  for (const c of conns) if ((await syncConnection(ctx, c)).error) failed++;
  return { synced: conns.length, failed };
}

/**
 * Hook `capacity.released`: a cancelled or no-show booking leaves the calendars that show it at
 * once. Everything runs after the response (no round trip added to the cancellation).
 */
export async function onCapacityReleased(ctx: Ctx, e: CapacityReleased) {
  ctx.waitUntil(removeReleased(ctx, e).catch((err) => ctx.log.warn('calendar update after a release failed', { rentalId: e.rentalId, error: String(err) })));
}

async function removeReleased(ctx: Ctx, e: CapacityReleased) {
  const links = await ctx.db
    .select({ connectionId: calendarEventLinks.connectionId })
    .from(calendarEventLinks)
    .where(and(eq(calendarEventLinks.customerId, e.customerId), eq(calendarEventLinks.rentalId, e.rentalId)))
    .all();
  if (!links.length) return;
  const conns = await ctx.db
    .select()
    .from(calendarConnections)
    .where(
      and(
        eq(calendarConnections.customerId, e.customerId),
        inArray(
          calendarConnections.id,
          links.map((l) => l.connectionId),
        ),
      ),
    )
    .all();
  await Promise.all(conns.map((c) => syncConnection(ctx, c)));
}
