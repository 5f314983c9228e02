/**
 * Recording, correcting and deleting meter readings. A reading's usage is the value minus the
 * previous reading of the same unit and utility; when the value is below the previous one the
 * meter rolled over (detected from the digit count: the previous value in the top tenth of the dial
 * and the new one in the bottom tenth, or `rollover: true`), else the reading is flagged
 * `reading_below_previous` with no usage. A usage per day above 3× the unit's usual usage per day
 * (its last 6 usages of the utility, at least 2 needed) is flagged `usage_above_3x_usual`. Flagged
 * readings are charged only once reviewed.
 *
 * The readings of a unit and utility form a chain (`previousReadingId`, unique): two readings
 * recorded at once cannot both count from the same previous one; the later write re-reads and
 * retries. Changing or deleting a reading recomputes the next one in the same batch. Billed
 * readings never change (checked here, and by the triggers of migration `meter_readings_guards`).
 */
import { and, eq } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { meterReadings as M } from '../../db/schema/meter-readings';
import { getSlipRow } from '../slips/service';
import { meterErrors } from './errors';
import type * as s from './schemas';
import { getReadingRow, latestOf, readingsBefore, successorOf } from './queries';
import { DEFAULT_DIGITS, USUAL_MULTIPLE, USUAL_WINDOW, type FlagReason, type Utility } from './types';
import { readingOut, type ReadingRow } from './views';

const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
const isChainTaken = (err: unknown) => /UNIQUE constraint failed: meter_readings\.customer_id, meter_readings\.slip_id/.test(errText(err));
export const isBilledGuard = (err: unknown) => /meter_billed/.test(errText(err));
const round3 = (x: number) => Math.round(x * 1000) / 1000;
const bad = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });
const DAY_MS = 86_400_000;
/** How far ahead of the clock a reading may be stamped (a reader's device clock running a little fast). */
const FUTURE_SLACK_MS = 5 * 60_000;

/** 400 when `readAt` is later than now on the context's clock (plus the slack). */
function notInFuture(ctx: Ctx, readAt: string) {
  if (Date.parse(readAt) > ctx.clock.now() + FUTURE_SLACK_MS) throw bad('readAt', 'readAt is in the future');
}

interface Values {
  slipId: string;
  utility: Utility;
  reading: number;
  digits: number;
  meterId: string | null;
  readAt: string;
  /** true: the meter rolled over; false: it did not; undefined: detect. */
  rollover?: boolean;
}

interface Evaluation {
  previousReadingId: string | null;
  previousValue: number | null;
  usage: number | null;
  rollover: boolean;
  flagged: boolean;
  flagReasons: FlagReason[];
}

/** Usage between the previous reading and this one, across a rollover at 10^digits. */
function usageFrom(prev: ReadingRow | null, v: Values): { usage: number | null; rollover: boolean; below: boolean } {
  if (!prev) return { usage: null, rollover: false, below: false };
  // Another meter (replaced, or a new digit count): a new series starts, no usage can be counted.
  if (prev.digits !== v.digits || (v.meterId && prev.meterId && v.meterId !== prev.meterId)) return { usage: null, rollover: false, below: false };
  const max = 10 ** v.digits;
  if (v.reading >= prev.reading) {
    if (v.rollover === true) throw bad('rollover', 'The reading is not below the previous one: the meter did not roll over');
    return { usage: round3(v.reading - prev.reading), rollover: false, below: false };
  }
  const wrapped = v.rollover === true || (v.rollover !== false && prev.reading >= 0.9 * max && v.reading < 0.1 * max);
  return wrapped ? { usage: round3(v.reading + max - prev.reading), rollover: true, below: false } : { usage: null, rollover: false, below: true };
}

/**
 * The unit's usual usage per day: the usages of its last readings of the utility before `before`
 * (unflagged or reviewed), over the days they span; null with fewer than two. `replace` stands in
 * for rows being changed in the same write (null: being deleted).
 */
async function usualPerDay(ctx: Ctx, v: Values, before: string, replace: Map<string, ReadingRow | null>) {
  const fetched = await readingsBefore(ctx, v.slipId, v.utility, before, USUAL_WINDOW + 3);
  const rows = fetched
    .map((r) => (replace.has(r.id) ? replace.get(r.id)! : r))
    .filter((r): r is ReadingRow => !!r && r.readAt < before)
    .sort((a, b) => b.readAt.localeCompare(a.readAt));
  let usage = 0;
  let days = 0;
  let pairs = 0;
  for (let i = 0; i + 1 < rows.length && pairs < USUAL_WINDOW; i++) {
    const cur = rows[i];
    if (cur.usage == null || (cur.flagged && !cur.reviewedAt)) continue;
    usage += cur.usage;
    days += Math.max((Date.parse(cur.readAt) - Date.parse(rows[i + 1].readAt)) / DAY_MS, 1 / 24);
    pairs++;
  }
  return pairs >= 2 && days > 0 ? usage / days : null;
}

