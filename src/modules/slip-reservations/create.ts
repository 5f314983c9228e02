import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit, type AuditEntry, type DomainEvent } from '../../lib/commit';
import { nowIso } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slipReservationChanges, slipReservations } from '../../db/schema/slip-reservations';
import { getRenterInTenant, isRenterEmailConflict, renterUpsert } from '../renters/service';
import { getSlipRow, slipOccupancyStmt } from '../slips/service';
import { sell, type SalePolicy } from '../availability/service';
import type * as s from './schemas';
import { isReservationRace, raceError, reservationChange } from './changes';
import { contractFollowsTerms, contractResetOf } from './contract-terms';
import { chargeDelta } from './ledger';
import { takeStayPayment, type HeldSlipPayment, type SlipCharge } from './payments';
import { isSlipConflict, releaseSlip, reserveSlip, slipBackstopConflict, type SlipLockEntry } from './lock';
import { depositFor } from './pricing';
import { getReservationRow, reservationView } from './queries';
import { boatOf, checkDates, quote, requireFit, requireNotPast, requireOpen, settingsOf, totalsOf } from './quote';
import { isBlocking } from './types';
import type { ReservationRow } from './views';

/**
 * A reservation change plus the ledger entries that bring the posted charges to the new totals (one
 * batch); recognition reversed to nothing clears `recognizedThrough`.
 */
export function changeWithLedger(ctx: Ctx, r: ReservationRow, patch: Partial<ReservationRow>, action: string, details?: Record<string, unknown>) {
  const ledger = chargeDelta(ctx, { ...r, ...patch });
  const recognition = ledger.recognizedThrough === null ? { recognizedThrough: null } : {};
  const { row, stmts } = reservationChange(ctx, r, { ...patch, ...recognition, postedCharges: ledger.posted }, action, details);
  return { row, stmts: [...stmts, ...ledger.stmts], entries: ledger.rows };
}

/**
 * A change that may alter the terms of the stay (dates, rate type, unit, rate, length, total):
 * `changeWithLedger` with the contract taken back to unsigned when the terms differ. With
 * `contractReset`, the caller calls `contractFollowsTerms` after its commit.
 */
export function termsChangeWithLedger(ctx: Ctx, r: ReservationRow, patch: Partial<ReservationRow>, action: string, details: Record<string, unknown> = {}) {
  const reset = contractResetOf(r, { ...r, ...patch });
  const change = changeWithLedger(ctx, r, { ...patch, ...reset }, action, reset ? { ...details, contractReset: r.contractStatus } : details);
  return { ...change, contractReset: !!reset };
}

const NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const newNumber = () => `SR-${randomString(7, NUMBER_ALPHABET)}`;

/** The webhook sent for reservation changes (slip reservations are bookings of a marina unit). */
export function reservationEvent(type: DomainEvent['type'], r: ReservationRow, extra: Record<string, unknown> = {}): DomainEvent {
  return {
    type,
    customerId: r.customerId,
    data: {
      kind: 'slip_reservation',
      reservationId: r.id,
      reservationNumber: r.reservationNumber,
      locationId: r.locationId,
      slipId: r.slipId,
      renterId: r.renterId,
      status: r.status,
      rateType: r.rateType,
      arrivalDate: r.arrivalDate,
      departureDate: r.departureDate,
      totalCents: r.totalCents,
      ...extra,
    },
  };
}

/**
 * Runs a write that makes `r` hold `slipId` for its nights: reserve in the unit's lock, build and
 * commit the batch, release. The trigger backstop and a version race both answer 409.
 */
export async function underSlipLock<T>(
  ctx: Ctx,
  req: { slipId: string; reservationId: string; arrivalDate: string; departureDate: string },
  write: (entry: SlipLockEntry) => Promise<T>,
): Promise<T> {
  const entry = await reserveSlip(ctx, { customerId: tenantOf(ctx), ...req });
  try {
    return await write(entry);
  } catch (err) {
    if (isSlipConflict(err)) throw slipBackstopConflict();
    if (isReservationRace(err)) throw raceError();
    throw err;
  } finally {
    await releaseSlip(ctx.env, entry);
  }
}

