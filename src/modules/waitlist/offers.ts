import { and, asc, eq, sql } from 'drizzle-orm';
import { callerCtx, requirePermission, systemCtxFor, type Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localDate, localTime } from '../../lib/time';
import { nowMs, todayIn } from '../../lib/clock';
import { formatCalendarDate, formatLocalDateTime, formatLocalRange } from '../../lib/local-time';
import type { Env } from '../../env';
import type { Stmt } from '../../db/client';
import { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';
import { holds } from '../../db/schema/bookings';
import { emailStmt } from '../../adapters/messages';
import {
  allocationInserts,
  departureAt,
  departuresOn,
  existingWallTime,
  isAllocationConflict,
  loadItemContext,
  releaseAll,
  reserve,
  slotLengthMinutes,
  type ItemContext,
  type Reservation,
} from '../availability/service';
import type { CapacityReleased } from '../../lib/hooks';
import { bookingUrl, entryOut, iso } from './views';
import type { EntryRow, Trigger } from './types';
import { bad, inThePast } from './errors';
import { errText } from './d1-results';
import { getEntryRow } from './queries';
import { syncOne } from './booked';

const MIN = 60_000;
const HOUR = 3_600_000;
/** How long an offer (and its hold) lasts, unless the departure/window starts sooner. */
export const OFFER_TTL_MS = 24 * HOUR;
/** Entries looked at per freed spot. */
const CASCADE_LIMIT = 50;

// ------------------------------------------------------------------------------------------------
// Offers

interface Spot {
  start: number;
  end: number;
}

type OfferOutcome = { ok: true; entry: EntryRow } | { ok: false; reason: 'unavailable' | 'lost'; error?: ApiError };

/**
 * Offers one entry a spot: reserves `quantity` hold units for exactly that departure/window in the
 * item's lock (one seat or unit per reservation), then commits the offer in one batch. `unavailable`:
 * the lock (or the D1 guard) refused; `lost`: the entry was no longer waiting or was offered already.
 */
async function offerEntry(
  wctx: Ctx,
  ic: ItemContext,
  entry: EntryRow,
  spot: Spot,
  trigger: Trigger,
  triggerSourceId: string | null,
  now: number,
): Promise<OfferOutcome> {
  const env = wctx.env;
  const db = wctx.db;
  if (spot.start <= now) return { ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot starts now or has passed') };
  const offerId = newId('wlo');
  const expiresAt = Math.min(now + OFFER_TTL_MS, spot.start);
  const isTour = ic.item.kind === 'tour';
  // Tours: a hold line [start, start + 1 ms) takes a seat on that one departure only.
  const line = isTour ? { start: spot.start, end: spot.start + 1 } : { start: spot.start, end: spot.end };
  const taken: Reservation[] = [];
  try {
    for (let i = 0; i < entry.quantity; i++) {
      taken.push(await reserve(wctx, { customerId: entry.customerId, itemId: ic.row.id, line: { kind: 'hold', sourceId: offerId, ...line, expiresAt } }));
    }
  } catch (err) {
    await releaseAll(wctx, taken);
    if (err instanceof ApiError && err.status === 409) return { ok: false, reason: 'unavailable', error: err };
    throw err;
  }
  try {
    const rows = taken.flatMap((r) => r.allocations);
    const assetIds = rows.filter((r) => r.assetId).map((r) => r.assetId as string);
    const tz = ic.item.timezone;
    const date = localDate(spot.start, tz);
    const time = localTime(spot.start, tz);
    const nowIso = iso(now);
    const expIso = iso(expiresAt);
    const url = bookingUrl(env.PUBLIC_BASE_URL, ic.location, {
      inventoryId: ic.row.id,
      locationId: ic.row.locationId,
      date,
      time,
      quantity: entry.quantity,
      entryId: entry.id,
    });
    const set = {
      status: 'offered' as const,
      offerId,
      offerStart: spot.start,
      offerEnd: spot.end,
      offerAssetIds: assetIds,
      offeredAt: nowIso,
      offerExpiresAt: expIso,
      offerBookingUrl: url,
      updatedAt: nowIso,
    };
    // Times a person reads: the location's, e.g. "Sat 12 Dec 2026, 10:00 EST" (lib/local-time.ts).
    const when = isTour ? formatLocalDateTime(spot.start, tz) : formatLocalRange(spot.start, spot.end, tz);
    const what = `${entry.quantity > 1 ? `${entry.quantity} ${isTour ? 'seats' : 'units'} on ` : ''}${ic.row.name} on ${when}`;
    const mail = emailStmt(wctx, {
      customerId: entry.customerId,
      to: entry.email,
      subject: `A spot opened up: ${ic.row.name} on ${formatLocalDateTime(spot.start, tz)}`,
      body:
        `Hello ${entry.firstName},\n\nGood news from ${ic.location.name}: ${what} is held for you until ${formatLocalDateTime(expiresAt, tz)}.\n` +
        `Book it here: ${url}\nBook with this e-mail address (${entry.email}) so the held spot is yours. If you do not book before the hold ends, the spot goes to the next person on the waitlist.`,
      template: 'waitlist.offer',
      metadata: {
        entryId: entry.id,
        offerId,
        inventoryId: ic.row.id,
        locationId: ic.row.locationId,
        date,
        time,
        quantity: entry.quantity,
        expiresAt: expIso,
        bookingUrl: url,
      },
    });
    const statements: Stmt[] = [
      // The guard: NULL (batch aborts) unless the entry is still waiting; unique per entry (never offered twice).
      db.insert(waitlistOffers).values({
        id: offerId,
        customerId: entry.customerId,
        entryId:
          sql`(SELECT id FROM waitlist_entries WHERE id = ${entry.id} AND customer_id = ${entry.customerId} AND status = 'waiting')` as unknown as string,
        inventoryId: ic.row.id,
        start: spot.start,
        end: spot.end,
        quantity: entry.quantity,
        expiresAt: expIso,
        trigger,
        triggerSourceId,
        createdAt: nowIso,
      }),
      db.insert(holds).values({
        id: offerId,
        customerId: entry.customerId,
        email: entry.email,
        inventoryId: ic.row.id,
        locationId: ic.row.locationId,
        status: 'active',
        expiresAt: expIso,
        createdAt: nowIso,
        updatedAt: nowIso,
      }),
      ...allocationInserts(wctx, taken, nowIso),
      db
        .update(waitlistEntries)
        .set(set)
        .where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.customerId, entry.customerId), eq(waitlistEntries.status, 'waiting'))),
      mail.stmt,
    ];
    await commit(wctx, statements, {
      audit: {
        action: 'waitlist.offer',
        targetType: 'waitlist_entry',
        targetId: entry.id,
        customerId: entry.customerId,
        details: {
          offerId,
          trigger,
          triggerSourceId,
          startTime: iso(spot.start),
          endTime: iso(spot.end),
          quantity: entry.quantity,
          assetIds,
          expiresAt: expIso,
        },
      },
    });
    return { ok: true, entry: { ...entry, ...set } };
  } catch (err) {
    if (isAllocationConflict(err))
      return { ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot was taken by another sale at the last moment') };
    if (/waitlist_offers\.entry_id/.test(errText(err))) return { ok: false, reason: 'lost' };
    throw err;
  } finally {
    await releaseAll(wctx, taken);
  }
}

