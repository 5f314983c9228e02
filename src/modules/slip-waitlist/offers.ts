/**
 * Offers of the slip waitlist. An offer holds the unit for the renter through a slip reservation
 * created `awaiting_payment` (source `waitlist`) by the reservations module, through the unit's
 * SlipLock: the hold ends at the offer's expiry, at that instant the unit is free again for
 * everyone (the lock and the database triggers stop counting it). Every answer changes that
 * reservation with its compare-and-swap in the same batch as the offer and the entry, so two
 * answers racing (accept and decline, accept and the expiry sweep) cannot both land.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, systemCtxFor } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { inJobScope, nextDueAt } from '../../lib/job-scope';
import { formatCalendarRange, formatLocalDateTime } from '../../lib/local-time';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slipWaitlistEntries as E, slipWaitlistOffers as O } from '../../db/schema/slip-waitlist';
import { emailStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import {
  confirmationChange,
  createReservation,
  getReservationRow,
  holdReleaseChange,
  isBlocking,
  reservationLedger,
  reservationRowsByIds,
  reservationView,
  underSlipLock,
  type ReservationRow,
} from '../slip-reservations/service';
import type { LedgerRow } from '../bookings/service';
import { getSlipRow } from '../slips/service';
import { waitlistErrors } from './errors';
import type * as s from './schemas';
import { bottomOf, entryView, getEntryRow, openOfferOf } from './queries';
import { offerOut, type EntryRow, type OfferRow } from './views';

const dollars = (c: number) => `$${(c / 100).toFixed(2)}`;
const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
const isOpenOfferConflict = (err: unknown) => /UNIQUE constraint failed: slip_waitlist_offers\.entry_id/.test(errText(err));
const isVersionRace = (err: unknown) => /UNIQUE constraint failed: (slip_reservation_changes|ledger_entries)\.id/.test(errText(err));
const raced = () => new ApiError('version_conflict', 'The offer was answered by another request meanwhile; reload and retry');

function renterMail(ctx: Ctx, e: EntryRow, subject: string, body: string, template: string, extra: Record<string, unknown> = {}): Stmt {
  return emailStmt(ctx, {
    to: e.renter.email,
    subject,
    body,
    template,
    customerId: e.customerId,
    metadata: { slipWaitlistEntryId: e.id, ...extra },
  }).stmt;
}

async function offerResult(ctx: Ctx, entryId: string, offerId: string, reservationId: string) {
  const [entry, offer, reservation] = await Promise.all([
    getEntryRow(ctx, entryId),
    ctx.db
      .select()
      .from(O)
      .where(and(eq(O.id, offerId), eq(O.customerId, ctx.principal.customerId!)))
      .get(),
    getReservationRow(ctx, reservationId),
  ]);
  const slip = await getSlipRow(ctx, offer!.slipId);
  return { entry: await entryView(ctx, entry), offer: offerOut(offer!, slip.unitNumber), reservation: await reservationView(ctx, reservation) };
}

/** POST /slips/waitlist/{id}/offer: hold a unit for the entry and e-mail the renter. */
export async function makeOffer(ctx: Ctx, id: string, input: z.output<typeof s.OfferBody>) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  if (e.status === 'offered') throw waitlistErrors.fail('waitlist_offer_open', 'The entry already has an open offer');
  if (e.status !== 'waiting') throw new ApiError('invalid_state', `A ${e.status} waitlist entry takes no offers`);
  const slip = await getSlipRow(ctx, input.slipId);
  if (slip.locationId !== e.locationId) throw waitlistErrors.fail('waitlist_unit_mismatch', 'The unit is at another location than the waitlist entry');
  if (e.unitType && e.unitType !== slip.unitType && !input.overrideFit)
    throw waitlistErrors.fail(
      'waitlist_unit_mismatch',
      `The entry waits for a ${e.unitType.replace('_', ' ')}, unit ${slip.unitNumber} is a ${slip.unitType.replace('_', ' ')}`,
    );
  const arrivalDate = input.arrivalDate ?? e.arrivalDate;
  const departureDate = input.departureDate ?? e.departureDate;
  if (!arrivalDate || !departureDate)
    throw new ApiError('validation_failed', 'The entry has no dates: give arrivalDate and departureDate', {
      details: [{ field: 'arrivalDate', code: 'required', message: 'arrivalDate and departureDate are required for an entry without dates' }],
    });
  const [settings, loc] = await Promise.all([getSlipSettings(ctx, e.locationId), getLocationInTenant(ctx, e.locationId)]);
  const hours = input.holdHours ?? settings.waitlistOfferHoldHours;
  const expiresAt = ctx.clock.now() + hours * 3_600_000;
  const offerId = newId('swo');
  const rateType = input.rateType ?? e.rateType;
  let reservationId = '';
  try {
    const created = await createReservation(
      ctx,
      {
        slipId: slip.id,
        rateType,
        arrivalDate,
        departureDate,
        boat: e.boat,
        renterId: e.renterId,
        overrideFit: input.overrideFit,
        notes: `Waitlist offer ${offerId} (entry ${e.id})`,
      },
      {
        source: 'waitlist',
        holdExpiresAt: expiresAt,
        extra: (r) => {
          const offer: OfferRow = {
            id: offerId,
            customerId: e.customerId,
            entryId: e.id,
            slipId: slip.id,
            reservationId: r.id,
            arrivalDate,
            departureDate,
            rateType,
            status: 'offered',
            expiresAt,
            totalCents: r.totalCents,
            message: input.message ?? null,
            respondedAt: null,
            responseNote: null,
            createdAt: r.createdAt,
            updatedAt: r.createdAt,
          };
          const body = [
            `Hello ${e.renter.firstName},`,
            `a slip is available for ${e.boat.vesselName}: unit ${slip.unitNumber}${slip.section ? ` (${slip.section})` : ''}, ${rateType}, ${formatCalendarRange(arrivalDate, departureDate)}.`,
            `Total ${dollars(r.totalCents)}${r.depositCents ? `, deposit ${dollars(r.depositCents)}` : ''} (reservation ${r.reservationNumber}).`,
            `We hold it for you until ${formatLocalDateTime(expiresAt, loc.timezone)}. Reply to this e-mail or call the marina to accept or decline; after that time the offer expires and the slip goes to the next boater on the list.`,
            input.message ?? '',
          ]
            .filter(Boolean)
            .join('\n\n');
          return {
            stmts: [
              ctx.db.insert(O).values(offer),
              ctx.db
                .update(E)
                .set({ status: 'offered', offerCount: sql`${E.offerCount} + 1`, updatedAt: r.createdAt })
                .where(and(eq(E.id, e.id), eq(E.customerId, e.customerId), eq(E.status, 'waiting'))),
              renterMail(ctx, e, `A slip is available: unit ${slip.unitNumber}`, body, 'slip_waitlist.offer', { offerId, slipReservationId: r.id }),
            ],
          };
        },
      },
    );
    reservationId = created.id;
  } catch (err) {
    if (isOpenOfferConflict(err)) throw waitlistErrors.fail('waitlist_offer_open', 'The entry got another offer meanwhile');
    throw err;
  }
  return await offerResult(ctx, e.id, offerId, reservationId);
}

