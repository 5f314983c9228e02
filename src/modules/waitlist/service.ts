/**
 * Waitlist: people waiting for a tour departure or a rental window of one item on one local date.
 *
 * Statuses: `waiting` -> `offered` -> `booked` | `expired` | `cancelled`; `waiting` -> `cancelled` |
 * `closed`. When capacity comes back (a booking cancelled or marked no-show, an offer expired or
 * cancelled) the oldest matching `waiting` entries are offered the spot in order: for each, a hold
 * for exactly that departure/window is reserved through the item's InventoryLock (the lock decides
 * what is really free; a refusal stops the cascade), then one commit() batch writes the offer row,
 * the `holds` row, its allocations, the entry's `offered` state and the offer e-mail. The offer row's
 * entry id is a sub-select of the entry while it is `waiting` (NOT NULL, unique), so an entry that
 * is no longer waiting or was offered before makes the whole batch abort: an entry is never offered
 * twice, and the lock plus the allocation triggers never let one seat be held twice.
 *
 * The hold is an ordinary `holds` row (its id is the offer id): a booking by the same e-mail uses the
 * held seat and marks the hold `consumed` (src/modules/bookings/create.ts); the entry then becomes
 * `booked` (on the next read of it or the cron sweep). Offers expire after 24 hours (or at the
 * departure/window start if sooner): the sweep marks them `expired`, ends the hold and offers the
 * spot to the next waiting entry. Entries whose date (or departure time) has passed become `closed`.
 */