async function renterFor(
  ctx: Ctx,
  input: z.output<typeof s.CreateBody>,
): Promise<{ id: string; snapshot: ReservationRow['renter']; stmts: Stmt[]; events: DomainEvent[] }> {
  const customerId = tenantOf(ctx);
  if (input.renterId) {
    const r = await getRenterInTenant(ctx, input.renterId);
    return { id: r.id, snapshot: { firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone }, stmts: [], events: [] };
  }
  if (!input.renter)
    throw new ApiError('validation_failed', 'Give renterId or renter', {
      details: [{ field: 'renter', code: 'required', message: 'renterId or renter is required' }],
    });
  const up = await renterUpsert(ctx, { customerId, ...input.renter, phone: input.renter.phone });
  return {
    id: up.renterId,
    snapshot: { firstName: input.renter.firstName, lastName: input.renter.lastName, email: input.renter.email, phone: input.renter.phone ?? null },
    stmts: up.statements,
    events: up.events,
  };
}

/**
 * What other marina modules add to a reservation they create (waitlist offers, public bookings):
 * where it came from, a hold instead of pending/confirmed, a payment taken through the payments
 * service inside the unit's lock before the write (refunded by the service if the write fails), and
 * their own statements and events in the same batch.
 */
export interface CreateOptions {
  /** `staff` (default), `waitlist`, `public`, `portal`. */
  source?: string;
  /** Create the reservation `awaiting_payment` holding the unit until this instant (epoch ms). */
  holdExpiresAt?: number;
  /**
   * A payment taken after the nights are reserved and before the write (null: nothing to take), with
   * the reservation's priced row. Without `input.status` the reservation is written `confirmed` with it.
   */
  payment?: (row: ReservationRow) => SlipCharge | null;
  /** Statements and events of the caller, committed in the reservation's batch. */
  extra?: (row: ReservationRow) => { stmts: Stmt[]; events?: DomainEvent[] };
}

export async function createReservation(ctx: Ctx, input: z.output<typeof s.CreateBody>, opts: CreateOptions = {}) {
  requirePermission(ctx, 'marina');
  return await writeNewReservation(ctx, input, opts);
}

/**
 * Creates a reservation without a staff permission check: for callers that decided who may book
 * (the public slip pages and the tenant portal act for the operator of the unit).
 */
export async function writeNewReservation(ctx: Ctx, input: z.output<typeof s.CreateBody>, opts: CreateOptions = {}) {
  const stay = await planStay(ctx, input, opts);
  for (let attempt = 0; ; attempt++) {
    try {
      const written = await sell(ctx, { input, opts, stay }, staySale);
      return await reservationView(ctx, written);
    } catch (err) {
      // A first-time renter created by a racing request, or a reservation number drawn twice: retry once.
      const retry =
        isRenterEmailConflict(err) || /UNIQUE constraint failed: slip_reservations\.customer_id, slip_reservations\.reservation_number/.test(String(err));
      if (retry && attempt < 2) continue;
      throw err;
    }
  }
}

/**
 * What the stay is, checked before anything is held or charged: the unit open for these nights
 * (from today at the earliest, on the location's calendar), the boat fitting it, the price and the
 * status it is written with. The reservation id is kept across retries.
 */
async function planStay(ctx: Ctx, input: z.output<typeof s.CreateBody>, opts: CreateOptions) {
  checkDates(input.arrivalDate, input.departureDate, input.rateType);
  const slip = await getSlipRow(ctx, input.slipId);
  await requireNotPast(ctx, slip.locationId, input.arrivalDate);
  requireOpen(slip);
  const settings = await settingsOf(ctx, slip.locationId);
  const boat = boatOf(input.boat);
  const fit = requireFit(slip, boat, settings, input.overrideFit);
  const price = quote(slip, settings, { rateType: input.rateType, arrivalDate: input.arrivalDate, departureDate: input.departureDate, boat }, input);
  const status: ReservationRow['status'] =
    opts.holdExpiresAt != null ? 'awaiting_payment' : (input.status ?? (opts.payment || !settings.approvalRequired ? 'confirmed' : 'pending'));
  return { slip, settings, boat, fit, price, status, id: newId('srv') };
}
type PlannedStay = Awaited<ReturnType<typeof planStay>>;

/** A stay sale's state, filled phase by phase. */
interface StaySale {
  input: z.output<typeof s.CreateBody>;
  opts: CreateOptions;
  stay: PlannedStay;
  renter?: Awaited<ReturnType<typeof renterFor>>;
  row?: ReservationRow;
  ledger?: Stmt[];
  payment?: HeldSlipPayment;
  written?: ReservationRow;
}
const need = <T>(v: T | undefined): T => v as T;

