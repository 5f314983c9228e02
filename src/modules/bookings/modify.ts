/**
 * Booking changes (issue 31 "Changes reprice", issue 32's self-service change): one sale policy for
 * every change of a pending or confirmed booking — its window (a reschedule is a change of the window
 * alone), its party (a tour's tickets and seats, a rental's people), its add-ons and (the operator's
 * `inventoryId`, issue 33) its item: another item of the same kind at the location, reserved in THAT
 * item's lock and priced at its prices, the old item's allocations released in the write — run by `sell` like
 * a new sale, whoever asks (the operator, the renter, a reseller):
 *
 *   read     the booking, its item and its open charges
 *   plan     the new window (reschedule.ts) and the new party and add-ons (party.ts), checked as a new sale's line
 *   price    priced like a new booking of that shape with the booking's discounts (reprice.ts), or the price kept
 *   reserve  the new shape inside the item's lock when it takes capacity (a new window, a tour's seats),
 *            the booking's own allocations set aside: two changes racing for the last seats, one wins (409 for the other)
 *   charge   a higher price's difference to the card on file, when asked
 *   write    ONE batch: activity (the compare-and-swap), the booking's columns, the allocations swapped,
 *            the ledger's charges reversed and rewritten, installments, the renter's e-mail, money from the ledger
 *   after    a lower price's refund to the card, the hooks of a move, the booking read back
 *
 * `quoteBookingChange` runs read, plan and price only: the same price and difference, nothing reserved or written.
 */
