/**
 * One offer to one waiting entry, as a sale through `sell` (availability): `quantity` hold units
 * reserved for exactly that departure/window in the item's lock (one seat or unit per reservation),
 * then ONE commit of the offer row, the `holds` row, its allocations, the entry's `offered` state
 * and the offer e-mail. A refusal (of the lock, or of the D1 guards) is answered as an outcome, not
 * thrown: the cascade stops at it, the manual offer tries the next spot.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localDate, localTime } from '../../lib/time';
import { formatLocalDateTime, formatLocalRange } from '../../lib/local-time';
import type { Stmt } from '../../db/client';
import { waitlistEntries, waitlistOffers } from '../../db/schema/waitlist';
import { holds } from '../../db/schema/bookings';
import { emailStmt } from '../../adapters/messages';
import {
  allocationInserts,
  isAllocationConflict,
  reserve,
  sell,
  type ItemContext,
  type Reservation,
  type SaleJournal,
  type SalePhase,
  type SalePolicy,
} from '../availability/service';
import { bookingUrl, iso } from './views';
import type { EntryRow, Trigger } from './types';
import { errText } from './d1-results';

/** How long an offer (and its hold) lasts, unless the departure/window starts sooner. */
export const OFFER_TTL_MS = 24 * 3_600_000;

export interface Spot {
  start: number;
  end: number;
}

type Refusal = { ok: false; reason: 'unavailable' | 'lost'; error?: ApiError };
export type OfferOutcome = { ok: true; entry: EntryRow } | Refusal;

/** What `sell` answers for a refused offer: `offerEntry` returns its outcome. */
class OfferRefused extends Error {
  constructor(readonly outcome: Refusal) {
    super(`offer ${outcome.reason}`);
  }
}

interface OfferOrder {
  ic: ItemContext;
  entry: EntryRow;
  spot: Spot;
  trigger: Trigger;
  triggerSourceId: string | null;
  now: number;
}

interface OfferSale extends OfferOrder {
  offerId: string;
  expiresAt: number;
  isTour: boolean;
  taken: Reservation[];
  out?: EntryRow;
}

/**
 * Offers one entry a spot. `unavailable`: the spot has begun, or the lock (or the D1 guard) refused;
 * `lost`: the entry was no longer waiting or was offered already.
 */