/**
 * The `sell` policy of a marina stay: the renter read (or made), the reservation row priced, the
 * nights reserved in the unit's SlipLock (a lease released like the sale's reservations), the
 * payment taken (refunded if the write never happens) and everything written in one batch. The
 * trigger backstop and a version race both answer 409.
 */
const staySale: SalePolicy<{ input: z.output<typeof s.CreateBody>; opts: CreateOptions; stay: PlannedStay }, StaySale, ReservationRow> = {
  name: 'slip.stay',
  begin: (_ctx, order) => ({ ...order }),
  async read(ctx, st) {
    st.renter = await renterFor(ctx, st.input);
  },
  plan(ctx, st) {
    const row = newReservationRow(ctx, st);
    const ledger = chargeDelta(ctx, row);
    st.row = { ...row, postedCharges: ledger.posted };
    st.ledger = ledger.stmts;
  },
  async reserve(ctx, st, journal) {
    const row = need(st.row);
    const entry = await reserveSlip(ctx, {
      customerId: tenantOf(ctx),
      slipId: row.slipId,
      reservationId: row.id,
      arrivalDate: row.arrivalDate,
      departureDate: row.departureDate,
    });
    journal.leased('slip lock', () => releaseSlip(ctx.env, entry));
  },
  async charge(ctx, st, journal) {
    const charge = st.opts.payment?.(need(st.row)) ?? null;
    if (!charge) return;
    // The payments service takes the money and commits `payment.completed` in the write's batch; it refunds a charge never written.
    const payment = await takeStayPayment(ctx, need(st.row), charge);
    st.payment = payment;
    journal.onUndo('refund', () => payment.abandon());
  },
  async write(ctx, st, journal) {
    const { stmts, meta } = stayBatch(ctx, st);
    if (st.payment) await st.payment.record(stmts, meta);
    else await commit(ctx, stmts, meta);
    journal.written();
    const paid = st.payment?.paid;
    st.written = paid ? { ...need(st.row), amountPaidCents: paid.payment.amountCents } : need(st.row);
  },
  answer: (st) => need(st.written),
  failure(err, _st, phase) {
    if (phase !== 'charge' && phase !== 'write') return undefined;
    if (isSlipConflict(err)) return slipBackstopConflict();
    if (isReservationRace(err)) return raceError();
    return undefined;
  },
};

