import { and, eq, inArray, isNotNull, min, or, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso, todayIn } from '../../lib/clock';
import { formatCalendarRange } from '../../lib/local-time';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import type { SlipBoat } from '../../db/schema/slip-reservations';
import { slipWaitlistEntries as E, slipWaitlistOffers as O } from '../../db/schema/slip-waitlist';
import { emailStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { getRenterInTenant, isRenterEmailConflict, renterUpsert } from '../renters/service';
import { getSlipSettings } from '../marina-settings/service';
import { checkAvailability, pastDate } from '../slip-reservations/service';
import { fitUnit, getSlipRow, type SlipRow } from '../slips/service';
import type * as s from './schemas';
import { bottomOf, entryDetail, entryView, entryViews, getEntryRow, pageOfEntries, topOf } from './queries';
import type { EntryRow } from './views';

type BoatIn = z.output<typeof s.CreateBody>['boat'];

export const boatOf = (b: BoatIn & Partial<SlipBoat>): SlipBoat => ({
  vesselName: b.vesselName,
  loaFt: b.loaFt,
  beamFt: b.beamFt ?? null,
  draftFt: b.draftFt ?? null,
  airDraftFt: b.airDraftFt ?? null,
  registration: b.registration ?? null,
  make: b.make ?? null,
  model: b.model ?? null,
  year: b.year ?? null,
  vesselType: b.vesselType ?? null,
});

function checkWish(w: { arrivalDate?: string | null; departureDate?: string | null }) {
  if ((w.arrivalDate == null) !== (w.departureDate == null))
    throw new ApiError('validation_failed', 'Give both arrivalDate and departureDate, or neither', {
      details: [{ field: w.arrivalDate == null ? 'arrivalDate' : 'departureDate', message: 'give both dates or neither' }],
    });
  if (w.arrivalDate && w.departureDate && !(w.departureDate > w.arrivalDate))
    throw new ApiError('validation_failed', 'departureDate must be after arrivalDate', {
      details: [{ field: 'departureDate', message: 'must be after arrivalDate' }],
    });
}

/** 400 `in_the_past`: a wish whose arrival is before today at the location (its calendar, on the clock). */
function notPast(ctx: Ctx, arrivalDate: string | null | undefined, tz: string) {
  if (!arrivalDate) return;
  const today = todayIn(ctx, tz);
  if (arrivalDate < today) throw pastDate('arrivalDate', arrivalDate, today);
}

const isOpenEntryConflict = (err: unknown) =>
  /UNIQUE constraint failed: slip_waitlist_entries\.customer_id, slip_waitlist_entries\.location_id, slip_waitlist_entries\.renter_id/.test(
    `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`,
  );

async function openEntryOf(ctx: Ctx, locationId: string, renterId: string, rateType: string) {
  return await ctx.db
    .select()
    .from(E)
    .where(
      and(
        eq(E.customerId, tenantOf(ctx)),
        eq(E.locationId, locationId),
        eq(E.renterId, renterId),
        eq(E.rateType, rateType as EntryRow['rateType']),
        inArray(E.status, ['waiting', 'offered']),
      ),
    )
    .get();
}

interface JoinInput {
  locationId: string;
  renterId?: string;
  renter?: { firstName: string; lastName: string; email: string; phone?: string };
  boat: BoatIn;
  unitType?: EntryRow['unitType'];
  section?: string | null;
  preferredSlipId?: string | null;
  rateType: EntryRow['rateType'];
  arrivalDate?: string;
  departureDate?: string;
  season?: string;
  notes?: string;
}

/**
 * Adds an entry at the bottom of the location's queue (the position is computed in the INSERT).
 * A renter has one open entry per location and rate type: joining again answers the open entry
 * (`created` false) and changes nothing.
 */
export async function addEntry(ctx: Ctx, input: JoinInput, source: 'staff' | 'public', mail?: (row: EntryRow) => Stmt) {
  const customerId = tenantOf(ctx);
  const loc = await getLocationInTenant(ctx, input.locationId);
  checkWish(input);
  notPast(ctx, input.arrivalDate, loc.timezone);
  if (input.preferredSlipId) {
    const slip = await getSlipRow(ctx, input.preferredSlipId);
    if (slip.locationId !== input.locationId) throw new ApiError('bad_request', 'preferredSlipId is a unit of another location');
  }
  for (let attempt = 0; ; attempt++) {
    let renterId: string;
    let snapshot: EntryRow['renter'];
    const stmts: Stmt[] = [];
    const events: DomainEvent[] = [];
    if (input.renterId) {
      const r = await getRenterInTenant(ctx, input.renterId);
      renterId = r.id;
      snapshot = { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone };
    } else if (input.renter) {
      const up = await renterUpsert(ctx, { customerId, ...input.renter, phone: input.renter.phone });
      renterId = up.renterId;
      snapshot = { firstName: input.renter.firstName, lastName: input.renter.lastName, email: input.renter.email, phone: input.renter.phone ?? null };
      stmts.push(...up.statements);
      events.push(...up.events);
    } else
      throw new ApiError('validation_failed', 'Give renterId or renter', {
        details: [{ field: 'renter', code: 'required', message: 'renterId or renter is required' }],
      });
    const open = await openEntryOf(ctx, input.locationId, renterId, input.rateType);
    if (open) return { created: false, entry: open };
    const now = nowIso(ctx);
    const row: EntryRow = {
      id: newId('swl'),
      customerId,
      locationId: input.locationId,
      renterId,
      renter: snapshot,
      boat: boatOf(input.boat),
      unitType: input.unitType ?? null,
      section: input.section ?? null,
      preferredSlipId: input.preferredSlipId ?? null,
      rateType: input.rateType,
      arrivalDate: input.arrivalDate ?? null,
      departureDate: input.departureDate ?? null,
      season: input.season ?? null,
      status: 'waiting',
      position: 0,
      source,
      notes: input.notes ?? null,
      offerCount: 0,
      declineCount: 0,
      acceptedReservationId: null,
      acceptedAt: null,
      cancelledAt: null,
      cancelReason: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await commit(
        ctx,
        [...stmts, ctx.db.insert(E).values({ ...row, position: bottomOf(customerId, input.locationId) as unknown as number }), ...(mail ? [mail(row)] : [])],
        {
          audit: { action: 'slip_waitlist.create', targetType: 'slip_waitlist_entry', targetId: row.id, details: { source, rateType: row.rateType } },
          events,
        },
      );
    } catch (err) {
      // A racing join of the same renter (the open-entry index), or a first-time renter created meanwhile: answer what is there.
      if ((isOpenEntryConflict(err) || isRenterEmailConflict(err)) && attempt < 2) continue;
      throw err;
    }
    return { created: true, entry: await getEntryRow(ctx, row.id) };
  }
}

/** Staff add an entry; `created` false when the renter's open entry was answered unchanged (200, as on the public form). */
export async function createEntry(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  const { created, entry } = await addEntry(ctx, input, 'staff');
  return { created, entry: await entryView(ctx, entry) };
}

export async function getEntry(ctx: Ctx, id: string) {
  return await entryDetail(ctx, await getEntryRow(ctx, id));
}

export async function listEntries(ctx: Ctx, q: z.output<typeof s.ListQuery>) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, q.locationId);
  const conds: SQL[] = [eq(E.customerId, customerId), eq(E.locationId, q.locationId)];
  if (q.status) conds.push(eq(E.status, q.status));
  if (q.rateType) conds.push(eq(E.rateType, q.rateType));
  if (q.unitType) conds.push(eq(E.unitType, q.unitType));
  if (q.q) {
    const p = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conds.push(
      or(
        sql`json_extract(${E.renter}, '$.firstName') || ' ' || json_extract(${E.renter}, '$.lastName') LIKE ${p} ESCAPE '\\'`,
        sql`json_extract(${E.renter}, '$.email') LIKE ${p} ESCAPE '\\'`,
        sql`json_extract(${E.boat}, '$.vesselName') LIKE ${p} ESCAPE '\\'`,
      )!,
    );
  }
  return await pageOfEntries(ctx, and(...conds)!, q.limit, q.offset);
}

