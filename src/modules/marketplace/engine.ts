/**
 * Everything the marketplace uses of the availability engine, the item locks and the booking
 * service, in one place: items and their start times, live checks (the engine the operator's
 * checkout uses), quotes, holds taken inside the item's InventoryLock (hold lines that count
 * against capacity and expire by themselves), and the booking operations that every sales path
 * shares (createBooking, cancelBooking, rescheduleBooking), so a marketplace sale fires the same
 * booking.* events as any other.
 */
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import type { BatchRunner, Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { addDays, localDate } from '../../lib/time';
import {
  allocationInserts,
  allocationToBusy,
  availabilityOf,
  departuresOn,
  existingWallTime,
  loadAllocationsFor,
  loadItemContext,
  maintenanceBusy,
  openingBounds,
  releaseAllocationsOf,
  reserve,
  sell,
  slotLengthMinutes,
  type Busy,
  type ItemContext,
  type Reservation,
  type SalePolicy,
} from '../availability/service';
import {
  cancelBooking,
  createBooking,
  inRequestFields,
  quoteBooking,
  rescheduleBooking,
  type BookingResult,
  type CreateBookingOptions,
} from '../bookings/service';
import { marketplaceFail } from './errors';
import { optionId, parseOption, type OptionRef } from './options';

export type { ItemContext, BookingResult };
type BookInput = Parameters<typeof createBooking>[1];

const MIN = 60_000;

/** An option of a public item of the caller's operator, or 404 `unknown_product_option`. */
export async function optionItem(ctx: Ctx, productOptionId: string): Promise<{ ref: OptionRef; item: ItemContext }> {
  const ref = parseOption(productOptionId);
  let item: ItemContext;
  try {
    item = await loadItemContext(ctx.db, ref.itemId, tenantOf(ctx));
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') throw marketplaceFail('unknown_product_option', `Unknown product option ${productOptionId}`);
    throw err;
  }
  if (!item.row.isPublic || item.item.model.isPublic === false) throw marketplaceFail('unknown_product_option', `Unknown product option ${productOptionId}`);
  if (item.item.kind === 'tour' ? ref.hours != null : ref.hours != null && !optionHours(item, ctx.clock.now()).includes(ref.hours))
    throw marketplaceFail('unknown_product_option', `Unknown product option ${productOptionId}`);
  return { ref, item };
}

/**
 * Rental options (hours): the item's durations, or its default slot length (as of `now`'s local
 * date); null for a full-day-only rental.
 */
export function optionHours(item: ItemContext, now: number): (number | null)[] {
  const m = item.item.model;
  if (item.item.kind === 'tour' || m.fullDayOnly) return [null];
  if (m.durations?.length) return [...m.durations].sort((a, b) => a - b);
  return [slotLengthMinutes(item.item, localDate(now, item.item.timezone)) / 60];
}

export const optionIdsOf = (item: ItemContext, now: number) => optionHours(item, now).map((h) => optionId(item.row.id, h));

export interface StartTime {
  time: string;
  start: number;
  end: number;
  /** Tours: the departure's seats. */
  capacity: number | null;
}

/**
 * Start times of an option on a local date (tours: departures; rentals: every slot interval from
 * opening while the option fits before closing). `now` is the seller's (for the default option).
 */
export function startTimes(item: ItemContext, ref: OptionRef, date: string, now: number): StartTime[] {
  if (item.item.kind === 'tour') return departuresOn(item.item, date).map((d) => ({ time: d.time, start: d.start, end: d.end, capacity: d.capacity }));
  const b = openingBounds(item.item, date);
  if (!b) return [];
  if (ref.hours == null && item.item.model.fullDayOnly) return [{ time: b.openTime, start: b.open, end: b.close, capacity: null }];
  const hours = ref.hours ?? (optionHours(item, now)[0] as number);
  const len = Math.round(hours * 60) * MIN;
  const step = Math.max(5, item.item.model.slotIntervalMinutes ?? 60);
  const out: StartTime[] = [];
  const [oh, om] = b.openTime.split(':').map(Number);
  for (let m = oh * 60 + om; m < 24 * 60; m += step) {
    const time = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const start = existingWallTime(date, time, item.item.timezone);
    if (start == null) continue;
    if (start + len > b.close) break;
    out.push({ time, start, end: start + len, capacity: null });
  }
  return out;
}

/** Allocations and maintenance of an item over [from, to), read once for many checks. */
export async function busyOf(ctx: Ctx, item: ItemContext, from: number, to: number): Promise<Busy[]> {
  const map = await loadAllocationsFor(ctx.db, [{ id: item.row.id, customerId: item.row.customerId }], from, to, ctx.clock.now());
  return [...(map.get(item.row.id) ?? []).map(allocationToBusy), ...maintenanceBusy(item.item)];
}

/** Vacancies of a window with the marketplace's sales rules (notice, advance window, hours, capacity). */
export async function vacancies(ctx: Ctx, item: ItemContext, w: { start: number; end: number; seats?: number }, busy: Busy[]) {
  const a = await availabilityOf(
    ctx,
    item,
    { start: w.start, end: w.end, quantity: item.item.kind === 'tour' ? undefined : 1, seats: w.seats, source: 'marketplace' },
    busy,
  );
  return { available: a.available, vacancies: item.item.kind === 'tour' ? (a.seatsFree ?? 0) : (a.unitsFree ?? 0), reasons: a.reasons ?? [] };
}

/** The local dates from `from` to `to` inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** The rental details of a marketplace order (a window, and tickets by fare tier for tours). */
export function rentalDetails(item: ItemContext, w: { start: number; end: number }, tickets: Record<string, number> | null, travelers: number) {
  const base = { inventoryId: item.row.id, startTime: new Date(w.start).toISOString() };
  if (item.item.kind === 'tour') return tickets && Object.keys(tickets).length ? { ...base, tickets } : { ...base, quantity: travelers };
  return { ...base, endTime: new Date(w.end).toISOString(), quantity: 1, participants: travelers };
}

/** A booking rule's refusal said of the marketplace request's fields: its `tickets` (by age band) and `totalTravelers` (the party). */
const marketplaceFields = (err: unknown) => inRequestFields(err, (field) => (field === 'quantity' || field === 'participants' ? 'totalTravelers' : field));

/** The server's price (cents, tax-inclusive) and the seats a tour order takes. */
export async function quote(ctx: Ctx, item: ItemContext, w: { start: number; end: number }, tickets: Record<string, number> | null, travelers: number) {
  return quoteBooking(ctx, { rentalDetails: rentalDetails(item, w, tickets, travelers) }).catch((err: unknown) => {
    throw marketplaceFields(err);
  });
}

/** A marketplace hold: the window (rentals) or the seats of a departure (tours) to hold, and until when. */
interface HoldOrder {
  item: ItemContext;
  holdId: string;
  start: number;
  end: number;
  seats: number;
  privateCharter: boolean;
  capacity: number | null;
  expiresAt: number;
}

/**
 * Holds inventory for a reservation inside the item's lock: a rental holds one boat for the window
 * plus its turnaround buffer; a tour holds `seats` seats on the departure (the whole departure for
 * a private charter). The hold allocations carry `expiresAt`, so they stop counting by themselves.
 * `write` gets the allocation statements and the batch runner of the item's lock (`commit`'s `via`),
 * and writes them with the reservation in one batch; the lock's pending reservations are released
 * before answering when anything fails.
 */
export async function holdInventory(ctx: Ctx, h: HoldOrder, write: HoldWrite): Promise<void> {
  await sell(ctx, { h, write }, marketplaceHoldSale);
}

type HoldWrite = (allocationStmts: Stmt[], via: BatchRunner | undefined) => Promise<void>;
type HoldSale = { h: HoldOrder; write: HoldWrite; taken: Reservation[] };

/** The marketplace hold's policy of `sell`: one `hold` line per seat (tours) or one for the window and its buffer (rentals). */
const marketplaceHoldSale: SalePolicy<Omit<HoldSale, 'taken'>, HoldSale, void> = {
  name: 'marketplace.hold',
  begin: (_ctx, order) => ({ ...order, taken: [] }),
  async reserve(ctx, s, journal) {
    const { h } = s;
    const customerId = h.item.row.customerId;
    const tour = h.item.item.kind === 'tour';
    const units = tour ? (h.privateCharter ? (h.capacity ?? h.seats) : h.seats) : 1;
    const end = tour ? h.start + 1 : h.end + (h.item.item.model.turnaroundBufferMinutes ?? 0) * MIN;
    for (let i = 0; i < units; i++) {
      const r = await reserve(ctx, {
        customerId,
        itemId: h.item.row.id,
        line: { kind: 'hold', sourceId: h.holdId, start: h.start, end, expiresAt: h.expiresAt },
      });
      s.taken.push(r);
      journal.held(r);
    }
  },
  async write(ctx, s, journal) {
    const createdAt = nowIso(ctx);
    await s.write(allocationInserts(ctx, s.taken, createdAt), journal.writer(ctx));
    journal.written();
  },
  answer: () => undefined,
};

/** Ends a hold at once (a cancelled or released reservation): its allocations stop counting. */
export const releaseHoldStmt = (ctx: Ctx, customerId: string, holdId: string): Stmt => releaseAllocationsOf(ctx, { customerId, sourceId: holdId });

/**
 * A reservation becomes a booking: the marketplace collected the money (prepaid) at the held price;
 * the hold's allocations are swapped for the booking's in one batch.
 */
export function bookHold(
  ctx: Ctx,
  input: Pick<BookInput, 'rentalDetails' | 'customerInfo' | 'extendedData'>,
  h: { holdId: string; priceCents: number; transactionId: string; statements: Stmt[] },
): Promise<BookingResult> {
  const opts: CreateBookingOptions = {
    source: 'marketplace',
    prepaid: true,
    priceOverride: { total: h.priceCents },
    transactionId: h.transactionId,
    replacesHold: { sourceId: h.holdId },
    statements: h.statements,
  };
  return createBooking(ctx, { rentalPricing: {}, ...input } as BookInput, opts).catch((err: unknown) => {
    throw marketplaceFields(err);
  });
}

export const cancelRental = (ctx: Ctx, rentalId: string, reason: string) => cancelBooking(ctx, rentalId, { reason, refund: false });

export const amendRental = (ctx: Ctx, rentalId: string, w: { start: number; end: number }) =>
  rescheduleBooking(ctx, rentalId, { startTime: new Date(w.start).toISOString(), endTime: new Date(w.end).toISOString() }, { source: 'marketplace' });

/** The window of an option on a date: the start time asked for, or the first one with room. */
export async function windowOf(ctx: Ctx, item: ItemContext, ref: OptionRef, date: string, time: string | undefined, seats: number) {
  const times = startTimes(item, ref, date, ctx.clock.now());
  if (time) {
    const st = times.find((t) => t.time === time);
    if (!st)
      throw new ApiError('bad_request', `${item.row.name} has no start at ${time} on ${date}`, {
        details: [{ field: 'startTime', message: `not a start time on ${date}` }],
      });
    return st;
  }
  if (!times.length)
    throw new ApiError('unavailable', `${item.row.name} does not run on ${date}`, { extra: { reasons: [{ code: 'closed', message: 'closed' }] } });
  const busy = await busyOf(ctx, item, times[0].start, times[times.length - 1].end);
  for (const st of times) {
    const v = await vacancies(ctx, item, { start: st.start, end: st.end, seats: item.item.kind === 'tour' ? seats : undefined }, busy);
    if (v.available) return st;
  }
  return times[0];
}