async function openOffer(ctx: Ctx, e: EntryRow) {
  if (e.status !== 'offered') throw new ApiError('invalid_state', `The entry has no open offer (it is ${e.status})`);
  const o = await openOfferOf(ctx, e.id);
  if (!o) throw new ApiError('invalid_state', 'The entry has no open offer');
  return o;
}

type Outcome = 'accepted' | 'declined' | 'expired' | 'withdrawn';

/**
 * The statements that close an offer: the offer row, the entry (accepted; back to waiting at the
 * bottom after a decline or a lapse; back to waiting in place when the marina withdrew it; or
 * cancelled), the reservation change, the e-mail.
 */
function closeOffer(
  ctx: Ctx,
  e: EntryRow,
  o: OfferRow,
  r: ReservationRow | null,
  outcome: Outcome,
  opts: { note?: string | null; cancelEntry?: string | null; ledger?: LedgerRow[] } = {},
): { stmts: Stmt[]; events: DomainEvent[] } {
  const now = nowIso(ctx);
  const stmts: Stmt[] = [];
  const events: DomainEvent[] = [];
  if (r && r.status === 'awaiting_payment') {
    const change =
      outcome === 'accepted'
        ? confirmationChange(ctx, r, opts.ledger ?? [], 'waitlist_accept', { offerId: o.id })
        : holdReleaseChange(
            ctx,
            r,
            outcome === 'expired' ? 'expired' : 'cancelled',
            outcome === 'expired' ? 'waitlist offer not answered in time' : `waitlist offer ${outcome}`,
          );
    stmts.push(...change.stmts);
    events.push(...change.events);
  }
  stmts.push(
    ctx.db
      .update(O)
      .set({ status: outcome, respondedAt: now, responseNote: opts.note ?? null, updatedAt: now })
      .where(and(eq(O.id, o.id), eq(O.customerId, o.customerId), eq(O.status, 'offered'))),
  );
  const entry: Record<string, unknown> = { updatedAt: now };
  if (opts.cancelEntry !== undefined) Object.assign(entry, { status: 'cancelled', cancelledAt: now, cancelReason: opts.cancelEntry });
  else if (outcome === 'accepted') Object.assign(entry, { status: 'accepted', acceptedAt: now, acceptedReservationId: o.reservationId });
  else if (outcome === 'withdrawn') Object.assign(entry, { status: 'waiting' });
  else
    Object.assign(entry, {
      status: 'waiting',
      position: bottomOf(e.customerId, e.locationId),
      declineCount: outcome === 'declined' ? sql`${E.declineCount} + 1` : E.declineCount,
    });
  stmts.push(
    ctx.db
      .update(E)
      .set(entry)
      .where(and(eq(E.id, e.id), eq(E.customerId, e.customerId))),
  );
  if (outcome === 'expired')
    stmts.push(
      renterMail(
        ctx,
        e,
        'Your slip offer expired',
        `Hello ${e.renter.firstName},\n\nthe offer of a slip for ${formatCalendarRange(o.arrivalDate, o.departureDate)} was not answered in time, so the slip went back to the marina. You are still on the waitlist.`,
        'slip_waitlist.offer_expired',
        { offerId: o.id },
      ),
    );
  return { stmts, events };
}