export async function entriesOfRenter(ctx: Ctx, renterId: string, q: { limit: number; offset: number }) {
  const r = await getRenterInTenant(ctx, renterId, { includeDeleted: true });
  return await pageOfEntries(ctx, and(eq(E.customerId, r.customerId), eq(E.renterId, r.id))!, q.limit, q.offset);
}

export async function updateEntry(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one field to change');
  if (e.status === 'cancelled' || e.status === 'accepted') throw new ApiError('invalid_state', `A ${e.status} waitlist entry cannot be changed`);
  if (e.status === 'offered' && fields.some((f) => f !== 'notes'))
    throw new ApiError('invalid_state', 'The entry has an open offer: only notes can change until it is answered or withdrawn (cancel)');
  const patch: Partial<EntryRow> = {};
  if (input.boat) patch.boat = boatOf({ ...e.boat, ...input.boat } as BoatIn);
  if (input.unitType !== undefined) patch.unitType = input.unitType;
  if (input.section !== undefined) patch.section = input.section;
  if (input.preferredSlipId !== undefined) {
    if (input.preferredSlipId) {
      const slip = await getSlipRow(ctx, input.preferredSlipId);
      if (slip.locationId !== e.locationId) throw new ApiError('bad_request', 'preferredSlipId is a unit of another location');
    }
    patch.preferredSlipId = input.preferredSlipId;
  }
  if (input.rateType !== undefined) patch.rateType = input.rateType;
  if (input.arrivalDate !== undefined) patch.arrivalDate = input.arrivalDate;
  if (input.departureDate !== undefined) patch.departureDate = input.departureDate;
  if (input.season !== undefined) patch.season = input.season;
  if (input.notes !== undefined) patch.notes = input.notes;
  checkWish({ arrivalDate: patch.arrivalDate ?? e.arrivalDate, departureDate: patch.departureDate ?? e.departureDate });
  // A new arrival date is today at the earliest; one already past may stay.
  if (patch.arrivalDate && patch.arrivalDate !== e.arrivalDate) notPast(ctx, patch.arrivalDate, (await getLocationInTenant(ctx, e.locationId)).timezone);
  const set: Record<string, unknown> = { ...patch, updatedAt: nowIso(ctx) };
  if (input.moveTo) set.position = input.moveTo === 'top' ? topOf(e.customerId, e.locationId) : bottomOf(e.customerId, e.locationId);
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(E)
          .set(set)
          .where(and(eq(E.id, e.id), eq(E.customerId, e.customerId))),
      ],
      { audit: { action: 'slip_waitlist.update', targetType: 'slip_waitlist_entry', targetId: e.id, details: { fields } } },
    );
  } catch (err) {
    if (isOpenEntryConflict(err)) throw new ApiError('already_exists', 'The renter already has an open entry of this rate type at this location');
    throw err;
  }
  return await entryView(ctx, await getEntryRow(ctx, e.id));
}