import { and, asc, count, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, systemCtx, tenantOf } from '../../lib/context';
import { commit, type AuditEntry } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { addDays, localDate, localTime } from '../../lib/time';
import type { Env } from '../../env';
import { getDb } from '../../db/client';
import type { Stmt } from '../../db/client';
import { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';
import { allocations } from '../../db/schema/inventory';
import { bookings, holds } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { emailStmt } from '../../adapters/messages';
import { departureAt, departuresOn, existingWallTime, openingBounds, slotLengthMinutes } from '../availability/engine';
import { loadItemContext, type ItemContext } from '../availability/state';
import { isAllocationConflict, releaseAll, reserve, type Reservation } from '../availability/lock';
import { asTenant } from '../holds/service';
import type { CapacityReleased } from '../bookings/lifecycle';

export type EntryRow = typeof waitlistEntries.$inferSelect;
type Status = EntryRow['status'];
type Trigger = (typeof waitlistOffers.$inferSelect)['trigger'];

const MIN = 60_000;
const HOUR = 3_600_000;
/** How long an offer (and its hold) lasts, unless the departure/window starts sooner. */
export const OFFER_TTL_MS = 24 * HOUR;
/** Entries looked at per freed spot. */
const CASCADE_LIMIT = 50;
/** D1 allows 100 bound parameters per statement. */
const CHUNK = 80;

const bad = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });
const iso = (ms: number) => new Date(ms).toISOString();
const changes = (r: unknown) => Number((r as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0);
const errText = (err: unknown) => {
  const e = err as { message?: string; cause?: unknown };
  return `${e?.message ?? err} ${String(e?.cause ?? '')}`;
};
const chunks = <T>(xs: T[], n = CHUNK) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

// ------------------------------------------------------------------------------------------------
// Views

export function entryOut(e: EntryRow) {
  return {
    entryId: e.id,
    customerId: e.customerId,
    locationId: e.locationId,
    inventoryId: e.inventoryId,
    firstName: e.firstName,
    lastName: e.lastName,
    email: e.email,
    date: e.date,
    time: e.time,
    duration: e.duration,
    quantity: e.quantity,
    addons: e.addons ?? null,
    boatAddons: e.boatAddons ?? null,
    giftCardCode: e.giftCardCode,
    refAffiliate: e.refAffiliate,
    status: e.status,
    offer:
      e.offerId && e.offerStart != null && e.offerEnd != null
        ? {
            offerId: e.offerId,
            startTime: iso(e.offerStart),
            endTime: iso(e.offerEnd),
            quantity: e.quantity,
            assetIds: e.offerAssetIds ?? [],
            offeredAt: e.offeredAt ?? e.updatedAt,
            expiresAt: e.offerExpiresAt ?? e.updatedAt,
            bookingUrl: e.offerBookingUrl ?? '',
          }
        : null,
    bookedRentalId: e.bookedRentalId,
    bookedAt: e.bookedAt,
    expiredAt: e.expiredAt,
    cancelledAt: e.cancelledAt,
    closedAt: e.closedAt,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** The link in the offer e-mail: the location's booking page (`details.bookingUrl`) or this API's public day view. */
export function bookingUrl(env: Env, loc: { details: Record<string, unknown> | null }, q: { inventoryId: string; locationId: string; date: string; time: string; quantity: number; entryId: string }) {
  const configured = loc.details?.bookingUrl;
  const base = typeof configured === 'string' && /^https?:\/\//i.test(configured) ? configured : `${(env.PUBLIC_BASE_URL ?? '').replace(/\/$/, '')}/public/day-availability`;
  const params = new URLSearchParams({ inventoryId: q.inventoryId, locationId: q.locationId, date: q.date, time: q.time, quantity: String(q.quantity), waitlistEntryId: q.entryId });
  return `${base}${base.includes('?') ? '&' : '?'}${params.toString()}`;
}

const activeKey = (inventoryId: string, email: string, date: string, time: string | null | undefined) => `${inventoryId}|${email}|${date}|${time ?? ''}`;

// ------------------------------------------------------------------------------------------------
// Join (public)

export interface JoinInput {
  firstName: string;
  lastName: string;
  email: string;
  date: string;
  inventoryId: string;
  locationId: string;
  time?: string;
  duration?: number;
  quantity?: number;
  customerId?: string;
  addons?: unknown;
  boatAddons?: unknown;
  giftCardCode?: string;
  refAffiliate?: string;
}

export async function joinWaitlist(ctx: Ctx, input: JoinInput): Promise<{ entry: ReturnType<typeof entryOut>; created: boolean }> {
  const caller = ctx.principal.customerId;
  if (caller && input.customerId && input.customerId !== caller) throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  const ic = await loadItemContext(ctx.db, input.inventoryId, input.customerId ?? caller ?? null);
  if (ic.row.locationId !== input.locationId) throw notFound('Inventory item at this location');
  const own = caller === ic.row.customerId;
  if (!own && (!ic.row.isPublic || ic.item.model.isPublic === false)) throw notFound('Inventory item');
  const customerId = ic.row.customerId;
  const now = Date.now();
  validateWanted(ic, input, now);

  const email = input.email.trim().toLowerCase();
  const key = activeKey(ic.row.id, email, input.date, input.time);
  const existing = await findActive(ctx, customerId, key);
  if (existing) return { entry: entryOut(await syncOne(ctx.env, existing)), created: false };

  const nowIso = iso(now);
  const row: EntryRow = {
    id: newId('wl'),
    customerId,
    locationId: ic.row.locationId,
    inventoryId: ic.row.id,
    firstName: input.firstName,
    lastName: input.lastName,
    email,
    date: input.date,
    time: input.time ?? null,
    duration: input.duration ?? null,
    quantity: input.quantity ?? 1,
    addons: input.addons ?? null,
    boatAddons: input.boatAddons ?? null,
    giftCardCode: input.giftCardCode ?? null,
    refAffiliate: input.refAffiliate ?? null,
    status: 'waiting',
    activeKey: key,
    offerId: null,
    offerStart: null,
    offerEnd: null,
    offerAssetIds: null,
    offeredAt: null,
    offerExpiresAt: null,
    offerBookingUrl: null,
    bookedAt: null,
    bookedRentalId: null,
    expiredAt: null,
    cancelledAt: null,
    closedAt: null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  const tctx = asTenant(ctx, customerId);
  const when = `${input.date}${input.time ? ` at ${input.time}` : ''}`;
  const mail = emailStmt(tctx, {
    customerId,
    to: email,
    subject: `You are on the waitlist: ${ic.row.name} on ${when}`,
    body: `Hello ${row.firstName},\n\nYou are on the waitlist for ${ic.row.name} (${ic.location.name}) on ${when}${row.quantity > 1 ? ` for ${row.quantity}` : ''}. When a spot opens up we hold it for you and e-mail you a booking link.`,
    template: 'waitlist.joined',
    metadata: { entryId: row.id, inventoryId: row.inventoryId, date: row.date, time: row.time },
  });
  try {
    await commit(tctx, [ctx.db.insert(waitlistEntries).values(row), mail.stmt], {
      audit: { action: 'waitlist.join', targetType: 'waitlist_entry', targetId: row.id, customerId, details: { inventoryId: row.inventoryId, date: row.date, time: row.time, email, quantity: row.quantity } },
    });
  } catch (err) {
    // A concurrent join with the same e-mail, item, date and time won the unique index: answer its entry.
    if (/waitlist_entries\.active_key/.test(errText(err))) {
      const winner = await findActive(ctx, customerId, key);
      if (winner) return { entry: entryOut(winner), created: false };
    }
    throw err;
  }
  return { entry: entryOut(row), created: true };
}

async function findActive(ctx: Ctx, customerId: string, key: string) {
  return ctx.db.select().from(waitlistEntries).where(and(eq(waitlistEntries.customerId, customerId), eq(waitlistEntries.activeKey, key))).get();
}

/** The wanted date/time must exist for the item: a departure of the tour, or a start within a rental's opening hours; not in the past. */
function validateWanted(ic: ItemContext, input: Pick<JoinInput, 'date' | 'time' | 'duration' | 'quantity'>, now: number) {
  const tz = ic.item.timezone;
  const today = localDate(now, tz);
  if (input.date < today) throw bad('date', `The date has passed (today is ${today} at this location)`);
  const quantity = input.quantity ?? 1;
  if (ic.item.kind === 'tour') {
    const deps = departuresOn(ic.item, input.date);
    if (!deps.length) throw bad('date', `The tour has no departures on ${input.date}`);
    if (input.time) {
      const dep = deps.find((d) => d.time === input.time);
      if (!dep) throw bad('time', `${input.time} is not a departure of this tour on ${input.date}; departures: ${deps.map((d) => d.time).join(', ')}`);
      if (dep.start <= now) throw bad('time', `The ${input.time} departure on ${input.date} has already left`);
      if (quantity > dep.capacity) throw bad('quantity', `The ${input.time} departure has ${dep.capacity} seats`);
    } else {
      const ahead = deps.filter((d) => d.start > now);
      if (!ahead.length) throw bad('date', `Every departure on ${input.date} has already left`);
      const most = Math.max(...ahead.map((d) => d.capacity));
      if (quantity > most) throw bad('quantity', `Departures on ${input.date} have at most ${most} seats`);
    }
    return;
  }
  const b = openingBounds(ic.item, input.date);
  if (!b) throw bad('date', `Closed on ${input.date}`);
  const units = ic.item.assets.filter((a) => a.status === 'active').length;
  if (quantity > units) throw bad('quantity', `The item has ${units} unit${units === 1 ? '' : 's'}`);
  if (input.time) {
    const start = existingWallTime(input.date, input.time, tz);
    if (start == null) throw bad('time', `${input.time} does not exist on ${input.date} (clock change)`);
    if (start < b.open || start >= b.close) throw bad('time', `${input.time} is outside the opening hours (${b.openTime}-${b.closeTime}) on ${input.date}`);
    if (start <= now) throw bad('time', `${input.date} ${input.time} has passed`);
  } else if (b.close <= now) {
    throw bad('date', `${input.date} is over at this location`);
  }
}

// ------------------------------------------------------------------------------------------------
// Operator reads

export async function getEntryRow(ctx: Ctx, id: string): Promise<EntryRow> {
  const row = await ctx.db.select().from(waitlistEntries).where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.customerId, tenantOf(ctx)))).get();
  if (!row) throw notFound('Waitlist entry');
  return row;
}

export async function getEntry(ctx: Ctx, id: string) {
  return entryOut(await syncOne(ctx.env, await getEntryRow(ctx, id)));
}

export async function listEntries(ctx: Ctx, q: { inventoryId?: string; locationId?: string; date?: string; status?: Status; email?: string; page: number; limit: number }) {
  const customerId = tenantOf(ctx);
  const conds: SQL[] = [eq(waitlistEntries.customerId, customerId)];
  if (q.inventoryId) conds.push(eq(waitlistEntries.inventoryId, q.inventoryId));
  if (q.locationId) conds.push(eq(waitlistEntries.locationId, q.locationId));
  if (q.date) conds.push(eq(waitlistEntries.date, q.date));
  if (q.email) conds.push(eq(waitlistEntries.email, q.email.toLowerCase()));
  // Offers whose hold a booking used are reported as booked before filtering.
  await syncBooked(ctx.env, await ctx.db.select().from(waitlistEntries).where(and(...conds, eq(waitlistEntries.status, 'offered'))).limit(500).all());
  if (q.status) conds.push(eq(waitlistEntries.status, q.status));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(waitlistEntries)
      .where(where)
      .orderBy(asc(waitlistEntries.date), asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .all(),
    ctx.db.select({ n: count() }).from(waitlistEntries).where(where).get(),
  ]);
  const n = Number(total?.n ?? 0);
  return { data: rows.map(entryOut), pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.ceil(n / q.limit) } };
}

