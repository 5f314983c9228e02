import { and, asc, desc, eq, gt, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { SlipReservationDetail } from '../../lib/hooks';
import { addDays } from '../../lib/time';
import { slipPayments, slipReservationMessages, slipReservations } from '../../db/schema/slip-reservations';
import { getLocationInTenant } from '../locations/service';
import { slipRowsByIds } from '../slips/service';
import { QUOTED_STATUSES } from './ledger';
import { moneyOfReservations } from './money';
import { messageOut, paymentOut, reservationOut, type ReservationRow } from './views';

export async function getReservationRow(ctx: Ctx, id: string): Promise<ReservationRow> {
  const row = await ctx.db
    .select()
    .from(slipReservations)
    .where(and(eq(slipReservations.id, id), eq(slipReservations.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Slip reservation');
  return row;
}

/** Views of reservations with their units and their money (money.ts). */
export async function viewsOf(ctx: Ctx, rows: ReservationRow[]) {
  const [slips, money] = await Promise.all([
    slipRowsByIds(
      ctx,
      rows.map((r) => r.slipId),
    ),
    moneyOfReservations(ctx, rows),
  ]);
  const units = new Map(slips.map((s) => [s.id, s]));
  const now = ctx.clock.now();
  return rows.map((r) => reservationOut(r, units.get(r.slipId), now, money.get(r.id)!));
}

export async function reservationView(ctx: Ctx, row: ReservationRow) {
  return (await viewsOf(ctx, [row]))[0];
}

export async function getReservation(ctx: Ctx, id: string) {
  const row = await getReservationRow(ctx, id);
  const [payments, messages] = await Promise.all([
    ctx.db
      .select()
      .from(slipPayments)
      .where(and(eq(slipPayments.customerId, row.customerId), eq(slipPayments.reservationId, row.id)))
      .orderBy(asc(slipPayments.createdAt))
      .all(),
    ctx.db
      .select()
      .from(slipReservationMessages)
      .where(and(eq(slipReservationMessages.customerId, row.customerId), eq(slipReservationMessages.reservationId, row.id)))
      .orderBy(desc(slipReservationMessages.createdAt))
      .limit(50)
      .all(),
  ]);
  // Documents and guest passes belong to the modules above this one; they add theirs through the hook.
  const detail: SlipReservationDetail = { customerId: row.customerId, reservationId: row.id, locationId: row.locationId, documents: [], guestPasses: [] };
  await ctx.hooks.emit(ctx, 'slip_reservation.detail', detail);
  return {
    ...(await reservationView(ctx, row)),
    payments: payments.map(paymentOut),
    messages: messages.map(messageOut),
    documents: detail.documents,
    guestPasses: detail.guestPasses,
  };
}

export async function getByNumber(ctx: Ctx, reservationNumber: string) {
  const row = await ctx.db
    .select()
    .from(slipReservations)
    .where(and(eq(slipReservations.customerId, tenantOf(ctx)), eq(slipReservations.reservationNumber, reservationNumber.toUpperCase())))
    .get();
  if (!row) throw notFound('Slip reservation');
  return getReservation(ctx, row.id);
}

async function page(ctx: Ctx, where: SQL, order: SQL[], limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    ctx.db
      .select()
      .from(slipReservations)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset)
      .all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(slipReservations)
      .where(where)
      .get(),
  ]);
  return { data: await viewsOf(ctx, rows), total: Number(count?.n ?? 0), limit, offset };
}

export interface ListInput {
  locationId?: string;
  status?: ReservationRow['status'];
  rateType?: ReservationRow['rateType'];
  slipId?: string;
  renterId?: string;
  arrivalFrom?: string;
  arrivalTo?: string;
  inHouseOn?: string;
  q?: string;
  limit: number;
  offset: number;
}

export async function listReservations(ctx: Ctx, q: ListInput) {
  const customerId = tenantOf(ctx);
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  const conds: SQL[] = [eq(slipReservations.customerId, customerId)];
  if (q.locationId) conds.push(eq(slipReservations.locationId, q.locationId));
  if (q.status) conds.push(eq(slipReservations.status, q.status));
  if (q.rateType) conds.push(eq(slipReservations.rateType, q.rateType));
  if (q.slipId) conds.push(eq(slipReservations.slipId, q.slipId));
  if (q.renterId) conds.push(eq(slipReservations.renterId, q.renterId));
  if (q.arrivalFrom) conds.push(gte(slipReservations.arrivalDate, q.arrivalFrom));
  if (q.arrivalTo) conds.push(lte(slipReservations.arrivalDate, q.arrivalTo));
  if (q.inHouseOn)
    conds.push(
      lte(slipReservations.arrivalDate, q.inHouseOn),
      gt(slipReservations.departureDate, q.inHouseOn),
      inArray(slipReservations.status, ['pending', 'awaiting_payment', 'confirmed', 'checked_in']),
    );
  if (q.q) {
    const p = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conds.push(
      or(sql`${slipReservations.reservationNumber} LIKE ${p} ESCAPE '\\'`, sql`json_extract(${slipReservations.boat}, '$.vesselName') LIKE ${p} ESCAPE '\\'`)!,
    );
  }
  return page(ctx, and(...conds)!, [asc(slipReservations.arrivalDate), asc(slipReservations.id)], q.limit, q.offset);
}

/** Today at the location (or in UTC across locations). */
async function todayAt(ctx: Ctx, locationId?: string): Promise<string> {
  const tz = locationId ? (await getLocationInTenant(ctx, locationId)).timezone : 'UTC';
  return todayIn(ctx, tz);
}

/**
 * The money view's balance (money.ts) in SQL: the sum of the reservation's ledger entries that affect
 * the balance, plus the quoted total before confirmation (nothing is posted until then).
 */
function balanceSql(): SQL {
  const t = slipReservations;
  const quoted = sql.join(
    QUOTED_STATUSES.map((st) => sql`${st}`),
    sql`, `,
  );
  const onLedger = sql`(SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
    WHERE l.transaction_id = ${t.id} AND l.customer_id = ${t.customerId} AND l.affects_balance = 1 AND l.deleted_at IS NULL)`;
  return sql`(CASE WHEN ${t.status} IN (${quoted}) THEN ${t.totalCents} ELSE 0 END) + ${onLedger}`;
}

/**
 * Reservations that owe money and arrive within `withinDays` days (or are already in house, awaiting
 * payment, or checked out still owing: a stay stays in billing until it is paid).
 */
export async function dueBilling(ctx: Ctx, q: { locationId?: string; withinDays: number; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const today = await todayAt(ctx, q.locationId);
  const conds: SQL[] = [
    eq(slipReservations.customerId, customerId),
    inArray(slipReservations.status, ['pending', 'awaiting_payment', 'confirmed', 'checked_in', 'checked_out']),
    sql`${balanceSql()} > 0`,
    lte(slipReservations.arrivalDate, addDays(today, q.withinDays)),
  ];
  if (q.locationId) conds.push(eq(slipReservations.locationId, q.locationId));
  return { today, ...(await page(ctx, and(...conds)!, [asc(slipReservations.arrivalDate), asc(slipReservations.id)], q.limit, q.offset)) };
}

/** Confirmed and in-house reservations whose departure falls within `withinDays` days (renewals of monthly, seasonal and annual tenants). */
export async function expiringSoon(
  ctx: Ctx,
  q: { locationId?: string; withinDays: number; rateType?: ReservationRow['rateType']; limit: number; offset: number },
) {
  const customerId = tenantOf(ctx);
  const today = await todayAt(ctx, q.locationId);
  const conds: SQL[] = [
    eq(slipReservations.customerId, customerId),
    inArray(slipReservations.status, ['confirmed', 'checked_in']),
    gte(slipReservations.departureDate, today),
    lte(slipReservations.departureDate, addDays(today, q.withinDays)),
  ];
  if (q.locationId) conds.push(eq(slipReservations.locationId, q.locationId));
  if (q.rateType) conds.push(eq(slipReservations.rateType, q.rateType));
  return { today, ...(await page(ctx, and(...conds)!, [asc(slipReservations.departureDate), asc(slipReservations.id)], q.limit, q.offset)) };
}

export async function reservationStats(ctx: Ctx, q: { locationId?: string }) {
  const customerId = tenantOf(ctx);
  const today = await todayAt(ctx, q.locationId);
  const base: SQL[] = [eq(slipReservations.customerId, customerId)];
  if (q.locationId) base.push(eq(slipReservations.locationId, q.locationId));
  const [rows, held] = await Promise.all([
    ctx.db
      .select({
        status: slipReservations.status,
        rateType: slipReservations.rateType,
        n: sql<number>`count(*)`,
        total: sql<number>`coalesce(sum(${slipReservations.totalCents}), 0)`,
      })
      .from(slipReservations)
      .where(and(...base))
      .groupBy(slipReservations.status, slipReservations.rateType)
      .all(),
    // Collected: the reservations' payments less refunds on the ledger (the money views' paid − refunded, summed).
    ctx.db
      .select({ paid: sql<number>`coalesce(-sum(l.amount), 0)` })
      .from(slipReservations)
      .innerJoin(sql`ledger_entries l`, sql`l.transaction_id = ${slipReservations.id} AND l.customer_id = ${slipReservations.customerId}`)
      .where(and(...base, sql`l.entry_type IN ('payment', 'refund') AND l.affects_balance = 1 AND l.deleted_at IS NULL`))
      .get(),
  ]);
  const byStatus: Record<string, number> = Object.fromEntries(
    ['pending', 'awaiting_payment', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'expired'].map((k) => [k, 0]),
  );
  const byRateType: Record<string, number> = { nightly: 0, monthly: 0, seasonal: 0, annual: 0 };
  let booked = 0;
  const collected = Number(held?.paid ?? 0);
  for (const r of rows) {
    byStatus[r.status] += Number(r.n);
    byRateType[r.rateType] += Number(r.n);
    if (r.status !== 'cancelled' && r.status !== 'expired') booked += Number(r.total);
  }
  const count = async (extra: SQL[]) =>
    Number(
      (
        await ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(slipReservations)
          .where(and(...base, ...extra))
          .get()
      )?.n ?? 0,
    );
  const live = inArray(slipReservations.status, ['pending', 'awaiting_payment', 'confirmed', 'checked_in']);
  const [arrivalsToday, departuresToday] = await Promise.all([
    count([eq(slipReservations.arrivalDate, today), live]),
    count([eq(slipReservations.departureDate, today), or(eq(slipReservations.status, 'checked_in'), eq(slipReservations.status, 'checked_out'))!]),
  ]);
  return {
    locationId: q.locationId ?? null,
    today,
    byStatus,
    byRateType,
    arrivalsToday,
    departuresToday,
    inHouse: byStatus.checked_in,
    awaitingPayment: byStatus.awaiting_payment,
    bookedCents: booked,
    collectedCents: collected,
    outstandingCents: Math.max(0, booked - collected),
  };
}

/** Reservations of the caller by id (missing ids left out); for the contracts module. */
export async function reservationRowsByIds(ctx: Ctx, ids: string[]): Promise<ReservationRow[]> {
  const unique = [...new Set(ids)];
  const out: ReservationRow[] = [];
  for (let i = 0; i < unique.length; i += 90)
    out.push(
      ...(await ctx.db
        .select()
        .from(slipReservations)
        .where(and(eq(slipReservations.customerId, tenantOf(ctx)), inArray(slipReservations.id, unique.slice(i, i + 90))))
        .all()),
    );
  return out;
}

/** Live reservations (pending to checked in) that have no contract yet. */
export async function countWithoutContract(ctx: Ctx, locationId?: string): Promise<number> {
  const conds: SQL[] = [
    eq(slipReservations.customerId, tenantOf(ctx)),
    eq(slipReservations.contractStatus, 'none'),
    inArray(slipReservations.status, ['pending', 'awaiting_payment', 'confirmed', 'checked_in']),
  ];
  if (locationId) conds.push(eq(slipReservations.locationId, locationId));
  const row = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(slipReservations)
    .where(and(...conds))
    .get();
  return Number(row?.n ?? 0);
}