async function evaluate(ctx: Ctx, prev: ReadingRow | null, v: Values, replace = new Map<string, ReadingRow | null>()): Promise<Evaluation> {
  const u = usageFrom(prev, v);
  const reasons: FlagReason[] = [];
  if (u.below) reasons.push('reading_below_previous');
  if (u.usage != null && prev) {
    const usual = await usualPerDay(ctx, v, v.readAt, replace);
    const perDay = u.usage / Math.max((Date.parse(v.readAt) - Date.parse(prev.readAt)) / DAY_MS, 1 / 24);
    if (usual != null && usual > 0 && perDay > USUAL_MULTIPLE * usual) reasons.push('usage_above_3x_usual');
  }
  return {
    previousReadingId: prev?.id ?? null,
    previousValue: prev?.reading ?? null,
    usage: u.usage,
    rollover: u.rollover,
    flagged: reasons.length > 0,
    flagReasons: reasons,
  };
}

function checkValue(reading: number, digits: number) {
  if (reading >= 10 ** digits) throw bad('reading', `A ${digits}-digit meter reads at most ${10 ** digits - 1}`);
}

const iso = (v: string) => new Date(v).toISOString();

/** POST /meter-readings. */
export async function recordReading(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  // The unit (tenant-checked: another operator's answers 404 first) and its latest reading (tenant-scoped) side by side: one round trip.
  const [slip, first] = await Promise.all([getSlipRow(ctx, input.slipId), latestOf(ctx, input.slipId, input.utility)]);
  const readAt = input.readAt ? iso(input.readAt) : nowIso(ctx);
  notInFuture(ctx, readAt);
  for (let attempt = 0; ; attempt++) {
    const prev = attempt === 0 ? first : await latestOf(ctx, slip.id, input.utility);
    if (prev && readAt <= prev.readAt)
      throw meterErrors.fail(
        'meter_reading_out_of_order',
        `The latest ${input.utility} reading of the unit is from ${prev.readAt}; record later readings only`,
        {
          extra: { latestReadingId: prev.id, latestReadAt: prev.readAt },
        },
      );
    const digits = input.digits ?? prev?.digits ?? DEFAULT_DIGITS;
    checkValue(input.reading, digits);
    const v: Values = {
      slipId: slip.id,
      utility: input.utility,
      reading: input.reading,
      digits,
      meterId: input.meterId ?? prev?.meterId ?? null,
      readAt,
      rollover: input.rollover,
    };
    const ev = await evaluate(ctx, prev, v);
    const stamp = nowIso(ctx);
    const row: ReadingRow = {
      id: newId('mtr'),
      customerId: slip.customerId,
      locationId: slip.locationId,
      slipId: slip.id,
      utility: input.utility,
      meterId: v.meterId,
      reading: input.reading,
      digits,
      readAt,
      ...ev,
      reviewedAt: null,
      reviewedBy: null,
      billed: false,
      billedAt: null,
      billingId: null,
      billingReference: null,
      reservationId: null,
      chargedCents: null,
      notes: input.notes ?? null,
      readBy: ctx.principal.userId ?? ctx.principal.credentialId,
      createdAt: stamp,
      updatedAt: stamp,
    };
    try {
      await commit(ctx, [ctx.db.insert(M).values(row)], {
        audit: {
          action: 'meter_reading.record',
          targetType: 'meter_reading',
          targetId: row.id,
          details: { slipId: slip.id, utility: row.utility, reading: row.reading, usage: row.usage, rollover: row.rollover, flagReasons: row.flagReasons },
        },
      });
      return readingOut(row);
    } catch (err) {
      // Another reading of the unit landed first: count from it.
      if (isChainTaken(err) && attempt < 3) continue;
      throw err;
    }
  }
}

/** A write that touches billed readings answers 409 (the database triggers refuse it too). */
async function commitGuarded(ctx: Ctx, stmts: Parameters<typeof commit>[1], meta: Parameters<typeof commit>[2]) {
  try {
    await commit(ctx, stmts, meta);
  } catch (err) {
    if (isBilledGuard(err)) throw meterErrors.fail('meter_reading_billed', 'A reading of this change was billed meanwhile; nothing was changed');
    if (isChainTaken(err)) throw new ApiError('version_conflict', 'A reading of the unit was recorded meanwhile; reload and retry');
    throw err;
  }
}

