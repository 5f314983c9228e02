/**
 * Billing meter readings: marking several billed (invoiced elsewhere) and turning unbilled usage
 * into utility charges of a slip reservation at the location's rates. Both are one D1 batch: every
 * reading or none. A reading is billed exactly once: the batch's UPDATEs hit the trigger of
 * migration `meter_readings_guards` when a reading is already billed (two requests racing to bill
 * the same readings: the later batch lands not at all), and the reservation's compare-and-swap is
 * in the same batch as its new charges.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatRate } from '../../lib/money';
import { addDays, wallTimeToUtc } from '../../lib/time';
import type { Stmt } from '../../db/client';
import { meterReadings as M } from '../../db/schema/meter-readings';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings, type ChargeLine } from '../marina-settings/service';
import { chargeLinesChange, getReservationRow, reservationView } from '../slip-reservations/service';
import { meterErrors } from './errors';
import type * as s from './schemas';
import { amountOf, rateOf } from './queries';
import { isBilledGuard } from './readings';
import { UTILITIES, UTILITY_UNIT } from './types';
import { readingOut, type ReadingRow } from './views';

const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
const isReservationRace = (err: unknown) => /UNIQUE constraint failed: (slip_reservation_changes|ledger_entries)\.id/.test(errText(err));
const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function rowsByIds(ctx: Ctx, ids: string[]): Promise<ReadingRow[]> {
  const out: ReadingRow[] = [];
  for (let i = 0; i < ids.length; i += 90)
    out.push(
      ...(await ctx.db
        .select()
        .from(M)
        .where(and(eq(M.customerId, tenantOf(ctx)), inArray(M.id, ids.slice(i, i + 90))))
        .all()),
    );
  return out;
}

function billedRace(err: unknown): never {
  if (isBilledGuard(err)) throw meterErrors.fail('meter_already_billed', 'Some of the readings were billed by another request meanwhile; nothing was changed');
  if (isReservationRace(err)) throw new ApiError('version_conflict', 'The reservation changed meanwhile; nothing was billed, retry');
  throw err;
}

/** POST /meter-readings/mark-billed: all the readings, or none (unknown ids 404, billed ones 409). */
export async function markBilled(ctx: Ctx, input: z.output<typeof s.MarkBilledBody>) {
  requirePermission(ctx, 'marina');
  const ids = [...new Set(input.ids)];
  const rows = await rowsByIds(ctx, ids);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length)
    throw new ApiError('not_found', `Meter readings not found; nothing was changed: ${missing.slice(0, 20).join(', ')}`, { extra: { missing } });
  const billed = rows.filter((r) => r.billed).map((r) => r.id);
  if (billed.length)
    throw meterErrors.fail('meter_already_billed', `Already billed; nothing was changed: ${billed.slice(0, 20).join(', ')}`, { extra: { billed } });
  const billingId = newId('mbill');
  const now = nowIso(ctx);
  const stmts: Stmt[] = rows.map((r) =>
    ctx.db
      .update(M)
      .set({ billed: true, billedAt: now, billingId, billingReference: input.billingReference ?? null, updatedAt: now })
      .where(and(eq(M.id, r.id), eq(M.customerId, r.customerId))),
  );
  try {
    await commit(ctx, stmts, {
      audit: {
        action: 'meter_reading.mark_billed',
        targetType: 'meter_billing',
        targetId: billingId,
        details: { ids, billingReference: input.billingReference ?? null },
      },
    });
  } catch (err) {
    billedRace(err);
  }
  return { billingId, billed: rows.length, data: (await rowsByIds(ctx, ids)).map(readingOut) };
}

/**
 * POST /meter-readings/add-to-reservation: the unbilled usage of the reservation's unit during the
 * stay (or the readings given) becomes utility charge lines of the reservation, one per utility at
 * the location's rate (each reading rounded to the cent), and the readings are billed to it, in one
 * batch. Flagged readings wait for their review.
 */