// ------------------------------------------------------------------------------------------------
// Booked: an offer whose hold a booking consumed

async function syncOne(env: Env, e: EntryRow): Promise<EntryRow> {
  if (e.status !== 'offered') return e;
  return (await syncBooked(env, [e])).get(e.id) ?? e;
}

/**
 * Marks `booked` the offered entries whose hold was consumed by a booking of the same e-mail, with
 * the booking that used it when it can be identified. Returns the rows as they are now.
 */
export async function syncBooked(env: Env, rows: EntryRow[], now = new Date()): Promise<Map<string, EntryRow>> {
  const out = new Map(rows.map((r) => [r.id, r]));
  const offered = rows.filter((r) => r.status === 'offered' && r.offerId);
  if (!offered.length) return out;
  const db = getDb(env.DB);
  const consumed = new Set<string>();
  for (const part of chunks(offered.map((r) => r.offerId as string))) {
    const hs = await db.select({ id: holds.id }).from(holds).where(and(inArray(holds.id, part), eq(holds.status, 'consumed'))).all();
    for (const h of hs) consumed.add(h.id);
  }
  for (const e of offered.filter((r) => consumed.has(r.offerId as string))) {
    const rental = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          eq(bookings.customerId, e.customerId),
          eq(bookings.itemId, e.inventoryId),
          sql`lower(json_extract(${bookings.customerInfo}, '$.email')) = ${e.email}`,
          sql`${bookings.createdAt} >= ${e.offeredAt ?? e.createdAt}`,
        ),
      )
      .orderBy(sql`${bookings.start} = ${e.offerStart ?? 0} DESC`, asc(bookings.createdAt))
      .limit(1)
      .get();
    const nowIso = now.toISOString();
    const set = { status: 'booked' as const, bookedAt: nowIso, bookedRentalId: rental?.id ?? null, activeKey: null, updatedAt: nowIso };
    const sctx = systemCtx(env, { customerId: e.customerId });
    const { results } = await commit(sctx, [db.update(waitlistEntries).set(set).where(and(eq(waitlistEntries.id, e.id), eq(waitlistEntries.customerId, e.customerId), eq(waitlistEntries.status, 'offered')))], {
      audit: { action: 'waitlist.booked', targetType: 'waitlist_entry', targetId: e.id, customerId: e.customerId, details: { offerId: e.offerId, rentalId: set.bookedRentalId } },
    });
    if (changes(results[0])) out.set(e.id, { ...e, ...set });
    else {
      const now2 = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, e.id)).get();
      if (now2) out.set(e.id, now2);
    }
  }
  return out;
}

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
async function offerEntry(wctx: Ctx, ic: ItemContext, entry: EntryRow, spot: Spot, trigger: Trigger, triggerSourceId: string | null, now: number): Promise<OfferOutcome> {
  const env = wctx.env;
  const db = wctx.db;
  if (spot.start <= now) return { ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot starts now or has passed', { status: 409 }) };
  const offerId = newId('wlo');
  const expiresAt = Math.min(now + OFFER_TTL_MS, spot.start);
  const isTour = ic.item.kind === 'tour';
  // Tours: a hold line [start, start + 1 ms) takes a seat on that one departure only.
  const line = isTour ? { start: spot.start, end: spot.start + 1 } : { start: spot.start, end: spot.end };
  const taken: Reservation[] = [];
  try {
    for (let i = 0; i < entry.quantity; i++) {
      taken.push(await reserve(env, { customerId: entry.customerId, itemId: ic.row.id, line: { kind: 'hold', sourceId: offerId, ...line, expiresAt } }));
    }
  } catch (err) {
    await releaseAll(env, taken);
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
    const url = bookingUrl(env, ic.location, { inventoryId: ic.row.id, locationId: ic.row.locationId, date, time, quantity: entry.quantity, entryId: entry.id });
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
    const what = `${entry.quantity > 1 ? `${entry.quantity} ${isTour ? 'seats' : 'units'} on ` : ''}${ic.row.name} on ${date} at ${time}`;
    const mail = emailStmt(wctx, {
      customerId: entry.customerId,
      to: entry.email,
      subject: `A spot opened up: ${ic.row.name} on ${date} at ${time}`,
      body:
        `Hello ${entry.firstName},\n\nGood news from ${ic.location.name}: ${what} is held for you until ${localDate(expiresAt, tz)} ${localTime(expiresAt, tz)} (${tz}).\n` +
        `Book it here: ${url}\nBook with this e-mail address (${entry.email}) so the held spot is yours. If you do not book before the hold ends, the spot goes to the next person on the waitlist.`,
      template: 'waitlist.offer',
      metadata: { entryId: entry.id, offerId, inventoryId: ic.row.id, locationId: ic.row.locationId, date, time, quantity: entry.quantity, expiresAt: expIso, bookingUrl: url },
    });
    const statements: Stmt[] = [
      // The guard: NULL (batch aborts) unless the entry is still waiting; unique per entry (never offered twice).
      db.insert(waitlistOffers).values({
        id: offerId,
        customerId: entry.customerId,
        entryId: sql`(SELECT id FROM waitlist_entries WHERE id = ${entry.id} AND customer_id = ${entry.customerId} AND status = 'waiting')` as unknown as string,
        inventoryId: ic.row.id,
        start: spot.start,
        end: spot.end,
        quantity: entry.quantity,
        expiresAt: expIso,
        trigger,
        triggerSourceId,
        createdAt: nowIso,
      }),
      db.insert(holds).values({ id: offerId, customerId: entry.customerId, email: entry.email, inventoryId: ic.row.id, locationId: ic.row.locationId, status: 'active', expiresAt: expIso, createdAt: nowIso, updatedAt: nowIso }),
      ...rows.map((a) => db.insert(allocations).values({ ...a, createdAt: nowIso })),
      db.update(waitlistEntries).set(set).where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.customerId, entry.customerId), eq(waitlistEntries.status, 'waiting'))),
      mail.stmt,
    ];
    await commit(wctx, statements, {
      audit: { action: 'waitlist.offer', targetType: 'waitlist_entry', targetId: entry.id, customerId: entry.customerId, details: { offerId, trigger, triggerSourceId, startTime: iso(spot.start), endTime: iso(spot.end), quantity: entry.quantity, assetIds, expiresAt: expIso } },
    });
    return { ok: true, entry: { ...entry, ...set } };
  } catch (err) {
    if (isAllocationConflict(err)) return { ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot was taken by another sale at the last moment', { status: 409 }) };
    if (/waitlist_offers\.entry_id/.test(errText(err))) return { ok: false, reason: 'lost' };
    throw err;
  } finally {
    await releaseAll(env, taken);
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
 */
export async function cascadeSpot(env: Env, spot: FreedSpot, opts: { now?: Date; requestId?: string; waitUntil?: (p: Promise<unknown>) => void } = {}): Promise<{ offered: string[] }> {
  const db = getDb(env.DB);
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
    .where(and(eq(waitlistEntries.customerId, spot.customerId), eq(waitlistEntries.inventoryId, spot.itemId), eq(waitlistEntries.date, date), eq(waitlistEntries.status, 'waiting')))
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .limit(CASCADE_LIMIT)
    .all();
  const sctx = systemCtx(env, { customerId: spot.customerId, requestId: opts.requestId, waitUntil: opts.waitUntil });
  const now = (opts.now ?? new Date()).getTime();
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

/** The `onSeatsReleased` hook: a cancelled or no-show booking gave its seats/units back. */
export async function onCapacityReleased(ctx: Ctx, e: CapacityReleased) {
  await cascadeSpot(ctx.env, { customerId: e.customerId, itemId: e.itemId, start: e.start, end: e.end, trigger: 'released', triggerSourceId: e.rentalId }, { requestId: ctx.requestId, waitUntil: ctx.waitUntil });
}

/** POST /waitlist/{id}/offer: offers a waiting entry its spot now, if the lock finds room. */
export async function offerManually(ctx: Ctx, id: string, body: { time?: string; duration?: number }) {
  requirePermission(ctx, 'bookings');
  const e = await syncOne(ctx.env, await getEntryRow(ctx, id));
  if (e.status !== 'waiting') throw new ApiError('invalid_state', `The entry is ${e.status}; only waiting entries can be offered`, { status: 409, extra: { status: e.status } });
  const ic = await loadItemContext(ctx.db, e.inventoryId, e.customerId);
  const now = Date.now();
  const tz = ic.item.timezone;
  const time = body.time ?? e.time;
  let spots: Spot[];
  if (ic.item.kind === 'tour') {
    const deps = departuresOn(ic.item, e.date).filter((d) => (!time || d.time === time) && d.start > now);
    if (!deps.length) throw new ApiError('unavailable', time ? `No upcoming departure at ${time} on ${e.date}` : `No upcoming departure on ${e.date}`, { status: 409 });
    spots = deps.map((d) => ({ start: d.start, end: d.end }));
  } else {
    if (!time) throw bad('time', 'This rental entry has no time: give `time` (and `duration`) for the offer');
    const start = existingWallTime(e.date, time, tz);
    if (start == null) throw bad('time', `${time} does not exist on ${e.date} (clock change)`);
    const hours = body.duration ?? e.duration;
    spots = [{ start, end: start + (hours ? hours * HOUR : slotLengthMinutes(ic.item, e.date) * MIN) }];
  }
  let last: ApiError | undefined;
  for (const s of spots) {
    const out = await offerEntry(ctx, ic, e, s, 'manual', ctx.principal.userId ?? ctx.principal.credentialId, now);
    if (out.ok) return entryOut(out.entry);
    if (out.reason === 'lost') throw new ApiError('invalid_state', 'The entry changed while the offer was being made; reload it', { status: 409 });
    last = out.error;
  }
  throw new ApiError('unavailable', `No free capacity for this entry: ${last?.message ?? 'sold out'}`, { status: 409, extra: last?.extra });
}

// ------------------------------------------------------------------------------------------------
// Cancel

/** Statements that end an offer's hold (idempotent: a consumed hold is left alone). */
function endHold(db: Ctx['db'], e: EntryRow, status: 'expired' | 'released'): Stmt[] {
  return [
    db.update(holds).set({ status }).where(and(eq(holds.id, e.offerId as string), eq(holds.customerId, e.customerId), eq(holds.status, 'active'))),
    db.update(allocations).set({ active: false }).where(and(eq(allocations.customerId, e.customerId), eq(allocations.sourceId, e.offerId as string), eq(allocations.kind, 'hold'), eq(allocations.active, true))),
  ];
}

/** Still the same offer, and its hold not used by a booking. */
const offerStillOpen = (e: EntryRow) =>
  and(
    eq(waitlistEntries.id, e.id),
    eq(waitlistEntries.customerId, e.customerId),
    eq(waitlistEntries.status, 'offered'),
    eq(waitlistEntries.offerId, e.offerId as string),
    sql`NOT EXISTS (SELECT 1 FROM holds WHERE holds.id = ${e.offerId} AND holds.status = 'consumed')`,
  );

export async function cancelEntry(ctx: Ctx, id: string) {
  requirePermission(ctx, 'bookings');
  for (let attempt = 0; attempt < 3; attempt++) {
    const e = await syncOne(ctx.env, await getEntryRow(ctx, id));
    if (e.status === 'cancelled') return { ...entryOut(e), alreadyCancelled: true };
    if (e.status !== 'waiting' && e.status !== 'offered') throw new ApiError('invalid_state', `The entry is ${e.status} and can no longer be cancelled`, { status: 409, extra: { status: e.status } });
    const nowIso = new Date().toISOString();
    const set = { status: 'cancelled' as const, cancelledAt: nowIso, activeKey: null, updatedAt: nowIso };
    const audit: AuditEntry = { action: 'waitlist.cancel', targetType: 'waitlist_entry', targetId: e.id, customerId: e.customerId, details: { from: e.status, offerId: e.offerId } };
    if (e.status === 'waiting') {
      const { results } = await commit(ctx, [ctx.db.update(waitlistEntries).set(set).where(and(eq(waitlistEntries.id, e.id), eq(waitlistEntries.customerId, e.customerId), eq(waitlistEntries.status, 'waiting')))], { audit });
      if (changes(results[0])) return { ...entryOut({ ...e, ...set }), alreadyCancelled: false };
      continue;
    }
    const { results } = await commit(ctx, [ctx.db.update(waitlistEntries).set(set).where(offerStillOpen(e)), ...endHold(ctx.db, e, 'released')], { audit });
    if (!changes(results[0])) continue;
    // The held spot goes to the next waiting entry.
    await cascadeSpot(ctx.env, { customerId: e.customerId, itemId: e.inventoryId, start: e.offerStart as number, end: e.offerEnd as number, trigger: 'offer_cancelled', triggerSourceId: e.offerId }, { requestId: ctx.requestId, waitUntil: ctx.waitUntil });
    return { ...entryOut({ ...e, ...set }), alreadyCancelled: false };
  }
  throw new ApiError('version_conflict', 'The entry changed while it was being cancelled; retry', { status: 409 });
}

// ------------------------------------------------------------------------------------------------
// Cron sweep

/** Offers past their expiry (not used by a booking) become `expired`; their hold ends and the spot cascades. */
export async function expireOffers(env: Env, now = new Date()): Promise<{ expired: number; reoffered: number }> {
  const db = getDb(env.DB);
  const due = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, now.toISOString())))
    .orderBy(asc(waitlistEntries.offerExpiresAt))
    .limit(200)
    .all();
  let expired = 0;
  let reoffered = 0;
  for (const e of due) {
    if (!e.offerId || e.offerStart == null || e.offerEnd == null) continue;
    const sctx = systemCtx(env, { customerId: e.customerId });
    const nowIso = now.toISOString();
    const set = { status: 'expired' as const, expiredAt: nowIso, activeKey: null, updatedAt: nowIso };
    const { results } = await commit(sctx, [db.update(waitlistEntries).set(set).where(offerStillOpen(e)), ...endHold(db, e, 'expired')], {
      audit: { action: 'waitlist.offer_expired', targetType: 'waitlist_entry', targetId: e.id, customerId: e.customerId, details: { offerId: e.offerId } },
    });
    if (!changes(results[0])) continue;
    expired++;
    const r = await cascadeSpot(env, { customerId: e.customerId, itemId: e.inventoryId, start: e.offerStart, end: e.offerEnd, trigger: 'offer_expired', triggerSourceId: e.offerId }, { now });
    reoffered += r.offered.length;
  }
  return { expired, reoffered };
}