/**
 * PUT /meter-readings/{id}: corrections (value, digits, meter, time, rollover) recompute its usage
 * and the next reading's; `reviewed` clears it for billing.
 */
export async function updateReading(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const m = await getReadingRow(ctx, id);
  if (m.billed) throw meterErrors.fail('meter_reading_billed', 'A billed reading cannot change');
  const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one field to change');
  const now = nowIso(ctx);
  const reviewer = ctx.principal.userId ?? ctx.principal.credentialId;
  const measured = ['reading', 'digits', 'meterId', 'readAt', 'rollover'].some((k) => fields.includes(k));
  const patch: Partial<ReadingRow> = { updatedAt: now };
  if (input.notes !== undefined) patch.notes = input.notes;
  const stmts: Stmt[] = [];
  if (measured) {
    const prev = m.previousReadingId ? await getReadingRow(ctx, m.previousReadingId).catch(() => null) : null;
    const next = await successorOf(ctx, m);
    const readAt = input.readAt ? iso(input.readAt) : m.readAt;
    notInFuture(ctx, readAt);
    if ((prev && readAt <= prev.readAt) || (next && readAt >= next.readAt))
      throw meterErrors.fail('meter_reading_out_of_order', 'readAt must stay between the previous and the next reading of the unit');
    const digits = input.digits ?? m.digits;
    const reading = input.reading ?? m.reading;
    checkValue(reading, digits);
    const v: Values = {
      slipId: m.slipId,
      utility: m.utility,
      reading,
      digits,
      meterId: input.meterId !== undefined ? input.meterId : m.meterId,
      readAt,
      rollover: input.rollover,
    };
    Object.assign(patch, { reading, digits, meterId: v.meterId, readAt }, await evaluate(ctx, prev, v));
    if (!input.reviewed) Object.assign(patch, { reviewedAt: null, reviewedBy: null });
    const changed: ReadingRow = { ...m, ...patch };
    if (next) {
      if (next.billed) throw meterErrors.fail('meter_reading_billed', 'The next reading is billed: its usage depends on this one, which can no longer change');
      const nv: Values = { slipId: next.slipId, utility: next.utility, reading: next.reading, digits: next.digits, meterId: next.meterId, readAt: next.readAt };
      const ne = await evaluate(ctx, changed, nv, new Map([[m.id, changed]]));
      stmts.push(
        ctx.db
          .update(M)
          .set({ ...ne, updatedAt: now })
          .where(and(eq(M.id, next.id), eq(M.customerId, next.customerId))),
      );
    }
  }
  if (input.reviewed) Object.assign(patch, { reviewedAt: now, reviewedBy: reviewer });
  stmts.unshift(
    ctx.db
      .update(M)
      .set(patch)
      .where(and(eq(M.id, m.id), eq(M.customerId, m.customerId))),
  );
  await commitGuarded(ctx, stmts, { audit: { action: 'meter_reading.update', targetType: 'meter_reading', targetId: m.id, details: { fields } } });
  return readingOut(await getReadingRow(ctx, m.id));
}

/** DELETE /meter-readings/{id}: refused once billed; the next reading then counts from the one before. */
export async function deleteReading(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const m = await getReadingRow(ctx, id);
  if (m.billed) throw meterErrors.fail('meter_reading_billed', 'A billed reading cannot be deleted');
  const stmts: Stmt[] = [ctx.db.delete(M).where(and(eq(M.id, m.id), eq(M.customerId, m.customerId)))];
  const next = await successorOf(ctx, m);
  if (next) {
    if (next.billed)
      throw meterErrors.fail('meter_reading_billed', 'The next reading is billed: its usage depends on this one, which can no longer be deleted');
    const prev = m.previousReadingId ? await getReadingRow(ctx, m.previousReadingId).catch(() => null) : null;
    const nv: Values = { slipId: next.slipId, utility: next.utility, reading: next.reading, digits: next.digits, meterId: next.meterId, readAt: next.readAt };
    const ne = await evaluate(ctx, prev, nv, new Map([[m.id, null]]));
    stmts.push(
      ctx.db
        .update(M)
        .set({ ...ne, updatedAt: nowIso(ctx) })
        .where(and(eq(M.id, next.id), eq(M.customerId, next.customerId))),
    );
  }
  await commitGuarded(ctx, stmts, {
    audit: {
      action: 'meter_reading.delete',
      targetType: 'meter_reading',
      targetId: m.id,
      details: { slipId: m.slipId, utility: m.utility, reading: m.reading },
    },
  });
  return { id: m.id, deleted: true as const };
}
