import { and, asc, eq } from 'drizzle-orm';
import { callerCtx, requirePermission, systemCtxFor, type Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { localDate, localTime } from '../../lib/time';
import { nowMs, todayIn } from '../../lib/clock';
import { formatCalendarDate, formatLocalDateTime } from '../../lib/local-time';
import type { Env } from '../../env';
import { waitlistEntries } from '../../db/schema/waitlist';
import { departureAt, departuresOn, existingWallTime, loadItemContext, slotLengthMinutes, type ItemContext } from '../availability/service';
import type { CapacityReleased } from '../../lib/hooks';
import { entryOut } from './views';
import type { EntryRow, Trigger } from './types';
import { bad, inThePast } from './errors';
import { getEntryRow } from './queries';
import { syncOne } from './booked';
import { offerEntry, type Spot } from './offer-sale';

const MIN = 60_000;
const HOUR = 3_600_000;
/** Entries looked at per freed spot. */
const CASCADE_LIMIT = 50;

// ------------------------------------------------------------------------------------------------
// Offers (one offer is a sale: offer-sale.ts)

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