/** Where an entry would be offered inside a freed spot, or null when the entry does not match it. */
function windowFor(ic: ItemContext, e: EntryRow, spot: Spot): Spot | null {
  const tz = ic.item.timezone;
  if (ic.item.kind === 'tour') return !e.time || e.time === localTime(spot.start, tz) ? spot : null;
  if (!e.time) return spot;
  const start = existingWallTime(e.date, e.time, tz);
  if (start == null) return null;
  const end = start + (e.duration ? e.duration * HOUR : slotLengthMinutes(ic.item, e.date) * MIN);
  return start < spot.end && spot.start < end ? { start, end } : null;
}

export interface FreedSpot {
  customerId: string;
  itemId: string;
  start: number;
  end: number;
  trigger: Exclude<Trigger, 'manual'>;
  triggerSourceId: string | null;
}

/**
 * Offers a freed spot to the oldest matching waiting entries, in order, while the lock finds room.
 * The queue is strict: when the oldest matching entry does not fit (a refusal of the lock), later
 * entries are not offered (first come, first served); operators can still offer by hand.
 * Takes the caller's context (or, from jobs, tests and scripts, a bare env); offers are made as the system.
 */
export async function cascadeSpot(from: Ctx | Env, spot: FreedSpot): Promise<{ offered: string[] }> {
  const ctx = callerCtx(from, { customerId: spot.customerId });
  const db = ctx.db;
  const any = await db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.customerId, spot.customerId), eq(waitlistEntries.inventoryId, spot.itemId), eq(waitlistEntries.status, 'waiting')))
    .limit(1)
    .get();
  if (!any) return { offered: [] };
  let ic: ItemContext;
  try {
    ic = await loadItemContext(db, spot.itemId, spot.customerId);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { offered: [] };
    throw err;
  }
  let freed: Spot = { start: spot.start, end: spot.end };
  if (ic.item.kind === 'tour') {
    const dep = departureAt(ic.item, spot.start);
    if (!dep) return { offered: [] };
    freed = { start: dep.start, end: dep.end };
  }
  const date = localDate(freed.start, ic.item.timezone);
  const candidates = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.customerId, spot.customerId),
        eq(waitlistEntries.inventoryId, spot.itemId),
        eq(waitlistEntries.date, date),
        eq(waitlistEntries.status, 'waiting'),
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .limit(CASCADE_LIMIT)
    .all();
  const sctx = systemCtxFor(ctx, spot.customerId);
  const now = nowMs(ctx);
  const offered: string[] = [];
  for (const e of candidates) {
    const w = windowFor(ic, e, freed);
    if (!w) continue;
    const out = await offerEntry(sctx, ic, e, w, spot.trigger, spot.triggerSourceId, now);
    if (out.ok) offered.push(e.id);
    else if (out.reason === 'unavailable') break;
  }
  return { offered };
}

