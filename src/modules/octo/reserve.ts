/**
 * Reservation, extension and update of OCTO bookings. A reservation is a hold: the sale is checked
 * and reserved inside the item's InventoryLock with the channel's sales rules and written as `hold`
 * allocations expiring at `utcExpiresAt` (at least 15 minutes): from that instant the time counts
 * for nobody, without any job having to run. Holds exist on `/octo/v1` only (the channel API has none).
 */
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { ApiError } from '../../lib/errors';
import { commit, type AuditEntry } from '../../lib/commit';
import { newId } from '../../lib/ids';
import { localDate } from '../../lib/time';
import { claimKey, completeKey, releaseKey } from '../../lib/idempotency';
import { octoBookings, type OctoQuoteRow } from '../../db/schema/octo';
import { sell, type SalePolicy } from '../availability/service';
import { rescheduleBooking } from '../bookings/service';
import { merchantCtx } from '../channel/service';
import type { OctoCaller } from './auth';
import { octoFail } from './errors';
import {
  allocationInserts,
  casStmt,
  defOfRow,
  demandOf,
  heldSalePhases,
  holdLine,
  holdMinutes,
  optionOrFail,
  quoteFor,
  releaseHoldStmt,
  unitItemRows,
  isVersionConflict,
  type HeldSale,
  type UnitItemIn,
  type Wanted,
} from './holds';
import { bookingOfKey, findProduct, rentalsOf, type OctoBookingRow } from './queries';
import { slotById, type Slot } from './slots';
import { statusOf } from './views';
import { bookingView } from './lookup';
import type { ReservationBody, UpdateBody } from './schemas';
import type { ProductDef, OptionDef } from './catalog';

const MIN = 60_000;

async function slotOrFail(
  ctx: Ctx,
  caller: OctoCaller,
  def: ProductDef,
  option: OptionDef,
  availabilityId: string | undefined,
  want: ReturnType<typeof demandOf>,
) {
  const invalid = () => octoFail('INVALID_AVAILABILITY_ID', 'The availabilityId was missing or invalid', { extra: { availabilityId: availabilityId ?? '' } });
  if (!availabilityId) throw invalid();
  const slot = await slotById(ctx, caller.p, def, option, availabilityId, want);
  if (!slot) throw invalid();
  return slot;
}

function unavailable(slot: Slot) {
  return octoFail(
    'UNPROCESSABLE_ENTITY',
    slot.status === 'CLOSED'
      ? 'This availability is closed for sale (past the cut-off or out of service)'
      : slot.status === 'SOLD_OUT'
        ? 'This availability is sold out'
        : `Only ${slot.vacancies} left at this availability`,
  );
}

/** Waits for a reservation with the same uuid that is still being written, then answers it. */
async function awaitOther(ctx: Ctx, caller: OctoCaller, uuid: string) {
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      return await bookingView(ctx, caller, await bookingOfKey(ctx, caller.p, uuid));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 'INVALID_BOOKING_UUID')) throw err;
    }
  }
  throw octoFail('UNPROCESSABLE_ENTITY', 'A reservation with this uuid is still being processed; retry shortly');
}

type BookingView = Awaited<ReturnType<typeof bookingView>>;

/**
 * POST /octo/v1/bookings. The reseller's `uuid` is the idempotency key (the shared store of
 * src/lib/idempotency.ts, scoped to the key holder): the same uuid with the same product, option,
 * availability and units answers the same booking as it is now; with another request it is
 * INVALID_BOOKING_UUID.
 */
export async function reserveBooking(ctx: Ctx, caller: OctoCaller, body: z.output<typeof ReservationBody>) {
  const p = caller.p;
  if (!body.unitItems) throw octoFail('UNPROCESSABLE_ENTITY', 'unitItems is required: one item per ticket or rented unit');
  if (!body.unitItems.length) throw octoFail('UNPROCESSABLE_ENTITY', 'unitItems must hold at least one unit item');
  const def = await findProduct(ctx, p, body.productId);
  // The seller is known: its clock (a sandbox test clock's operator reads its clock's time).
  ctx = await onOperatorClock(ctx, def.it.row.customerId);
  const option = optionOrFail(def, body.optionId);
  const want = demandOf(def, body.unitItems);
  const slot = await slotOrFail(ctx, caller, def, option, body.availabilityId, want);
  const uuid = (body.uuid ?? crypto.randomUUID()).toLowerCase();
  const claim = await claimUuid(ctx, caller, uuid, body);
  if ('answer' in claim) return claim.answer;
  try {
    const claimed = { ...ctx, idempotencyClaimId: claim.id };
    const row = await sell(claimed, { p, def, option, slot, want, uuid, body, unitItems: body.unitItems }, holdReservation);
    const view = await bookingView(ctx, caller, row);
    await completeKey(ctx.db, claim.id, 200, JSON.stringify({ id: row.id }));
    return view;
  } catch (err) {
    await releaseKey(ctx.db, claim.id).catch(() => undefined);
    throw err;
  }
}