/** The new reservation's row, before its posted charges. */
function newReservationRow(ctx: Ctx, st: StaySale): ReservationRow {
  const { input, opts } = st;
  const { slip, settings, boat, price, status, id } = st.stay;
  const renter = need(st.renter);
  const now = nowIso(ctx);
  return {
    id,
    customerId: slip.customerId,
    locationId: slip.locationId,
    reservationNumber: newNumber(),
    slipId: slip.id,
    renterId: renter.id,
    renter: renter.snapshot,
    status,
    rateType: input.rateType,
    arrivalDate: input.arrivalDate,
    departureDate: input.departureDate,
    boat,
    ...totalsOf(price),
    currency: 'usd',
    depositCents: depositFor(settings.deposit, price),
    amountPaidCents: 0,
    amountRefundedCents: 0,
    postedCharges: {},
    recognizedThrough: null,
    holdExpiresAt: opts.holdExpiresAt ?? null,
    billSentAt: null,
    confirmedAt: status === 'confirmed' ? now : null,
    checkedInAt: null,
    checkedOutAt: null,
    cancelledAt: null,
    cancellationReason: null,
    expiredAt: null,
    contractStatus: 'none',
    contractId: null,
    contractSignedAt: null,
    notes: input.notes ?? null,
    source: opts.source ?? 'staff',
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** The stay's one batch: renter, reservation and its first change, ledger, payment and the caller's statements, with the audit row and events. */
function stayBatch(ctx: Ctx, st: StaySale): { stmts: Stmt[]; meta: { audit: AuditEntry; events: DomainEvent[] } } {
  const created = need(st.row);
  const renter = need(st.renter);
  const { status, fit, slip, id } = st.stay;
  const paid = st.payment?.paid ?? null;
  const extra = st.opts.extra?.(created);
  const stmts = [
    ...renter.stmts,
    ctx.db.insert(slipReservations).values(created),
    ctx.db.insert(slipReservationChanges).values({
      id: `${id}_v1`,
      customerId: created.customerId,
      reservationId: id,
      version: 1,
      action: 'create',
      details: { status, source: created.source, overrideFit: fit.length ? fit : undefined },
      actorId: ctx.principal.userId ?? ctx.principal.credentialId,
    }),
    ...need(st.ledger),
    ...(paid?.stmts ?? []),
    ...(extra?.stmts ?? []),
  ];
  const audit: AuditEntry = {
    action: 'slip_reservation.create',
    targetType: 'slip_reservation',
    targetId: id,
    details: {
      slipId: slip.id,
      number: created.reservationNumber,
      totalCents: created.totalCents,
      source: created.source,
      ...(paid ? { paymentId: paid.payment.id, paidCents: paid.payment.amountCents } : {}),
      ...(fit.length ? { fitOverridden: fit } : {}),
    },
  };
  return { stmts, meta: { audit, events: [...renter.events, reservationEvent('booking.created', created), ...(extra?.events ?? [])] } };
}

const PRICE_FIELDS = ['ratePerFootCents', 'fees', 'utilities', 'taxRatePercent', 'discountCents'] as const;

export async function updateReservation(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (r.status === 'cancelled' || r.status === 'checked_out' || r.status === 'expired')
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be changed`);
  const arrivalDate = input.arrivalDate ?? r.arrivalDate;
  const departureDate = input.departureDate ?? r.departureDate;
  const rateType = input.rateType ?? r.rateType;
  // New dates or a new rate type must make a stay that rate type takes (at least one of its periods).
  const termChosen = arrivalDate !== r.arrivalDate || departureDate !== r.departureDate || rateType !== r.rateType;
  checkDates(arrivalDate, departureDate, termChosen ? rateType : undefined);
  if (r.status === 'checked_in' && arrivalDate !== r.arrivalDate)
    throw new ApiError('invalid_state', 'The boat is checked in: the arrival date cannot change (the departure date can)');
  // A new arrival date is today at the earliest; an arrival already past may stay as it is.
  if (arrivalDate !== r.arrivalDate) await requireNotPast(ctx, r.locationId, arrivalDate);
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const boat = input.boat ? boatOf({ ...r.boat, ...input.boat } as typeof r.boat) : r.boat;
  if (input.boat) requireFit(slip, boat, settings, input.overrideFit);
  const datesChanged = arrivalDate !== r.arrivalDate || departureDate !== r.departureDate;
  const reprice = datesChanged || input.boat?.loaFt !== undefined || input.rateType !== undefined || PRICE_FIELDS.some((k) => input[k] !== undefined);
  const patch: Partial<ReservationRow> = { arrivalDate, departureDate, boat, rateType };
  if (input.notes !== undefined) patch.notes = input.notes;
  if (reprice) {
    const price = quote(
      slip,
      settings,
      { rateType, arrivalDate, departureDate, boat },
      {
        ratePerFootCents: input.ratePerFootCents ?? (input.rateType !== undefined ? undefined : r.pricing.ratePerFootCents),
        fees: input.fees ?? r.pricing.fees,
        utilities: input.utilities ?? r.pricing.utilities,
        taxRatePercent: input.taxRatePercent ?? r.pricing.taxRatePercent,
        discountCents: input.discountCents ?? r.pricing.discountCents,
      },
    );
    Object.assign(patch, totalsOf(price), { depositCents: depositFor(settings.deposit, price) });
  }
  const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined && k !== 'overrideFit');
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one field to change');
  const write = async () => {
    const { row, stmts, contractReset } = termsChangeWithLedger(ctx, r, patch, 'update', { fields });
    await commit(ctx, stmts, {
      audit: { action: 'slip_reservation.update', targetType: 'slip_reservation', targetId: r.id, details: { fields, totalCents: row.totalCents } },
      events: [reservationEvent('booking.updated', row, { fields })],
    });
    if (contractReset) contractFollowsTerms(ctx, row);
    return reservationView(ctx, row);
  };
  // New nights go through the unit's lock; other changes are a plain compare-and-swap.
  if (datesChanged && isBlocking(r, ctx.clock.now()))
    return await underSlipLock(ctx, { slipId: r.slipId, reservationId: r.id, arrivalDate, departureDate }, write);
  try {
    return await write();
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

/**
 * The renter corrects their boat in the tenant portal (the caller checked ownership): descriptive
 * fields freely; dimensions only when the boat still fits the unit (no override), and a new length
 * re-prices the stay with the reservation's own rate, fees, tax and discount.
 */
export async function changeBoat(ctx: Ctx, r: ReservationRow, boatPatch: Partial<ReservationRow['boat']>) {
  if (!['pending', 'awaiting_payment', 'confirmed', 'checked_in'].includes(r.status))
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be changed`);
  const fields = Object.keys(boatPatch).filter((k) => (boatPatch as Record<string, unknown>)[k] !== undefined);
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one vessel field to change');
  const boat = boatOf({ ...r.boat, ...boatPatch } as typeof r.boat);
  const slip = await getSlipRow(ctx, r.slipId);
  const settings = await settingsOf(ctx, r.locationId);
  const dims = ['loaFt', 'beamFt', 'draftFt', 'airDraftFt'].some((k) => fields.includes(k));
  if (dims) requireFit(slip, boat, settings, false);
  const patch: Partial<ReservationRow> = { boat };
  if (boat.loaFt !== r.boat.loaFt) {
    const price = quote(
      slip,
      settings,
      { rateType: r.rateType, arrivalDate: r.arrivalDate, departureDate: r.departureDate, boat },
      {
        ratePerFootCents: r.pricing.ratePerFootCents,
        fees: r.pricing.fees,
        utilities: r.pricing.utilities,
        taxRatePercent: r.pricing.taxRatePercent,
        discountCents: r.pricing.discountCents,
      },
    );
    Object.assign(patch, totalsOf(price), { depositCents: depositFor(settings.deposit, price) });
  }
  try {
    const { row, stmts, contractReset } = termsChangeWithLedger(ctx, r, patch, 'vessel_update', { fields, by: 'renter' });
    await commit(ctx, stmts, {
      audit: { action: 'slip_reservation.vessel_update', targetType: 'slip_reservation', targetId: r.id, details: { fields, totalCents: row.totalCents } },
      events: [reservationEvent('booking.updated', row, { fields: fields.map((f) => `boat.${f}`) })],
    });
    if (contractReset) contractFollowsTerms(ctx, row);
    return reservationView(ctx, row);
  } catch (err) {
    if (isReservationRace(err)) throw raceError();
    throw err;
  }
}

export async function transferReservation(ctx: Ctx, id: string, input: z.output<typeof s.TransferBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, id);
  if (!['pending', 'awaiting_payment', 'confirmed', 'checked_in'].includes(r.status))
    throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation cannot be transferred`);
  if (input.slipId === r.slipId) throw new ApiError('bad_request', 'The reservation is already on this unit');
  const target = await getSlipRow(ctx, input.slipId);
  if (target.locationId !== r.locationId) throw new ApiError('bad_request', 'Transfers stay within the location of the reservation');
  requireOpen(target);
  const settings = await settingsOf(ctx, r.locationId);
  const fit = requireFit(target, r.boat, settings, input.overrideFit);
  const patch: Partial<ReservationRow> = { slipId: target.id };
  if (input.reprice) {
    const price = quote(target, settings, r, {
      fees: r.pricing.fees,
      utilities: r.pricing.utilities,
      taxRatePercent: r.pricing.taxRatePercent,
      discountCents: r.pricing.discountCents,
    });
    Object.assign(patch, totalsOf(price), { depositCents: depositFor(settings.deposit, price) });
  }
  return await underSlipLock(ctx, { slipId: target.id, reservationId: r.id, arrivalDate: r.arrivalDate, departureDate: r.departureDate }, async () => {
    const { row, stmts, contractReset } = termsChangeWithLedger(ctx, r, patch, 'transfer', { from: r.slipId, to: target.id, reason: input.reason ?? null });
    const occupancy = r.status === 'checked_in' ? [slipOccupancyStmt(ctx, r.slipId, false), slipOccupancyStmt(ctx, target.id, true)] : [];
    await commit(ctx, [...stmts, ...occupancy], {
      audit: {
        action: 'slip_reservation.transfer',
        targetType: 'slip_reservation',
        targetId: r.id,
        details: { from: r.slipId, to: target.id, reprice: input.reprice, ...(fit.length ? { fitOverridden: fit } : {}) },
      },
      events: [reservationEvent('booking.updated', row, { transferredFrom: r.slipId })],
    });
    if (contractReset) contractFollowsTerms(ctx, row);
    return reservationView(ctx, row);
  });
}