/** Listener of the `capacity.released` hook: a cancelled or no-show booking gave its seats/units back. */
export async function onCapacityReleased(ctx: Ctx, e: CapacityReleased) {
  await cascadeSpot(ctx, { customerId: e.customerId, itemId: e.itemId, start: e.start, end: e.end, trigger: 'released', triggerSourceId: e.rentalId });
}

/** POST /waitlist/{id}/offer: offers a waiting entry its spot now, if the lock finds room. */
export async function offerManually(ctx: Ctx, id: string, body: { time?: string; duration?: number }) {
  requirePermission(ctx, 'bookings');
  const e = await syncOne(ctx, await getEntryRow(ctx, id));
  if (e.status !== 'waiting')
    throw new ApiError('invalid_state', `The entry is ${e.status}; only waiting entries can be offered`, { extra: { status: e.status } });
  const ic = await loadItemContext(ctx.db, e.inventoryId, e.customerId);
  const now = nowMs(ctx);
  const tz = ic.item.timezone;
  const time = body.time ?? e.time;
  // A date already past at the location (on the operator's clock) is 400 `in_the_past`, nothing held.
  const today = todayIn(ctx, tz);
  if (e.date < today)
    throw inThePast('date', `The entry's date (${formatCalendarDate(e.date)}) has passed: today is ${formatCalendarDate(today)} at this location`);
  let spots: Spot[];
  if (ic.item.kind === 'tour') {
    const all = departuresOn(ic.item, e.date).filter((d) => !time || d.time === time);
    const deps = all.filter((d) => d.start > now);
    if (all.length && !deps.length)
      throw inThePast('time', time ? `The ${time} departure on ${e.date} has already left` : `Every departure on ${e.date} has already left`);
    if (!deps.length) throw new ApiError('unavailable', time ? `No upcoming departure at ${time} on ${e.date}` : `No upcoming departure on ${e.date}`);
    spots = deps.map((d) => ({ start: d.start, end: d.end }));
  } else {
    if (!time) throw bad('time', 'This rental entry has no time: give `time` (and `duration`) for the offer');
    const start = existingWallTime(e.date, time, tz);
    if (start == null) throw bad('time', `${time} does not exist on ${e.date} (clock change)`);
    if (start <= now) throw inThePast('time', `${e.date} ${time} has passed: it is ${formatLocalDateTime(now, tz)} at the location`);
    const hours = body.duration ?? e.duration;
    spots = [{ start, end: start + (hours ? hours * HOUR : slotLengthMinutes(ic.item, e.date) * MIN) }];
  }
  let last: ApiError | undefined;
  for (const s of spots) {
    const out = await offerEntry(ctx, ic, e, s, 'manual', ctx.principal.userId ?? ctx.principal.credentialId, now);
    if (out.ok) return entryOut(out.entry);
    if (out.reason === 'lost') throw new ApiError('invalid_state', 'The entry changed while the offer was being made; reload it');
    last = out.error;
  }
  throw new ApiError('unavailable', `No free capacity for this entry: ${last?.message ?? 'sold out'}`, { extra: last?.extra });
}