import type { z } from '@hono/zod-openapi';
import { nowIso } from '../../lib/clock';
import { requirePermission, type Ctx } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import type { BatchRunner, Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { PaymentError } from '../../adapters/payments';
import { loadItemContext, sell, type ItemContext, type Reservation, type SaleJournal, type SalePolicy } from '../availability/service';
import { takePayment, type TakenPayment } from '../payments/service';
import { activityStmt } from './activity';
import { moneyFromLedgerStmt, type LedgerRow } from './ledger';
import { planFollowsBalanceStmts } from './installments';
import type { PreparedLine } from './lines';
import { dollars, quoteOut } from './pricing';
import type { BookingShape, ChangeQuote } from './schemas';
import { bookingOut, type BookingRow } from './views';
import { getBookingRow } from './queries';
import { casUpdate } from './changes';
import { inThePast } from './errors';
import { changedLines, lineChangeOf, partyChanges, partySet, prepareChanged, type PartyAsk } from './party';
import {
  cardOnFile,
  changeEmailStmts,
  differenceCharge,
  openCharges,
  planRepricing,
  priceChangeOut,
  refundDifference,
  repricedSet,
  repriceStmts,
  settlementOf,
  unchangedPrice,
  type LineChange,
  type RepriceAsk,
  type Repricing,
} from './reprice';
import { announceMove, commitMove, reserveShape, swapAllocations, windowEnd, windowSet } from './reschedule';

/** A change: any of a new window, party and add-ons, and what to do with the price. */
export type ChangeInput = { startTime?: string; endTime?: string; assetIds?: string[]; inventoryId?: string } & PartyAsk & RepriceAsk;
/** `reschedule`: a move (its e-mail and events say so); `modify`: any change. `source`: who asks (not the operator: the item's booking rules hold). */
export type ChangeOptions = { kind?: 'reschedule' | 'modify'; source?: 'operator' | 'widget' | 'channel' | 'marketplace' };
type BookingView = ReturnType<typeof bookingOut>;
export type PriceChangeView = ReturnType<typeof priceChangeOut>;
export type ChangeAnswer = BookingView & { pricing: BookingView['pricing'] & { change: PriceChangeView } };

/** POST /coreBooking/{rentalId}/modify: the operator's change (needs the `bookings` permission: it moves money). */
export async function modifyBooking(ctx: Ctx, rentalId: string, input: ChangeInput): Promise<ChangeAnswer> {
  requirePermission(ctx, 'bookings');
  return changeBooking(ctx, rentalId, input, { kind: 'modify' });
}

/**
 * Moves a pending or confirmed booking to a new window, repriced (see the file comment and reprice.ts);
 * the renter is e-mailed the new time and price; fires booking.updated and booking.rescheduled.
 */
export function rescheduleBooking(
  ctx: Ctx,
  rentalId: string,
  input: { startTime: string; endTime?: string; assetIds?: string[] } & RepriceAsk,
  opts: { source?: ChangeOptions['source'] } = {},
): Promise<ChangeAnswer> {
  return changeBooking(ctx, rentalId, input, { ...opts, kind: 'reschedule' });
}

/** Any change of a booking, by any path (the caller checks who may ask). */
export function changeBooking(ctx: Ctx, rentalId: string, input: ChangeInput, opts: ChangeOptions = {}): Promise<ChangeAnswer> {
  return sell(ctx, { rentalId, input, opts }, changeSale);
}

/**
 * The price of a change before it is made (the renter's change-quote): the booking as it is and as it
 * would be, and the price change as the change would settle it. Nothing is reserved, charged or written:
 * the time may be taken meanwhile, and the change itself checks it inside the lock.
 */
export async function quoteBookingChange(ctx: Ctx, rentalId: string, input: ChangeInput, opts: ChangeOptions = {}): Promise<z.output<typeof ChangeQuote>> {
  const s = begin({ rentalId, input, opts });
  await readChange(ctx, s);
  await planChange(ctx, s);
  await priceChange(ctx, s);
  const b = need(s.b);
  const item = need(s.item);
  const r = need(s.price);
  // As the change would settle it: a charge asked for without a card on file stays a balance due.
  if (r.settlement === 'charged' && !(await cardOnFile(ctx, b))) Object.assign(r, settlementOf(b, r.difference, {}), { reason: 'no_card_on_file' });
  const current = shapeOf(bookingOut(b));
  const line = need(s.line);
  const proposed = {
    startTime: iso(need(s.start)),
    endTime: iso(need(s.end)),
    participants: line.participants,
    tickets: line.tour ? Object.fromEntries(line.tour.tickets.map((t) => [t.tier, t.quantity])) : null,
    addons: line.input.addons.map((a) => ({ addonId: a.addonId, name: a.name, quantity: a.quantity })),
    total: dollars(r.previousTotal + r.difference),
  };
  return {
    ...{ rentalId: b.id, inventoryId: b.itemId, locationId: b.locationId, customerId: b.customerId },
    ...(item.item.kind === 'tour' ? { kind: 'tour' as const, units: 1 } : { kind: 'rental' as const, units: b.quantity }),
    ...{ currency: b.currency, timezone: item.item.timezone, unchanged: !!s.same, current, proposed: s.same ? current : proposed },
    ...{ change: priceChangeOut(r), breakdown: r.quote ? quoteOut(r.quote) : null },
  };
}

/** A booking's shape (its window, party, add-ons and total) from its view: what a change shows before and after. */
export function shapeOf(v: BookingView): z.output<typeof BookingShape> {
  const fares = v.pricing.breakdown?.tickets;
  const rdTickets = (v.rentalDetails as { tickets?: Record<string, number> } | null)?.tickets;
  const kept = !!(v.extendedData as { priceKept?: boolean } | null)?.priceKept;
  return {
    startTime: v.startTime,
    endTime: v.endTime,
    participants: v.participants,
    // The priced tickets (by fare name), else the ones asked for (a kept price's breakdown is the old party's).
    tickets: fares && !kept ? Object.fromEntries(fares.map((t) => [t.tier, t.quantity])) : (rdTickets ?? null),
    addons: (v.addons as { addonId: string; name: string; quantity: number }[]).map((a) => ({ addonId: a.addonId, name: a.name, quantity: a.quantity })),
    total: v.pricing.total,
  };
}

/** A change's state, filled phase by phase (`same`: the booking already is what is asked, nothing to sell). */
interface ChangeState {
  rentalId: string;
  input: ChangeInput;
  kind: 'reschedule' | 'modify';
  source: NonNullable<ChangeOptions['source']>;
  b?: BookingRow;
  /** The booking as it is when the change moves it to another item (`b` is then the booking on the new item). */
  from?: BookingRow;
  item?: ItemContext;
  open?: LedgerRow[];
  start?: number;
  end?: number;
  change?: LineChange;
  line?: PreparedLine;
  what?: { moved: boolean; party: boolean; addons: boolean; seats: boolean };
  same?: boolean;
  price?: Repricing;
  res?: Reservation;
  taken?: TakenPayment;
  after?: BookingRow;
  view?: BookingView;
}
type S = ChangeState;
const need = <T>(v: T | undefined): T => v as T;
const iso = (ms: number) => new Date(ms).toISOString();

const begin = (o: { rentalId: string; input: ChangeInput; opts: ChangeOptions }): S => ({
  rentalId: o.rentalId,
  input: o.input,
  kind: o.opts.kind ?? 'modify',
  source: o.opts.source ?? 'operator',
});

/** A change is a sale of the booking's new shape: priced, reserved inside the item's lock, its difference charged, and rewritten in one batch. */
const changeSale: SalePolicy<{ rentalId: string; input: ChangeInput; opts: ChangeOptions }, S, ChangeAnswer> = {
  name: 'change',
  begin: (_ctx, order) => begin(order),
  read: readChange,
  plan: planChange,
  price: priceChange,
  async reserve(ctx, s, journal) {
    // Capacity is taken again only when the change takes some: a new window, or a tour's seats.
    if (s.same || !(need(s.what).moved || need(s.what).seats)) return;
    const w = { start: need(s.start), end: need(s.end), assetIds: s.input.assetIds, seats: need(s.line).tour?.seats, source: s.source };
    s.res = await reserveShape(ctx, need(s.b), need(s.item), w);
    journal.held(s.res);
  },
  async charge(ctx, s, journal) {
    if (!s.same) await chargeDifference(ctx, s, journal);
  },
  async write(ctx, s, journal) {
    if (s.same) return;
    await writeChange(ctx, s, journal.writer(ctx));
    journal.written();
  },
  async after(ctx, s) {
    if (s.same) return;
    const r = need(s.price);
    if (r.settlement === 'refunded') await refundDifference(ctx, need(s.after), r);
    if (need(s.what).moved) await announceMove(ctx, s.from ?? need(s.b), need(s.after));
    // Read back: the money columns follow the ledger (the new charges, the refund).
    s.view = bookingOut(await getBookingRow(ctx, s.rentalId), { timezone: need(s.item).item.timezone });
  },
  answer: (s) => {
    const v = need(s.view);
    return { ...v, pricing: { ...v.pricing, change: priceChangeOut(need(s.price)) } };
  },
  failure: (err) =>
    err instanceof PaymentError ? new ApiError('payment_failed', err.message, { extra: { declineCode: err.code, stage: 'difference' } }) : undefined,
};

async function readChange(ctx: Ctx, s: S) {
  const b = await getBookingRow(ctx, s.rentalId);
  if (b.status !== 'pending' && b.status !== 'confirmed')
    throw new ApiError('invalid_state', `A ${b.status} booking cannot be ${s.kind === 'reschedule' ? 'rescheduled' : 'changed'}`, {
      extra: { status: b.status },
    });
  const to = s.input.inventoryId && s.input.inventoryId !== b.itemId ? s.input.inventoryId : null;
  const [item, open, was] = await Promise.all([
    loadItemContext(ctx.db, to ?? b.itemId, b.customerId),
    openCharges(ctx, b),
    to ? loadItemContext(ctx.db, b.itemId, b.customerId) : undefined,
  ]);
  [s.item, s.open, s.b] = [item, open, b];
  if (to && was) {
    otherItemFits(b, was, item);
    // The booking on its new item: priced, reserved and written as a sale of that item (its assets chosen there).
    s.from = b;
    s.b = { ...b, itemId: to, assetIds: [] };
  }
}

/** Another item for a booking: at the booking's location, of the same kind (a rental's boats, a tour's seats) and currency. */
function otherItemFits(b: BookingRow, was: ItemContext, item: ItemContext) {
  const field = 'inventoryId';
  const refuse = (message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });
  if (item.row.locationId !== b.locationId) throw refuse("The other item must be at the booking's location");
  if (item.item.kind !== was.item.kind) throw refuse(`A ${was.item.kind} booking moves to another ${was.item.kind} item`);
  if (item.currency.toLowerCase() !== b.currency.toLowerCase())
    throw refuse(`The other item sells in ${item.currency.toUpperCase()}, the booking is in ${b.currency.toUpperCase()}`);
}