export async function offerEntry(
  wctx: Ctx,
  ic: ItemContext,
  entry: EntryRow,
  spot: Spot,
  trigger: Trigger,
  triggerSourceId: string | null,
  now: number,
): Promise<OfferOutcome> {
  if (spot.start <= now) return { ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot starts now or has passed') };
  try {
    return { ok: true, entry: await sell(wctx, { ic, entry, spot, trigger, triggerSourceId, now }, offerSale) };
  } catch (err) {
    if (err instanceof OfferRefused) return err.outcome;
    throw err;
  }
}

/** The waitlist offer's policy of `sell`. */
const offerSale: SalePolicy<OfferOrder, OfferSale, EntryRow> = {
  name: 'waitlist.offer',
  begin: (_ctx, o) => ({ ...o, offerId: newId('wlo'), expiresAt: Math.min(o.now + OFFER_TTL_MS, o.spot.start), isTour: o.ic.item.kind === 'tour', taken: [] }),
  reserve: reserveOffer,
  write: writeOffer,
  answer: (s) => s.out!,
  failure: offerFailure,
};

/** One hold reservation per seat or unit; tours: a hold line [start, start + 1 ms) takes a seat on that one departure only. */
async function reserveOffer(ctx: Ctx, s: OfferSale, journal: SaleJournal) {
  const { entry, ic, spot } = s;
  const line = s.isTour ? { start: spot.start, end: spot.start + 1 } : { start: spot.start, end: spot.end };
  for (let i = 0; i < entry.quantity; i++) {
    const r = await reserve(ctx, {
      customerId: entry.customerId,
      itemId: ic.row.id,
      line: { kind: 'hold', sourceId: s.offerId, ...line, expiresAt: s.expiresAt },
    });
    s.taken.push(r);
    journal.held(r);
  }
}

/**
 * The offer's one commit. The reservations are then released before answering (not after the
 * response, as `sell` would): the cascade's round trips stay as they were.
 */
async function writeOffer(ctx: Ctx, s: OfferSale, journal: SaleJournal) {
  const { entry, spot } = s;
  const f = offerFacts(ctx, s);
  const set = {
    status: 'offered' as const,
    offerId: s.offerId,
    offerStart: spot.start,
    offerEnd: spot.end,
    offerAssetIds: f.assetIds,
    offeredAt: f.nowIso,
    offerExpiresAt: f.expIso,
    offerBookingUrl: f.url,
    updatedAt: f.nowIso,
  };
  const mail = offerMail(ctx, s, f);
  await commit(ctx, offerStatements(ctx, s, f, set, mail.stmt), {
    audit: {
      action: 'waitlist.offer',
      targetType: 'waitlist_entry',
      targetId: entry.id,
      customerId: entry.customerId,
      details: {
        offerId: s.offerId,
        trigger: s.trigger,
        triggerSourceId: s.triggerSourceId,
        startTime: iso(spot.start),
        endTime: iso(spot.end),
        quantity: entry.quantity,
        assetIds: f.assetIds,
        expiresAt: f.expIso,
      },
    },
    via: journal.writer(ctx),
  });
  journal.written();
  s.out = { ...entry, ...set };
}

/** The held assets, the spot's local date and time, the instants written and the booking link. */
function offerFacts(ctx: Ctx, s: OfferSale) {
  const { ic, entry, spot } = s;
  const rows = s.taken.flatMap((r) => r.allocations);
  const assetIds = rows.filter((r) => r.assetId).map((r) => r.assetId as string);
  const tz = ic.item.timezone;
  const date = localDate(spot.start, tz);
  const time = localTime(spot.start, tz);
  const nowIso = iso(s.now);
  const expIso = iso(s.expiresAt);
  const url = bookingUrl(ctx.env.PUBLIC_BASE_URL, ic.location, {
    inventoryId: ic.row.id,
    locationId: ic.row.locationId,
    date,
    time,
    quantity: entry.quantity,
    entryId: entry.id,
  });
  return { assetIds, tz, date, time, nowIso, expIso, url };
}
type OfferFacts = ReturnType<typeof offerFacts>;

/** The offer e-mail (written in the offer's batch). Times a person reads are the location's, e.g. "Sat 12 Dec 2026, 10:00 EST" (lib/local-time.ts). */
function offerMail(ctx: Ctx, s: OfferSale, f: OfferFacts) {
  const { ic, entry, spot, isTour } = s;
  const { tz, url } = f;
  const when = isTour ? formatLocalDateTime(spot.start, tz) : formatLocalRange(spot.start, spot.end, tz);
  const what = `${entry.quantity > 1 ? `${entry.quantity} ${isTour ? 'seats' : 'units'} on ` : ''}${ic.row.name} on ${when}`;
  return emailStmt(ctx, {
    customerId: entry.customerId,
    to: entry.email,
    subject: `A spot opened up: ${ic.row.name} on ${formatLocalDateTime(spot.start, tz)}`,
    body:
      `Hello ${entry.firstName},\n\nGood news from ${ic.location.name}: ${what} is held for you until ${formatLocalDateTime(s.expiresAt, tz)}.\n` +
      `Book it here: ${url}\nBook with this e-mail address (${entry.email}) so the held spot is yours. If you do not book before the hold ends, the spot goes to the next person on the waitlist.`,
    template: 'waitlist.offer',
    metadata: {
      entryId: entry.id,
      offerId: s.offerId,
      inventoryId: ic.row.id,
      locationId: ic.row.locationId,
      date: f.date,
      time: f.time,
      quantity: entry.quantity,
      expiresAt: f.expIso,
      bookingUrl: url,
    },
  });
}

/** The offer's batch: offer row (guarded), hold row, allocations, the entry's `offered` state, the e-mail. */
function offerStatements(ctx: Ctx, s: OfferSale, f: OfferFacts, set: Partial<EntryRow>, mail: Stmt): Stmt[] {
  const { ic, entry, spot } = s;
  const db = ctx.db;
  return [
    // The guard: NULL (batch aborts) unless the entry is still waiting; unique per entry (never offered twice).
    db.insert(waitlistOffers).values({
      id: s.offerId,
      customerId: entry.customerId,
      entryId: sql`(SELECT id FROM waitlist_entries WHERE id = ${entry.id} AND customer_id = ${entry.customerId} AND status = 'waiting')` as unknown as string,
      inventoryId: ic.row.id,
      start: spot.start,
      end: spot.end,
      quantity: entry.quantity,
      expiresAt: f.expIso,
      trigger: s.trigger,
      triggerSourceId: s.triggerSourceId,
      createdAt: f.nowIso,
    }),
    db.insert(holds).values({
      id: s.offerId,
      customerId: entry.customerId,
      email: entry.email,
      inventoryId: ic.row.id,
      locationId: ic.row.locationId,
      status: 'active',
      expiresAt: f.expIso,
      createdAt: f.nowIso,
      updatedAt: f.nowIso,
    }),
    ...allocationInserts(ctx, s.taken, f.nowIso),
    db
      .update(waitlistEntries)
      .set(set)
      .where(and(eq(waitlistEntries.id, entry.id), eq(waitlistEntries.customerId, entry.customerId), eq(waitlistEntries.status, 'waiting'))),
    mail,
  ];
}

/**
 * A refusal as an outcome: the lock's 409 while reserving; the allocation guard (another sale took
 * the spot at the last moment) or the offer's entry guard (`lost`) while writing. Anything else is thrown as is.
 */
function offerFailure(err: unknown, _s: OfferSale, phase: SalePhase): unknown {
  if (phase === 'reserve') return err instanceof ApiError && err.status === 409 ? new OfferRefused({ ok: false, reason: 'unavailable', error: err }) : err;
  if (isAllocationConflict(err))
    return new OfferRefused({ ok: false, reason: 'unavailable', error: new ApiError('unavailable', 'The spot was taken by another sale at the last moment') });
  if (/waitlist_offers\.entry_id/.test(errText(err))) return new OfferRefused({ ok: false, reason: 'lost' });
  return err;
}