/** Waiting entries whose date (or wanted departure/start time) has passed become `closed`. */
export async function closePastEntries(env: Env, now = new Date()): Promise<{ closed: number }> {
  const db = getDb(env.DB);
  // Local "today" is at most one day after the UTC date anywhere.
  const horizon = addDays(now.toISOString().slice(0, 10), 1);
  const rows = await db
    .select({ id: waitlistEntries.id, customerId: waitlistEntries.customerId, locationId: waitlistEntries.locationId, date: waitlistEntries.date, time: waitlistEntries.time })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'waiting'), lte(waitlistEntries.date, horizon)))
    .limit(500)
    .all();
  if (!rows.length) return { closed: 0 };
  const zones = new Map<string, string>();
  for (const part of chunks([...new Set(rows.map((r) => r.locationId))])) {
    for (const l of await db.select({ id: locations.id, timezone: locations.timezone }).from(locations).where(inArray(locations.id, part)).all()) zones.set(l.id, l.timezone || 'UTC');
  }
  const t = now.getTime();
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
  const nowIso = now.toISOString();
  for (const [customerId, ids] of byCustomer) {
    for (const part of chunks(ids)) {
      const { results } = await commit(
        systemCtx(env, { customerId }),
        [db.update(waitlistEntries).set({ status: 'closed', closedAt: nowIso, activeKey: null, updatedAt: nowIso }).where(and(eq(waitlistEntries.customerId, customerId), inArray(waitlistEntries.id, part), eq(waitlistEntries.status, 'waiting')))],
        { audit: { action: 'waitlist.close', targetType: 'waitlist_entry', customerId, details: { entryIds: part, reason: 'date_passed' } } },
      );
      closed += changes(results[0]);
    }
  }
  return { closed };
}

/** Cron (every 5 minutes): booked offers, expired offers (re-offered), closed past entries. */
export async function sweepWaitlist(env: Env, now = new Date()) {
  const db = getDb(env.DB);
  const offered = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), sql`EXISTS (SELECT 1 FROM holds WHERE holds.id = ${waitlistEntries.offerId} AND holds.status = 'consumed')`))
    .limit(500)
    .all();
  const synced = await syncBooked(env, offered, now);
  const booked = [...synced.values()].filter((e) => e.status === 'booked').length;
  const exp = await expireOffers(env, now);
  const { closed } = await closePastEntries(env, now);
  return { booked, ...exp, closed };
}