export async function deleteEntry(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  if (e.status === 'offered') throw new ApiError('invalid_state', 'The entry has an open offer; cancel the entry (which withdraws the offer) first');
  await commit(
    ctx,
    [
      ctx.db.delete(O).where(and(eq(O.customerId, e.customerId), eq(O.entryId, e.id))),
      ctx.db.delete(E).where(and(eq(E.id, e.id), eq(E.customerId, e.customerId), inArray(E.status, ['waiting', 'accepted', 'cancelled']))),
    ],
    { audit: { action: 'slip_waitlist.delete', targetType: 'slip_waitlist_entry', targetId: e.id, details: { status: e.status } } },
  );
  return { id: e.id, deleted: true as const };
}

/** Entries whose boat fits the unit (and of its type), in queue order; entries that declined or let lapse an offer of this unit are left out. */
export async function matchUnit(ctx: Ctx, unitId: string, q: z.output<typeof s.MatchQuery>) {
  requirePermission(ctx, 'marina');
  const unit = await getSlipRow(ctx, unitId);
  checkWish(q);
  const settings = await getSlipSettings(ctx, unit.locationId);
  const [waiting, refusedBefore] = await Promise.all([
    ctx.db
      .select()
      .from(E)
      .where(and(eq(E.customerId, unit.customerId), eq(E.locationId, unit.locationId), eq(E.status, 'waiting')))
      .orderBy(E.position, E.id)
      .limit(2000)
      .all(),
    ctx.db
      .select({ entryId: O.entryId })
      .from(O)
      .where(and(eq(O.customerId, unit.customerId), eq(O.slipId, unit.id), inArray(O.status, ['declined', 'expired'])))
      .all(),
  ]);
  const skip = new Set(refusedBefore.map((r) => r.entryId));
  const fitting = waiting.filter((e) => !skip.has(e.id) && (!e.unitType || e.unitType === unit.unitType) && !fitUnit(unit, e.boat, settings.clearances).length);
  const page = fitting.slice(q.offset, q.offset + q.limit);
  const views = await entryViews(ctx, page);
  const data = [];
  for (let i = 0; i < page.length; i++) {
    const e = page[i];
    const arrivalDate = q.arrivalDate ?? e.arrivalDate;
    const departureDate = q.departureDate ?? e.departureDate;
    const available = arrivalDate && departureDate ? (await checkAvailability(ctx, { slipId: unit.id, arrivalDate, departureDate })).available : null;
    data.push({ entry: views[i], available, arrivalDate: arrivalDate ?? null, departureDate: departureDate ?? null });
  }
  return {
    unit: { id: unit.id, unitNumber: unit.unitNumber, section: unit.section, unitType: unit.unitType, locationId: unit.locationId },
    data,
    total: fitting.length,
    limit: q.limit,
    offset: q.offset,
  };
}