async function commitAnswer(ctx: Ctx, stmts: Stmt[], events: DomainEvent[], action: string, e: EntryRow, o: OfferRow) {
  try {
    await commit(ctx, stmts, {
      audit: { action, targetType: 'slip_waitlist_entry', targetId: e.id, details: { offerId: o.id, reservationId: o.reservationId } },
      events,
    });
  } catch (err) {
    if (isVersionRace(err)) throw raced();
    throw err;
  }
}

/**
 * How an open offer stands against its held reservation, whatever answered it: the reservation was
 * confirmed (paid in the portal, confirmed by staff) → accepted; it or the entry was cancelled →
 * withdrawn; the hold lapsed → expired; else still open (null).
 */
function settledOutcome(e: EntryRow, o: OfferRow, r: ReservationRow | null, now: number): Outcome | null {
  if (r && (r.status === 'confirmed' || r.status === 'checked_in' || r.status === 'checked_out')) return 'accepted';
  if (e.status === 'cancelled' || !r || r.status === 'cancelled') return 'withdrawn';
  if (o.expiresAt <= now || r.status === 'expired') return 'expired';
  return null;
}

/** Closes an offer that was settled another way (see `settledOutcome`); false when another request answered it first. */
async function settle(ctx: Ctx, e: EntryRow, o: OfferRow, r: ReservationRow | null, outcome: Outcome, by: string) {
  const { stmts, events } =
    outcome === 'accepted'
      ? closeOffer(ctx, e, o, null, 'accepted')
      : closeOffer(ctx, e, o, r, outcome, e.status === 'cancelled' ? { cancelEntry: e.cancelReason } : {});
  try {
    await commit(ctx, stmts, {
      audit: {
        action: `slip_waitlist.offer_${outcome}`,
        targetType: 'slip_waitlist_entry',
        targetId: e.id,
        customerId: e.customerId,
        details: { offerId: o.id, by },
      },
      events,
    });
    return true;
  } catch (err) {
    if (isVersionRace(err)) return false;
    throw err;
  }
}

/** POST /slips/waitlist/{id}/accept: the hold becomes a confirmed reservation. */
export async function acceptOffer(ctx: Ctx, id: string, input: { note?: string }) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  const o = await openOffer(ctx, e);
  const r = await getReservationRow(ctx, o.reservationId);
  const settled = settledOutcome(e, o, r, ctx.clock.now());
  if (settled === 'accepted') {
    await settle(ctx, e, o, r, 'accepted', 'accept');
    return await offerResult(ctx, e.id, o.id, o.reservationId);
  }
  if (settled) {
    await settle(ctx, e, o, r, settled, 'accept');
    if (settled === 'expired') {
      const tz = (await getLocationInTenant(ctx, e.locationId)).timezone;
      throw new ApiError('expired', `The offer expired on ${formatLocalDateTime(o.expiresAt, tz)}; the unit is no longer held`);
    }
    throw new ApiError('invalid_state', 'The held reservation was cancelled: the offer is withdrawn; make a new offer');
  }
  const { stmts, events } = closeOffer(ctx, e, o, r, 'accepted', { note: input.note, ledger: await reservationLedger(ctx, r) });
  const write = () => commitAnswer(ctx, stmts, events, 'slip_waitlist.accept', e, o);
  // The hold is running (checked above); should it lapse this very moment, the unit is taken again through its lock.
  if (!isBlocking(r, ctx.clock.now()))
    await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, write);
  else await write();
  return await offerResult(ctx, e.id, o.id, o.reservationId);
}

