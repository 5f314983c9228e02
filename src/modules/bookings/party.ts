/**
 * The party and add-ons of a booking change (modify.ts). What the request asks becomes the booking's
 * line after the change (reprice.ts `LineChange`), checked the way a new sale's line is (lines.ts
 * `prepareLine`: fare tiers, a tour's minimum party, the item's add-ons and their quantities), then the
 * booking's columns and the e-mail's "was / now" lines follow it.
 *
 * - Tours: `tickets` per fare tier, or `participants` (the booking's one fare, else standard tickets); the
 *   seats a party takes are checked in the item's lock (modify.ts).
 * - Rentals: `participants` (people in the party), at most the item's `capacity` per asset times the assets.
 * - Add-ons: `addons` is the booking's whole list after the change (an add-on left out is removed): the
 *   item's own add-ons and the location's global ones, each at most its `maxQuantity`.
 */
import type { Ctx } from '../../lib/context';
import { ApiError, type CoreErrorCode } from '../../lib/errors';
import { formatLocalRange } from '../../lib/local-time';
import type { ItemContext } from '../availability/service';
import { bad } from './errors';
import { prepareLine, type PreparedLine } from './lines';
import { dollars, type AddonSelection, type LineQuote } from './pricing';
import { seatsOf } from './changes';
import { chosenAddons, lineOf, type ChangedLine, type ChosenAddon, type LineChange } from './reprice';
import type { BookingRow } from './views';

/** What a change asks of the party and the add-ons (absent: as they are). */
export interface PartyAsk {
  participants?: number;
  tickets?: Record<string, number>;
  addons?: AddonSelection[];
}

/** The line a request asks for: only the keys it changes (reprice.ts `lineOf` keeps the others). */
export function lineChangeOf(b: BookingRow, item: ItemContext, ask: PartyAsk): LineChange {
  const tour = item.item.kind === 'tour';
  const out: LineChange = {};
  if (ask.tickets) {
    if (!tour) throw bad('tickets are for tours; give participants for a rental', 'tickets');
    out.tickets = Object.fromEntries(Object.entries(ask.tickets).filter(([, n]) => n > 0));
    if (!Object.keys(out.tickets).length) throw bad('A tour booking needs at least one ticket', 'tickets');
    out.quantity = undefined;
  } else if (ask.participants != null && tour) {
    const fares = Object.entries((b.rentalDetails as { tickets?: Record<string, number> } | null)?.tickets ?? {}).filter(([, n]) => n > 0);
    if (fares.length > 1) throw bad('This booking has tickets of several fares: give tickets per fare instead of participants', 'participants');
    if (fares.length === 1) Object.assign(out, { tickets: { [fares[0][0]]: ask.participants }, quantity: undefined });
    else Object.assign(out, { quantity: ask.participants, tickets: undefined });
  } else if (ask.participants != null) {
    const most = (item.item.model.capacity ?? 1) * Math.max(1, b.quantity);
    if (most > 0 && ask.participants > most)
      throw bad(
        `At most ${most} ${most === 1 ? 'person fits' : 'people fit'} this booking (${item.row.name}: ${item.item.model.capacity} per boat)`,
        'participants',
      );
    out.participants = ask.participants;
  }
  if (ask.addons) {
    const ids = ask.addons.map((a) => a.addonId);
    if (new Set(ids).size !== ids.length) throw bad('Each add-on is listed once (with its quantity)', 'addons');
    const own = new Set((item.item.model.addons ?? []).map((a) => a.addonId));
    out.addons = ask.addons.filter((a) => own.has(a.addonId));
    out.globalAddons = ask.addons.filter((a) => !own.has(a.addonId));
  }
  return out;
}

/** The request's field a line refusal names (the sale's own names: `rentalDetails.quantity`, `selectedBoatAddons`, ...). */
const FIELD: Record<string, string> = { quantity: 'participants', selectedBoatAddons: 'addons', globalAddons: 'addons' };

/** A line's refusal said of the change's own fields. */
function inChangeFields(err: unknown): unknown {
  if (!(err instanceof ApiError) || !err.details) return err;
  const details = err.details.map((d) => {
    const f = d.field?.replace(/^rentalDetails\./, '');
    return { ...d, field: f && (FIELD[f] ?? f) };
  });
  return Object.assign(new ApiError(err.code as CoreErrorCode, err.message, { details, extra: err.extra }), { status: err.status });
}

/**
 * The booking's line after the change, checked as a new sale's line (not priced: a kept price needs
 * none). A refusal names the request's own fields.
 */