/** Claims the reseller's uuid: the claim, or the answer of the reservation already made (or being made) with it. */
async function claimUuid(
  ctx: Ctx,
  caller: OctoCaller,
  uuid: string,
  body: z.output<typeof ReservationBody>,
): Promise<{ id: string } | { answer: BookingView }> {
  let claim: { kind: 'claimed'; id: string } | { kind: 'replay'; body: string | null };
  try {
    claim = await claimKey(ctx, `octo:${caller.p.scope}`, uuid, {
      productId: body.productId,
      optionId: body.optionId,
      availabilityId: body.availabilityId,
      units: body.unitItems!.map((u) => u.unitId).sort(),
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'idempotency_key_reuse')
      throw octoFail('INVALID_BOOKING_UUID', 'The uuid was already used for another booking', { extra: { uuid } });
    if (err instanceof ApiError && err.code === 'request_in_progress') return { answer: await awaitOther(ctx, caller, uuid) };
    throw err;
  }
  if (claim.kind === 'replay') return { answer: await bookingView(ctx, caller, await bookingOfKey(ctx, caller.p, uuid)) };
  return { id: claim.id };
}

/** A new hold: the slot and units the reseller asked for, and the OCTO booking it becomes. */
interface NewHold extends HeldSale {
  def: ProductDef;
  option: OptionDef;
  slot: Slot;
  want: Wanted;
  uuid: string;
  body: z.output<typeof ReservationBody>;
  unitItems: UnitItemIn[];
  row?: OctoBookingRow;
}

/** The `sell` policy of a reservation: the slot still open and priced, then the hold taken in the lock and written with the OCTO booking. */
const holdReservation: SalePolicy<NewHold, NewHold, OctoBookingRow> = {
  name: 'octo.reserve',
  begin: (_ctx, order) => order,
  plan(ctx, s) {
    if (!s.slot.available) throw unavailable(s.slot);
    const row = newHoldRow(ctx, s, quoteFor(s.def, s.slot, s.unitItems));
    s.row = row;
    s.lockReq = holdLine(s.def, row.id, s.slot, s.want, row.expiresAt!);
    s.audit = {
      action: 'octo.reserve',
      targetType: 'octo_booking',
      targetId: row.id,
      customerId: row.customerId,
      details: { uuid: s.uuid, productId: row.productId, availabilityId: s.slot.id, units: s.want.count, expiresAt: new Date(row.expiresAt!).toISOString() },
    };
  },
  ...heldSalePhases<NewHold>((ctx, s, r) => [...allocationInserts(ctx, r), ctx.db.insert(octoBookings).values(s.row!)]),
  answer: (s) => s.row!,
};

/** The OCTO booking of a new hold, ON_HOLD until `expirationMinutes` from now. */
function newHoldRow(ctx: Ctx, s: NewHold, quote: OctoQuoteRow): OctoBookingRow {
  const { def, slot, body } = s;
  const id = newId('ocb');
  const now = ctx.clock.now();
  const expiresAt = now + holdMinutes(body.expirationMinutes) * MIN;
  const nowIso = new Date(now).toISOString();
  return {
    id,
    customerId: def.it.row.customerId,
    connectionId: def.conn.id,
    scope: s.p.scope,
    uuid: s.uuid,
    testMode: s.p.mode === 'test',
    status: 'ON_HOLD',
    productId: def.it.row.id,
    optionId: s.option.id,
    availabilityId: slot.id,
    start: slot.start,
    end: slot.end,
    localDate: slot.date,
    unitItems: unitItemRows(s.unitItems),
    contact: body.contact ?? null,
    notes: body.notes ?? null,
    resellerReference: body.resellerReference ?? null,
    transactionId: newId('txn'),
    rentalId: null,
    quote,
    commissionRate: def.conn.commissionRate,
    expiresAt,
    confirmedAt: null,
    cancelledAt: null,
    cancellationReason: null,
    cancellationRefund: null,
    version: 1,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
}

/**
 * The booking is a hold still in force; EXPIRED answers INVALID_BOOKING_UUID (OCTO's code for a
 * lapsed reservation). With the context on the seller's clock.
 */
async function liveHold(ctx: Ctx, caller: OctoCaller, uuid: string) {
  const row = await bookingOfKey(ctx, caller.p, uuid);
  const sctx = await onOperatorClock(ctx, row.customerId);
  const status = statusOf(row, { rental: null }, sctx.clock.now());
  if (status === 'EXPIRED') throw octoFail('INVALID_BOOKING_UUID', 'The reservation expired; reserve again', { extra: { uuid } });
  return { row, status, ctx: sctx };
}

/** POST /octo/v1/bookings/{uuid}/extend: the hold lasts `expirationMinutes` (at least 15) from now. */
export async function extendBooking(ctx: Ctx, caller: OctoCaller, uuid: string, expirationMinutes: number | undefined) {
  const hold = await liveHold(ctx, caller, uuid);
  ctx = hold.ctx;
  const { row, status } = hold;
  if (status !== 'ON_HOLD') throw octoFail('UNPROCESSABLE_ENTITY', `Only a reservation on hold can be extended; this booking is ${status}`);
  const def = await defOfRow(ctx, caller.p, row);
  const want = demandOf(def, row.unitItems);
  const expiresAt = ctx.clock.now() + holdMinutes(expirationMinutes) * MIN;
  await sell(ctx, { p: caller.p, def, row, want, expiresAt }, holdExtension);
  return bookingView(ctx, caller, await bookingOfKey(ctx, caller.p, row.id));
}

/** A hold taken again for its own slot and units, until a new instant. */
interface Extension extends HeldSale {
  def: ProductDef;
  row: OctoBookingRow;
  want: Wanted;
  expiresAt: number;
}

/** The `sell` policy of an extension: the hold re-taken in the lock (its own allocations set aside, the sales rules not applied again) and rewritten. */
const holdExtension: SalePolicy<Extension, Extension, void> = {
  name: 'octo.extend',
  begin(_ctx, order) {
    const { def, row, want, expiresAt } = order;
    return {
      ...order,
      lockReq: holdLine(def, row.id, row, want, expiresAt, { exclude: true, enforceRules: false }),
      audit: {
        action: 'octo.extend',
        targetType: 'octo_booking',
        targetId: row.id,
        customerId: row.customerId,
        details: { expiresAt: new Date(expiresAt).toISOString() },
      },
    };
  },
  ...heldSalePhases<Extension>((ctx, s, r) => [releaseHoldStmt(ctx, s.row), ...allocationInserts(ctx, r), casStmt(ctx, s.row, { expiresAt: s.expiresAt })]),
  answer: () => undefined,
};

/**
 * PATCH /octo/v1/bookings/{uuid}. On hold: any of product, option, availability and unit items
 * moves the hold (inside the lock, all or nothing); `expirationMinutes` extends it. Confirmed: a
 * new availability reschedules the operator's booking (booking.rescheduled); contact, notes and
 * reference change on both; changing the product or the units of a confirmed booking is refused.
 */
export async function updateBooking(ctx: Ctx, caller: OctoCaller, uuid: string, body: z.output<typeof UpdateBody>) {
  const hold = await liveHold(ctx, caller, uuid);
  ctx = hold.ctx;
  const { row, status } = hold;
  if (status !== 'ON_HOLD' && status !== 'CONFIRMED') throw octoFail('UNPROCESSABLE_ENTITY', `A ${status} booking cannot be updated`);
  const fields: Partial<OctoBookingRow> = {
    ...(body.contact ? { contact: { ...(row.contact ?? {}), ...body.contact } } : {}),
    ...(body.notes !== undefined ? { notes: body.notes } : {}),
    ...(body.resellerReference !== undefined ? { resellerReference: body.resellerReference } : {}),
  };
  const moves =
    (body.productId && body.productId !== row.productId) ||
    (body.optionId && body.optionId !== row.optionId) ||
    (body.availabilityId && body.availabilityId !== row.availabilityId) ||
    body.unitItems !== undefined;
  const audit = { action: 'octo.update', targetType: 'octo_booking', targetId: row.id, customerId: row.customerId, details: { fields: Object.keys(body) } };
  if (status === 'CONFIRMED') await updateConfirmed(ctx, caller, row, body, { fields, audit });
  else if (moves || body.expirationMinutes !== undefined) await sell(ctx, { p: caller.p, caller, row, body, fields, audit }, holdMove);
  else if (Object.keys(fields).length) await casOnly(ctx, caller, row, fields, audit);
  return bookingView(ctx, caller, await bookingOfKey(ctx, caller.p, row.id));
}

/** A confirmed booking: its own fields, and a new availability rescheduling the operator's booking; the product, option and units stay. */
async function updateConfirmed(
  ctx: Ctx,
  caller: OctoCaller,
  row: OctoBookingRow,
  body: z.output<typeof UpdateBody>,
  change: { fields: Partial<OctoBookingRow>; audit: AuditEntry },
) {
  const { fields, audit } = change;
  if ((body.productId && body.productId !== row.productId) || (body.optionId && body.optionId !== row.optionId) || body.unitItems !== undefined)
    throw octoFail('UNPROCESSABLE_ENTITY', 'The product, option and units of a confirmed booking cannot change: cancel it and book again');
  if (body.availabilityId && body.availabilityId !== row.availabilityId) {
    const slot = await rescheduleConfirmed(ctx, caller, row, body.availabilityId);
    Object.assign(fields, { availabilityId: slot.id, start: slot.start, end: slot.end, localDate: slot.date });
  }
  if (Object.keys(fields).length) await casOnly(ctx, caller, row, fields, audit);
}

/** Moves the operator's booking of a confirmed OCTO booking to another availability (the bookings module's reschedule); answers the slot. */
async function rescheduleConfirmed(ctx: Ctx, caller: OctoCaller, row: OctoBookingRow, availabilityId: string) {
  const def = await defOfRow(ctx, caller.p, row);
  const option = optionOrFail(def, row.optionId);
  const want = demandOf(def, row.unitItems);
  const slot = await slotOrFail(ctx, caller, def, option, availabilityId, want);
  const rentals = await rentalsOf(ctx, [row]);
  const rental = rentals.get(row.transactionId);
  if (!rental) throw octoFail('UNPROCESSABLE_ENTITY', 'The operator has no booking for this confirmation any more');
  try {
    await rescheduleBooking(
      await merchantCtx(ctx, caller.p, def.conn),
      rental.id,
      { startTime: new Date(slot.start).toISOString(), endTime: new Date(slot.end).toISOString() },
      { source: 'channel' },
    );
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw octoFail('UNPROCESSABLE_ENTITY', `Cannot move the booking: ${err.message}`);
    throw err;
  }
  return slot;
}

/** A hold moved to another product, option, availability or units (and perhaps extended), with the booking's own fields. */
interface Move extends HeldSale {
  caller: OctoCaller;
  row: OctoBookingRow;
  body: z.output<typeof UpdateBody>;
  fields: Partial<OctoBookingRow>;
  option?: OptionDef;
  items?: UnitItemIn[];
  want?: Wanted;
  slot?: Slot;
  set?: Partial<OctoBookingRow>;
}

/**
 * The `sell` policy of a moved hold: read the product and the new slot, price it, then the hold
 * re-taken in the lock (its own allocations set aside on the same item) and rewritten.
 */
const holdMove: SalePolicy<Move, Move, void> = {
  name: 'octo.update',
  begin: (_ctx, order) => order,
  async read(ctx, s) {
    const { caller, row, body } = s;
    const def = body.productId && body.productId !== row.productId ? await findProduct(ctx, caller.p, body.productId) : await defOfRow(ctx, caller.p, row);
    s.def = def;
    s.option = optionOrFail(def, body.optionId ?? (def.it.row.id === row.productId ? row.optionId : def.options.find((o) => o.isDefault)!.id));
    s.items = body.unitItems ?? row.unitItems.map((u) => ({ ...u, resellerReference: u.resellerReference ?? undefined, contact: u.contact ?? undefined }));
    s.want = demandOf(def, s.items);
    s.slot = await slotOrFail(ctx, caller, def, s.option, body.availabilityId ?? row.availabilityId, s.want);
  },
  plan(ctx, s) {
    const { row, body } = s;
    const def = s.def!;
    const slot = s.slot!;
    const quote = quoteFor(def, slot, s.items!);
    const expiresAt = body.expirationMinutes !== undefined ? ctx.clock.now() + holdMinutes(body.expirationMinutes) * MIN : row.expiresAt!;
    s.lockReq = holdLine(def, row.id, slot, s.want!, expiresAt, { exclude: def.it.row.id === row.productId });
    s.set = {
      ...s.fields,
      customerId: row.customerId,
      productId: def.it.row.id,
      optionId: s.option!.id,
      availabilityId: slot.id,
      start: slot.start,
      end: slot.end,
      localDate: localDate(slot.start, def.it.item.timezone),
      unitItems: body.unitItems ? unitItemRows(body.unitItems) : row.unitItems,
      quote,
      expiresAt,
    };
  },
  ...heldSalePhases<Move>((ctx, s, r) => [releaseHoldStmt(ctx, s.row), ...allocationInserts(ctx, r), casStmt(ctx, s.row, s.set!)]),
  answer: () => undefined,
};

/** A compare-and-swap of the booking's own fields (no inventory change). */
async function casOnly(ctx: Ctx, caller: OctoCaller, row: OctoBookingRow, fields: Partial<OctoBookingRow>, audit: AuditEntry) {
  try {
    await commit(await merchantCtx(ctx, caller.p, (await defOfRow(ctx, caller.p, row)).conn), [casStmt(ctx, row, fields)], { audit });
  } catch (err) {
    if (isVersionConflict(err)) throw octoFail('UNPROCESSABLE_ENTITY', 'The booking was changed by another request at the same time; read it and retry');
    throw err;
  }
}