export async function waitlistStats(ctx: Ctx, q: { locationId?: string }) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  const loc = q.locationId ? [eq(E.locationId, q.locationId)] : [];
  const [byStatusRows, byRate, offers, waits, oldest] = await Promise.all([
    ctx.db
      .select({ status: E.status, n: sql<number>`count(*)` })
      .from(E)
      .where(and(eq(E.customerId, customerId), ...loc))
      .groupBy(E.status)
      .all(),
    ctx.db
      .select({ rateType: E.rateType, n: sql<number>`count(*)` })
      .from(E)
      .where(and(eq(E.customerId, customerId), inArray(E.status, ['waiting', 'offered']), ...loc))
      .groupBy(E.rateType)
      .all(),
    ctx.db
      .select({ status: O.status, n: sql<number>`count(*)` })
      .from(O)
      .innerJoin(E, eq(E.id, O.entryId))
      .where(and(eq(O.customerId, customerId), ...loc))
      .groupBy(O.status)
      .all(),
    ctx.db
      .select({ avg: sql<number | null>`avg(julianday(${E.acceptedAt}) - julianday(${E.createdAt}))` })
      .from(E)
      .where(and(eq(E.customerId, customerId), eq(E.status, 'accepted'), isNotNull(E.acceptedAt), ...loc))
      .get(),
    ctx.db
      .select({ first: min(E.createdAt) })
      .from(E)
      .where(and(eq(E.customerId, customerId), eq(E.status, 'waiting'), ...loc))
      .get(),
  ]);
  const byStatus: Record<string, number> = { waiting: 0, offered: 0, accepted: 0, cancelled: 0 };
  for (const r of byStatusRows) byStatus[r.status] = Number(r.n);
  const openByRateType: Record<string, number> = { nightly: 0, monthly: 0, seasonal: 0, annual: 0 };
  for (const r of byRate) openByRateType[r.rateType] = Number(r.n);
  const offerCounts: Record<string, number> = { offered: 0, accepted: 0, declined: 0, expired: 0, withdrawn: 0 };
  for (const r of offers) offerCounts[r.status] = Number(r.n);
  const answered = offerCounts.accepted + offerCounts.declined + offerCounts.expired;
  return {
    locationId: q.locationId ?? null,
    byStatus,
    openByRateType,
    offers: offerCounts,
    acceptanceRatePercent: answered ? Math.round((offerCounts.accepted / answered) * 1000) / 10 : null,
    averageWaitDays: waits?.avg == null ? null : Math.round(Number(waits.avg) * 10) / 10,
    oldestWaitingSince: oldest?.first ?? null,
  };
}

/** The public join from a unit's page: the renter and boat, the unit as preference, an e-mail to the renter. */
export async function joinFromUnitPage(ctx: Ctx, slip: SlipRow, input: z.output<typeof s.PublicJoinBody>) {
  const mail = (row: EntryRow) =>
    emailStmt(ctx, {
      to: row.renter.email,
      subject: 'You are on the slip waitlist',
      body: [
        `Hello ${row.renter.firstName},`,
        `you are on the waitlist for a ${row.rateType} slip for ${row.boat.vesselName} (${row.boat.loaFt} ft)${row.arrivalDate && row.departureDate ? `, ${formatCalendarRange(row.arrivalDate, row.departureDate)}` : row.season ? ` for ${row.season}` : ''}.`,
        'When a slip that fits your boat is free, the marina will offer it to you by e-mail; the offer is held for you for a limited time.',
      ].join('\n\n'),
      template: 'slip_waitlist.joined',
      customerId: row.customerId,
      metadata: { slipWaitlistEntryId: row.id },
    }).stmt;
  const { entry, created } = await addEntry(ctx, { ...input, locationId: slip.locationId, preferredSlipId: slip.id, unitType: slip.unitType }, 'public', mail);
  const view = await entryView(ctx, entry);
  return {
    created,
    result: { entryId: entry.id, status: entry.status, locationId: entry.locationId, queuePosition: view.queuePosition, joinedAt: entry.createdAt },
  };
}