/** POST /slips/waitlist/{id}/decline: the unit is released and the entry goes to the bottom of the queue. */
export async function declineOffer(ctx: Ctx, id: string, input: { note?: string }) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  const o = await openOffer(ctx, e);
  const r = await getReservationRow(ctx, o.reservationId);
  if (r.status === 'confirmed' || r.status === 'checked_in')
    throw new ApiError('invalid_state', 'The held reservation was already confirmed (paid or confirmed by staff); cancel the reservation instead');
  const { stmts, events } = closeOffer(ctx, e, o, r, 'declined', { note: input.note });
  await commitAnswer(ctx, stmts, events, 'slip_waitlist.decline', e, o);
  return await offerResult(ctx, e.id, o.id, o.reservationId);
}

/** POST /slips/waitlist/{id}/cancel: the entry leaves the waitlist; an open offer is withdrawn and its hold released. */
export async function cancelEntry(ctx: Ctx, id: string, input: { reason?: string }) {
  requirePermission(ctx, 'marina');
  const e = await getEntryRow(ctx, id);
  if (e.status === 'cancelled') return await entryView(ctx, e);
  if (e.status === 'accepted') throw new ApiError('invalid_state', 'The entry was accepted; cancel its reservation instead');
  const reason = input.reason ?? null;
  if (e.status === 'offered') {
    const o = await openOfferOf(ctx, e.id);
    if (o) {
      const r = await getReservationRow(ctx, o.reservationId);
      const { stmts, events } = closeOffer(ctx, e, o, r.status === 'awaiting_payment' ? r : null, 'withdrawn', { cancelEntry: reason });
      await commitAnswer(ctx, stmts, events, 'slip_waitlist.cancel', e, o);
      return await entryView(ctx, await getEntryRow(ctx, e.id));
    }
  }
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(E)
        .set({ status: 'cancelled', cancelledAt: now, cancelReason: reason, updatedAt: now })
        .where(and(eq(E.id, e.id), eq(E.customerId, e.customerId), inArray(E.status, ['waiting', 'offered']))),
    ],
    { audit: { action: 'slip_waitlist.cancel', targetType: 'slip_waitlist_entry', targetId: e.id, details: { reason } } },
  );
  return await entryView(ctx, await getEntryRow(ctx, e.id));
}

/**
 * Cron (every 5 minutes, on the clock): offers past their expiry expire (the hold is released as
 * `expired`, the entry goes to the bottom of the queue, the renter is told); open offers whose held
 * reservation was settled another way are closed to match it: confirmed (paid in the portal, or
 * confirmed by staff) → accepted; the reservation or the entry cancelled → withdrawn (the entry keeps
 * its place).
 */
export async function sweepOffers(ctx: Ctx) {
  const now = ctx.clock.now();
  const open = await ctx.db
    .select()
    .from(O)
    .where(and(eq(O.status, 'offered'), inJobScope(ctx, O.customerId)))
    .orderBy(O.expiresAt)
    .limit(500)
    .all();
  const out = { expired: 0, accepted: 0, withdrawn: 0 };
  const byCustomer = new Map<string, OfferRow[]>();
  for (const o of open) byCustomer.set(o.customerId, [...(byCustomer.get(o.customerId) ?? []), o]);
  for (const [customerId, offers] of byCustomer) {
    const octx = systemCtxFor(ctx, customerId);
    const reservations = new Map(
      (
        await reservationRowsByIds(
          octx,
          offers.map((o) => o.reservationId),
        )
      ).map((r) => [r.id, r]),
    );
    const entries = new Map(
      (
        await octx.db
          .select()
          .from(E)
          .where(
            and(
              eq(E.customerId, customerId),
              inArray(
                E.id,
                offers.map((o) => o.entryId),
              ),
            ),
          )
          .all()
      ).map((e) => [e.id, e]),
    );
    for (const o of offers) {
      const e = entries.get(o.entryId);
      if (!e) continue;
      const r = reservations.get(o.reservationId) ?? null;
      const outcome = settledOutcome(e, o, r, now);
      if (!outcome) continue;
      try {
        if (await settle(octx, e, o, r, outcome, 'sweep')) out[outcome === 'declined' ? 'withdrawn' : outcome]++;
      } catch (err) {
        octx.log.error('waitlist offer sweep failed', { offerId: o.id, error: String(err) });
      }
    }
  }
  return out;
}

/** The sweep's next due instant: the first open offer in scope to expire after the clock's now (ms), or null. */
export async function nextOfferExpiry(ctx: Ctx): Promise<number | null> {
  return nextDueAt(ctx, { table: O, due: O.expiresAt, customer: O.customerId }, eq(O.status, 'offered'));
}
