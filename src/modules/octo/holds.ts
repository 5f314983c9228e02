/**
 * Held sales: what an OCTO reservation asks of the engine (demand from unit items), its price, the
 * product behind a stored booking, and the phases every held sale shares in its `sell` policy: the
 * hold (re)taken inside the item's InventoryLock, then written in one D1 batch with the OCTO
 * booking's compare-and-swap on `version` (the `octo_triggers` guard aborts the batch over a stale read).
 */
import { and, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { commit, type AuditEntry } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { octoBookings, type OctoQuoteRow, type OctoUnitItemRow } from '../../db/schema/octo';
import {
  allocationInserts as insertsOf,
  isAllocationConflict,
  loadItemContext,
  openingOn,
  releaseAllocationsOf,
  reserve,
  type Reservation,
  type SaleJournal,
  type SalePhase,
} from '../availability/service';
import { merchantCtx, type ChannelPrincipal } from '../channel/service';
import { productDef, type OptionDef, type ProductDef } from './catalog';
import { octoFail } from './errors';
import { keyConnections, settingsOf, type OctoBookingRow } from './queries';
import { charterPreTax, priceOf, sumPrices, unitPreTax, type Demand, type Slot } from './slots';
import { DEFAULT_HOLD_MINUTES, MAX_HOLD_MINUTES, MIN_HOLD_MINUTES } from './types';
import { bookingOut, type BookingFacts } from './views';
import type { OctoCaller } from './auth';

const HOUR = 3_600_000;

export interface UnitItemIn {
  uuid?: string;
  unitId: string;
  resellerReference?: string | null;
  contact?: Record<string, unknown> | null;
}

/** Minutes a hold lasts: `expirationMinutes`, at least 15 and at most a day (30 when not given). */
export const holdMinutes = (asked: number | undefined) => Math.min(MAX_HOLD_MINUTES, Math.max(MIN_HOLD_MINUTES, asked ?? DEFAULT_HOLD_MINUTES));

export interface Wanted extends Demand {
  /** Tickets per fare tier (tours). */
  tickets: Record<string, number>;
  count: number;
}

/** The engine's demand of unit items; INVALID_UNIT_ID for a unit the product does not have, UNPROCESSABLE_ENTITY outside the option's limits. */
export function demandOf(def: ProductDef, items: UnitItemIn[]): Wanted {
  const tickets: Record<string, number> = {};
  let seats = 0;
  for (const it of items) {
    const unit = def.units.find((u) => u.id === it.unitId);
    if (!unit)
      throw octoFail('INVALID_UNIT_ID', `The unitId was missing or invalid: ${it.unitId} is not a unit of ${def.it.row.id}`, { extra: { unitId: it.unitId } });
    seats += unit.seats;
    if (unit.tierKey) tickets[unit.tierKey] = (tickets[unit.tierKey] ?? 0) + 1;
  }
  const count = items.length;
  if (count < def.minUnits) throw octoFail('UNPROCESSABLE_ENTITY', `This option needs at least ${def.minUnits} unit items`);
  if (def.maxUnits != null && count > def.maxUnits) throw octoFail('UNPROCESSABLE_ENTITY', `This option takes at most ${def.maxUnits} unit items`);
  if (def.kind === 'tour') return { tickets, count, seats: def.privateCharter ? count : seats, privateCharter: def.privateCharter };
  return { tickets, count, quantity: count };
}

/** The price of the unit items for a slot (cents): per unit, or per booking for a private charter. UNPROCESSABLE_ENTITY without a price. */
export function quoteFor(def: ProductDef, slot: Pick<Slot, 'start' | 'end'>, items: UnitItemIn[]): OctoQuoteRow {
  const noPrice = () => octoFail('UNPROCESSABLE_ENTITY', 'The operator has set no price for this option at that time');
  if (def.pricingPer === 'BOOKING') {
    const pre = charterPreTax(def, items.length);
    if (pre == null) throw noPrice();
    const p = priceOf(def, pre);
    return { currency: def.currency, retail: p.retail, net: p.net, tax: p.tax, taxes: p.taxes, units: [] };
  }
  const units = items.map((it) => {
    const unit = def.units.find((u) => u.id === it.unitId)!;
    const pre = unitPreTax(def, unit, slot.start, slot.end);
    if (pre == null) throw noPrice();
    return { unitId: unit.id, ...priceOf(def, pre) };
  });
  const total = sumPrices(units);
  return {
    currency: def.currency,
    retail: total.retail,
    net: total.net,
    tax: total.tax,
    taxes: total.taxes,
    units: units.map((u) => ({ unitId: u.unitId, retail: u.retail, net: u.net, tax: u.tax, taxes: u.taxes })),
  };
}

/** Stored unit items: each keeps the reseller's uuid or gets one. */
export const unitItemRows = (items: UnitItemIn[]): OctoUnitItemRow[] =>
  items.map((it) => ({
    uuid: it.uuid?.toLowerCase() ?? crypto.randomUUID(),
    unitId: it.unitId,
    resellerReference: it.resellerReference ?? null,
    contact: it.contact ?? null,
  }));

/** The product of a stored booking, through the connection it was sold on (FORBIDDEN when the key no longer sells it). */
export async function defOfRow(ctx: Ctx, p: ChannelPrincipal, row: OctoBookingRow): Promise<ProductDef> {
  const conn = (await keyConnections(ctx, p)).find((c) => c.id === row.connectionId);
  if (!conn) throw new ApiError('forbidden', 'This booking was sold through a connection this key no longer has');
  return productDef(await loadItemContext(ctx.db, row.productId, row.customerId), conn);
}

export function optionOrFail(def: ProductDef, optionId: string): OptionDef {
  const option = def.options.find((o) => o.id === optionId);
  if (!option) throw octoFail('INVALID_OPTION_ID', 'The optionId was missing or invalid', { extra: { optionId } });
  return option;
}

/** Facts a booking view needs, read for one booking. */
export async function factsOf(ctx: Ctx, row: OctoBookingRow, def: ProductDef, rental: BookingFacts['rental']): Promise<BookingFacts> {
  const settings = await settingsOf(ctx, row.customerId);
  const item = def.it.item;
  const allDay = def.availabilityType === 'OPENING_HOURS';
  const hours = allDay ? openingOn(item, row.localDate) : null;
  return {
    tz: item.timezone,
    allDay,
    openingHours: hours ? [{ from: hours.open, to: hours.close }] : [],
    noticeMs: (item.model.minimumNoticeHours ?? 0) * HOUR,
    cutoffHours: settings.cancellationCutoffHours,
    pricingPer: def.pricingPer,
    rental,
    // The seller's "now" (a sandbox test clock's operator reads its clock's time).
    now: (await onOperatorClock(ctx, row.customerId)).clock.now(),
  };
}

export function viewOf(row: OctoBookingRow, facts: BookingFacts, caller: OctoCaller) {
  return bookingOut(row, facts, caller);
}

/** The lock request of a held sale of a slot. */
export function holdLine(
  def: ProductDef,
  sourceId: string,
  slot: Pick<Slot, 'start' | 'end'>,
  want: Wanted,
  expiresAt: number,
  opts: { exclude?: boolean; enforceRules?: boolean } = {},
) {
  return {
    customerId: def.it.row.customerId,
    itemId: def.it.row.id,
    expectVersion: def.it.row.version,
    line: {
      kind: 'booking' as const,
      sourceId,
      start: slot.start,
      end: slot.end,
      ...(def.kind === 'tour' ? { seats: want.seats ?? want.count, privateCharter: def.privateCharter } : { quantity: want.quantity ?? want.count }),
      enforceRules: opts.enforceRules ?? true,
      expiresAt,
      ...(opts.exclude ? { excludeSourceIds: [sourceId] } : {}),
    },
  };
}

/** Allocation rows of a reservation, to insert. */
export const allocationInserts = (ctx: Ctx, r: Reservation): Stmt[] => insertsOf(ctx, r, nowIso(ctx));

/** Deactivates the allocations a booking holds (its hold), before new ones go in. */
export const releaseHoldStmt = (ctx: Ctx, row: Pick<OctoBookingRow, 'id' | 'customerId'>): Stmt =>
  releaseAllocationsOf(ctx, { customerId: row.customerId, sourceId: row.id });

/** The compare-and-swap update of an OCTO booking read at `row.version` (the trigger aborts the batch otherwise). */
export const casStmt = (ctx: Ctx, row: OctoBookingRow, set: Partial<OctoBookingRow>): Stmt =>
  ctx.db
    .update(octoBookings)
    .set({ ...set, version: row.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(octoBookings.id, row.id), eq(octoBookings.customerId, row.customerId)));

export const isVersionConflict = (err: unknown) =>
  /version_conflict/.test(`${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`);

/** What a held sale (OCTO's reserve, extend and move) keeps for the phases it shares: the seller, the lock request, the audit row. */
export interface HeldSale {
  p: ChannelPrincipal;
  def?: ProductDef;
  lockReq?: ReturnType<typeof holdLine>;
  audit?: AuditEntry;
  reservation?: Reservation;
}

/**
 * The phases every held sale shares, for its `sell` policy: the hold taken (or moved, or extended)
 * inside the item's lock, then written with `statements` (the OCTO booking's insert or
 * compare-and-swap around the reservation's allocation rows) in one commit as the seller. A refusal
 * of the lock is UNPROCESSABLE_ENTITY with the engine's reason; a racing change of the booking is
 * UNPROCESSABLE_ENTITY too.
 */
export function heldSalePhases<S extends HeldSale>(statements: (ctx: Ctx, s: S, r: Reservation) => Stmt[]) {
  return {
    async reserve(ctx: Ctx, s: S, journal: SaleJournal) {
      s.reservation = await reserve(ctx, need(s.lockReq));
      journal.held(s.reservation);
    },
    async write(ctx: Ctx, s: S, journal: SaleJournal) {
      await commit(await merchantCtx(ctx, s.p, need(s.def).conn), statements(ctx, s, need(s.reservation)), { audit: need(s.audit), via: journal.writer(ctx) });
      journal.written();
    },
    failure: heldSaleFailure,
  };
}

const need = <T>(v: T | undefined): T => v as T;

/** What a failed held sale answers: OCTO's UNPROCESSABLE_ENTITY for a refusal of the lock or a lost race of the write. */
function heldSaleFailure(err: unknown, _s: unknown, phase: SalePhase): unknown {
  if (phase === 'reserve' && err instanceof ApiError) {
    if (err.code === 'unavailable') return octoFail('UNPROCESSABLE_ENTITY', `Not available: ${err.message}`);
    if (err.code === 'version_conflict') return octoFail('UNPROCESSABLE_ENTITY', 'The product changed while the request was handled; retry');
  }
  if (phase === 'write') {
    if (isAllocationConflict(err)) return octoFail('UNPROCESSABLE_ENTITY', 'The time was taken by another sale at the last moment');
    if (isVersionConflict(err)) return octoFail('UNPROCESSABLE_ENTITY', 'The booking was changed by another request at the same time; read it and retry');
  }
  return undefined;
}