/** The booking's shape after the change: its window, its line (party and add-ons, checked as a sale's), and what changes. */
async function planChange(ctx: Ctx, s: S) {
  const b = need(s.b);
  const item = need(s.item);
  const { startTime, endTime, assetIds } = s.input;
  const start = startTime ? Date.parse(startTime) : b.start;
  // A booking is not moved to a time already past (on the operator's clock).
  if (startTime && start < ctx.clock.now()) throw inThePast(start, item.item.timezone, ctx.clock.now(), 'startTime');
  // Another item: its own rules for the window (a tour's departure, a rental's allowed durations), the booking's window by default.
  const otherItem = !!s.from;
  const askedEnd = endTime ?? (otherItem && !startTime ? iso(b.end) : undefined);
  const end = startTime || endTime || assetIds || otherItem ? windowEnd(item, b, { startTime: iso(start), endTime: askedEnd, assetIds }, start) : b.end;
  s.start = start;
  s.end = end;
  s.change = lineChangeOf(b, item, s.input);
  s.line = await prepareChanged(ctx, b, item, { start, end, change: s.change });
  const moved = start !== b.start || end !== b.end || !!assetIds || otherItem;
  s.what = { moved, ...partyChanges(b, item, s.line, s.change) };
  s.same = !moved && !s.what.party && !s.what.addons && !s.what.seats;
  if (s.same) {
    s.view = bookingOut(b, { timezone: item.item.timezone });
    s.price = unchangedPrice(b, s.input, s.open);
  }
}