export async function addToReservation(ctx: Ctx, input: z.output<typeof s.AddToReservationBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, input.reservationId);
  if (r.status === 'cancelled' || r.status === 'expired') throw new ApiError('invalid_state', `A ${r.status} reservation takes no charges`);
  const [loc, settings] = await Promise.all([getLocationInTenant(ctx, r.locationId), getSlipSettings(ctx, r.locationId)]);
  let candidates: ReadingRow[];
  if (input.readingIds) {
    const ids = [...new Set(input.readingIds)];
    candidates = await rowsByIds(ctx, ids);
    const found = new Set(candidates.map((c) => c.id));
    const missing = ids.filter((i) => !found.has(i));
    if (missing.length) throw new ApiError('not_found', `Meter readings not found: ${missing.slice(0, 20).join(', ')}`, { extra: { missing } });
    const elsewhere = candidates.filter((c) => c.slipId !== r.slipId).map((c) => c.id);
    if (elsewhere.length)
      throw new ApiError('validation_failed', `Readings of another unit than the reservation's: ${elsewhere.slice(0, 20).join(', ')}`, {
        details: [{ field: 'readingIds', message: "readings of another unit than the reservation's" }],
      });
    const billed = candidates.filter((c) => c.billed).map((c) => c.id);
    if (billed.length) throw meterErrors.fail('meter_already_billed', `Already billed: ${billed.slice(0, 20).join(', ')}`, { extra: { billed } });
  } else {
    // The stay: from the arrival day's start to the end of the departure day (the final reading is taken at check-out).
    const from = new Date(wallTimeToUtc(r.arrivalDate, '00:00', loc.timezone)).toISOString();
    const to = new Date(wallTimeToUtc(addDays(r.departureDate, 1), '00:00', loc.timezone)).toISOString();
    candidates = await ctx.db
      .select()
      .from(M)
      .where(and(eq(M.customerId, r.customerId), eq(M.slipId, r.slipId), eq(M.billed, false), isNotNull(M.usage), gte(M.readAt, from), lt(M.readAt, to)))
      .orderBy(asc(M.readAt))
      .all();
  }
  const skipped = candidates
    .filter((c) => c.usage == null || (c.flagged && !c.reviewedAt))
    .map((c) => ({ id: c.id, reason: c.usage == null ? 'no_usage' : `flagged_for_review: ${c.flagReasons.join(', ')}` }));
  const billable = candidates.filter((c) => c.usage != null && !(c.flagged && !c.reviewedAt));
  if (!billable.length) throw meterErrors.fail('no_unbilled_usage', 'No unbilled, reviewed usage of the unit to charge', { extra: { skipped } });
  const rates = settings.utilityRates;
  const cents = new Map(billable.map((c) => [c.id, amountOf(c.usage!, rateOf(rates, c.utility))]));
  const lines = UTILITIES.map((u) => {
    const of = billable.filter((c) => c.utility === u);
    const usage = round3(of.reduce((a, c) => a + c.usage!, 0));
    const rate = rateOf(rates, u);
    return {
      utility: u,
      description: `${u === 'electricity' ? 'Electricity' : 'Water'} ${usage} ${UTILITY_UNIT[u]} × ${formatRate(rate, r.currency)} per ${UTILITY_UNIT[u]} (${of.length} reading${of.length === 1 ? '' : 's'})`,
      usage,
      rateCents: rate,
      amountCents: of.reduce((a, c) => a + cents.get(c.id)!, 0),
      readings: of.length,
      taxable: rates.taxable,
    };
  }).filter((l) => l.readings > 0);
  const billingId = newId('mbill');
  const now = nowIso(ctx);
  const add: ChargeLine[] = lines.map((l) => ({ name: l.description, amountCents: l.amountCents, per: 'stay', taxable: l.taxable }));
  const change = await chargeLinesChange(ctx, r, { utilities: add }, 'meter_charges', { billingId, readingIds: billable.map((c) => c.id) });
  const stmts: Stmt[] = [
    ...billable.map((c) =>
      ctx.db
        .update(M)
        .set({ billed: true, billedAt: now, billingId, reservationId: r.id, chargedCents: cents.get(c.id)!, updatedAt: now })
        .where(and(eq(M.id, c.id), eq(M.customerId, c.customerId))),
    ),
    ...change.stmts,
  ];
  try {
    await commit(ctx, stmts, {
      audit: {
        action: 'meter_reading.add_to_reservation',
        targetType: 'slip_reservation',
        targetId: r.id,
        details: { billingId, readings: billable.map((c) => c.id), chargedCents: lines.reduce((a, l) => a + l.amountCents, 0) },
      },
      events: change.events,
    });
  } catch (err) {
    billedRace(err);
  }
  const after = await getReservationRow(ctx, r.id);
  return {
    reservationId: r.id,
    billingId,
    lines,
    chargedCents: lines.reduce((a, l) => a + l.amountCents, 0),
    reservationTotalCents: after.totalCents,
    previousTotalCents: r.totalCents,
    data: (
      await rowsByIds(
        ctx,
        billable.map((c) => c.id),
      )
    ).map(readingOut),
    skipped,
    reservation: await reservationView(ctx, after),
  };
}