export async function prepareChanged(ctx: Ctx, b: BookingRow, item: ItemContext, w: { start: number; end: number; change: LineChange }) {
  try {
    return await prepareLine(ctx, item, lineOf(b, item, w.start, w.end, w.change), false);
  } catch (err) {
    throw inChangeFields(err);
  }
}

const addonsSig = (xs: { addonId: string; quantity: number; global: boolean }[]) =>
  xs
    .map((a) => `${a.addonId}|${a.quantity}|${a.global}`)
    .sort()
    .join(',');
const partySig = (l: ReturnType<typeof lineOf>) => JSON.stringify([l.quantity ?? null, Object.entries(l.tickets ?? {}).sort(), l.participants ?? null]);

/** What the change changes of the party and the add-ons (seats: a tour's seats after it, when they differ). */
export function partyChanges(b: BookingRow, item: ItemContext, p: PreparedLine, change: LineChange) {
  const before = lineOf(b, item, b.start, b.end);
  const party = partySig(before) !== partySig(lineOf(b, item, b.start, b.end, change));
  const addons = addonsSig(chosenAddons(b)) !== addonsSig(p.input.addons);
  const seats = !!p.tour && p.tour.seats !== seatsOf(b);
  return { party, addons, seats };
}

/**
 * The booking's party and add-on columns after the change, on `b` as the window left it (the price
 * columns are reprice.ts `repricedSet`'s; a tour's seats go in its pricing JSON, modify.ts).
 */
export function partySet(b: BookingRow, p: PreparedLine, change: LineChange, kept: boolean): Partial<BookingRow> {
  const rd = { ...((b.rentalDetails ?? {}) as Record<string, unknown>) };
  for (const k of ['quantity', 'tickets', 'participants'] as const) if (k in change) rd[k] = change[k];
  for (const k of Object.keys(rd)) if (rd[k] === undefined) delete rd[k];
  const set: Partial<BookingRow> = { participants: p.participants, rentalDetails: rd };
  if (p.tour) set.quantity = p.quantity;
  if (change.addons || change.globalAddons) {
    rd.addons = p.input.addons.map((a): ChosenAddon => ({ addonId: a.addonId, quantity: a.quantity, global: a.global }));
    // A kept price keeps its breakdown; the add-ons the renter now has are listed all the same.
    if (kept) set.addons = p.input.addons.map((a) => ({ ...a, unitPrice: dollars(a.unitPrice), amount: dollars(a.amount) }));
  }
  return set;
}

/** The party in words: "2 Adult, 1 Child", "3 guests", "4 people". */
function partyText(b: Pick<BookingRow, 'participants' | 'quantity' | 'rentalDetails'>, tour: boolean): string {
  const tickets = Object.entries((b.rentalDetails as { tickets?: Record<string, number> } | null)?.tickets ?? {}).filter(([, n]) => n > 0);
  if (tour && tickets.length) return tickets.map(([tier, n]) => `${n} ${tier}`).join(', ');
  const n = b.participants ?? b.quantity;
  return tour ? `${n} guest${n === 1 ? '' : 's'}` : n ? `${n} ${n === 1 ? 'person' : 'people'}` : 'not given';
}

/** The add-ons in words: "Life jackets x 2, Cooler", or "none". */
function addonsText(xs: ChosenAddon[], names: Map<string, string>): string {
  return xs.length ? xs.map((a) => `${names.get(a.addonId) ?? a.addonId}${a.quantity > 1 ? ` x ${a.quantity}` : ''}`).join(', ') : 'none';
}

/** The "booking changed" e-mail's lines: what changed, as it was and as it is now (times in the location's zone). */
export function changedLines(b: BookingRow, after: BookingRow, item: ItemContext, what: { moved: boolean; party: boolean; addons: boolean }): ChangedLine[] {
  const tz = item.item.timezone;
  const tour = item.item.kind === 'tour';
  const out: ChangedLine[] = [];
  if (what.moved) out.push({ what: 'When', was: formatLocalRange(b.start, b.end, tz), now: formatLocalRange(after.start, after.end, tz) });
  if (what.party) out.push({ what: 'Party', was: partyText(b, tour), now: partyText(after, tour) });
  if (what.addons) {
    const quoted = ((b.pricing as { quote?: LineQuote } | null)?.quote?.addons ?? []).map((a) => [a.addonId, a.name] as const);
    const names = new Map([...quoted, ...(item.item.model.addons ?? []).map((a) => [a.addonId, a.name] as const)]);
    out.push({ what: 'Add-ons', was: addonsText(chosenAddons(b), names), now: addonsText(chosenAddons(after), names) });
  }
  return out;
}