async function priceChange(ctx: Ctx, s: S) {
  if (s.same) return;
  const m = { b: need(s.b), item: need(s.item), start: need(s.start), end: need(s.end), open: need(s.open), ask: s.input, change: s.change };
  s.price = await planRepricing(ctx, m);
}

/**
 * A higher price's difference charged to the card on file when asked (`chargeDifference`), refunded
 * if the write does not happen; without a card on file it stays a balance due.
 */
async function chargeDifference(ctx: Ctx, s: S, journal: SaleJournal) {
  const r = need(s.price);
  if (r.settlement !== 'charged') return;
  const b = need(s.b);
  const card = await cardOnFile(ctx, b);
  if (!card) {
    Object.assign(r, settlementOf(b, r.difference, {}), { reason: 'no_card_on_file' });
    return;
  }
  const taken = await takePayment(ctx, differenceCharge(b, r.amount, card, s.kind === 'reschedule' ? 'reschedule' : 'booking_change'));
  s.taken = taken;
  r.paymentIntentId = taken.paid?.intent?.id ?? null;
  journal.onUndo('refund', () => taken.undo());
}

const itemNamed = (item: ItemContext) => ({ inventoryId: item.row.id, itemName: item.row.name });

/** The booking's columns after the change: its window (when it moved), party and add-ons, and price (or the kept price marked). */
function changedSet(ctx: Ctx, s: S): { set: Partial<BookingRow>; after: BookingRow } {
  const b = need(s.b);
  const r = need(s.price);
  const line = need(s.line);
  const moved = s.res ? windowSet(b, need(s.item), s.res, { start: need(s.start), end: need(s.end), assetIdsAsked: !!s.input.assetIds }) : {};
  const party = partySet({ ...b, ...moved }, line, need(s.change), r.kept);
  const price = repricedSet(b, r);
  const pricing = { ...((price.pricing ?? b.pricing ?? {}) as object), ...(line.tour ? { seats: line.tour.seats } : {}) };
  const set: Partial<BookingRow> = { ...moved, ...party, ...price, pricing };
  // Another item: the booking's item and the request's item in rentalDetails.
  if (s.from) Object.assign(set, { itemId: b.itemId, rentalDetails: { ...((set.rentalDetails ?? b.rentalDetails) as object), ...itemNamed(need(s.item)) } });
  const paid = r.settlement === 'charged' && r.paymentIntentId ? r.amount : 0;
  const after: BookingRow = { ...b, ...set, total: b.total + r.difference, amountPaid: b.amountPaid + paid, version: b.version + 1, updatedAt: nowIso(ctx) };
  return { set, after };
}

/**
 * The one batch: the activity row, the booking's compare-and-swap, the allocations swapped (when the
 * change reserved), the ledger (charges replaced or re-dated, the charged difference), the installments
 * fitted to the new balance, the renter's e-mail, and the booking's money from its ledger.
 */
async function writeChange(ctx: Ctx, s: S, via: BatchRunner | undefined) {
  const b = need(s.b);
  const r = need(s.price);
  const item = need(s.item);
  const { set, after } = changedSet(ctx, s);
  const view = bookingOut(after, { timezone: item.item.timezone });
  const moving = s.kind === 'reschedule';
  const details = changeDetails(s.from ?? b, after, r);
  const changed = changedLines(b, after, item, need(s.what));
  if (s.from)
    changed.unshift({ what: 'Item', was: String((s.from.rentalDetails as { itemName?: string } | null)?.itemName ?? s.from.itemId), now: item.row.name });
  const paid = after.amountPaid - b.amountPaid;
  const statements: Stmt[] = [
    activityStmt(ctx, b, b.version + 1, {
      ...(moving
        ? { type: 'booking.rescheduled', change: 'rescheduled', label: 'Booking rescheduled' }
        : { type: 'booking.modified', change: 'modified', label: 'Booking changed' }),
      details: { ...details, ...(moving ? {} : { changed }) },
    }),
    casUpdate(ctx, b, set),
    ...swapAllocations(ctx, b, s.res),
    ...repriceStmts(ctx, b, r, { start: after.start, assetId: after.assetIds?.[0] ?? null, why: moving ? 'Rescheduled' : 'Changed' }),
    ...(await planFollowsBalanceStmts(ctx, b, { charged: r.difference, paid })),
    ...(await changeEmailStmts(ctx, b, { template: moving ? 'booking.rescheduled' : 'booking.changed', timezone: item.item.timezone, after, r, changed })),
    moneyFromLedgerStmt(ctx, b),
  ];
  const events: DomainEvent[] = [{ type: 'booking.updated', customerId: b.customerId, data: moving ? view : { ...view, change: { ...details, changed } } }];
  if (need(s.what).moved)
    events.push({ type: 'booking.rescheduled', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, ...details, booking: view } });
  await commitMove(ctx, s.taken, statements, {
    audit: { action: moving ? 'booking.reschedule' : 'booking.modify', targetType: 'booking', targetId: b.id, customerId: b.customerId, details },
    events,
    via,
  });
  s.after = after;
  s.view = view;
}

/** The change as the activity, audit and events say it: the window before and after, and the price change. */
function changeDetails(b: BookingRow, after: BookingRow, r: Repricing) {
  const window = (x: BookingRow) => ({ inventoryId: x.itemId, startTime: iso(x.start), endTime: iso(x.end), assetIds: x.assetIds ?? [] });
  return { from: window(b), to: window(after), price: priceChangeOut(r) };
}
