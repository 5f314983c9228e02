import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { slips } from '../../db/schema/slips';
import { getLocationInTenant } from '../locations/service';
import type * as s from './schemas';
import { getSlipRow, slipRowsByIds } from './queries';
import { requireActiveSubscription, syncSlipQuantity } from './subscription';
import { slipOut, type SlipRow } from './views';
import type { SlipStatus } from './types';

type Fields = Partial<Omit<z.output<typeof s.UpdateBody>, 'unitNumber'>>;

const isUnitConflict = (err: unknown) =>
  /UNIQUE constraint failed: (slips\.|index 'slips_unit_uq')/i.test(`${(err as Error)?.message} ${String((err as { cause?: unknown })?.cause ?? '')}`);

function fieldsOf(f: Fields): Partial<SlipRow> {
  const out: Partial<SlipRow> = {};
  for (const k of ['name', 'section', 'unitType', 'lengthFt', 'maxLoaFt', 'widthFt', 'depthFt', 'overheadClearanceFt', 'water', 'amenities', 'notes'] as const)
    if (f[k] !== undefined) (out as Record<string, unknown>)[k] = f[k];
  if (f.power !== undefined) out.power = f.power ? { amps: f.power.amps, volts: f.power.volts, phase: f.power.phase } : null;
  if (f.rates !== undefined) out.rates = f.rates;
  return out;
}

function newRow(customerId: string, locationId: string, unitNumber: string, f: Fields, status: SlipStatus | undefined, now: string): SlipRow {
  return {
    id: newId('slp'),
    customerId,
    locationId,
    unitNumber,
    name: null,
    section: null,
    unitType: 'slip',
    lengthFt: null,
    maxLoaFt: null,
    widthFt: null,
    depthFt: null,
    overheadClearanceFt: null,
    power: null,
    water: false,
    status: status ?? 'available',
    rates: {},
    amenities: [],
    notes: null,
    mapId: null,
    mapX: null,
    mapY: null,
    mapRotation: null,
    createdAt: now,
    updatedAt: now,
    ...fieldsOf(f),
  };
}

/**
 * Unit numbers of the location that equal one of `numbers` without regard to case ("d-01" and "D-01" are one
 * unit number), as they are stored; `exceptId` leaves out the unit being renamed.
 */
async function existingUnitNumbers(ctx: Ctx, locationId: string, numbers: string[], exceptId?: string): Promise<string[]> {
  const found: string[] = [];
  const lower = [...new Set(numbers.map((n) => n.toLowerCase()))];
  for (let i = 0; i < lower.length; i += 90) {
    const rows = await ctx.db
      .select({ id: slips.id, n: slips.unitNumber })
      .from(slips)
      .where(and(eq(slips.customerId, tenantOf(ctx)), eq(slips.locationId, locationId), inArray(sql`lower(${slips.unitNumber})`, lower.slice(i, i + 90))))
      .all();
    found.push(...rows.filter((r) => r.id !== exceptId).map((r) => r.n));
  }
  return found;
}

const unitTaken = (asked: string, taken: string[]) =>
  new ApiError(
    'already_exists',
    `Unit number ${asked} already exists at this location${taken[0] && taken[0] !== asked ? ` as ${taken[0]} (unit numbers are compared without regard to case)` : ''}`,
    {
      extra: { existingUnitNumbers: taken },
    },
  );

export async function createSlip(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  await requireActiveSubscription(ctx);
  const { locationId, unitNumber, status, ...fields } = input;
  const taken = await existingUnitNumbers(ctx, locationId, [unitNumber]);
  if (taken.length) throw unitTaken(unitNumber, taken);
  const row = newRow(customerId, locationId, unitNumber, fields, status, nowIso(ctx));
  try {
    await commit(ctx, [ctx.db.insert(slips).values(row)], {
      audit: { action: 'slip.create', targetType: 'slip', targetId: row.id, details: { unitNumber, locationId } },
    });
  } catch (err) {
    if (isUnitConflict(err)) throw new ApiError('already_exists', `Unit number ${unitNumber} already exists at this location`);
    throw err;
  }
  await syncSlipQuantity(ctx, customerId);
  return slipOut(row);
}

export async function bulkCreateSlips(ctx: Ctx, input: z.output<typeof s.BulkCreateBody>) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  const { locationId, prefix, start, end, padding, status, ...fields } = input;
  if (end < start) throw new ApiError('validation_failed', 'end must not be below start', { details: [{ field: 'end', message: 'must be at least start' }] });
  if (end - start + 1 > 500)
    throw new ApiError('validation_failed', 'At most 500 units per bulk create', { details: [{ field: 'end', message: 'at most 500 units' }] });
  await getLocationInTenant(ctx, locationId);
  await requireActiveSubscription(ctx);
  const numbers = Array.from({ length: end - start + 1 }, (_, i) => `${prefix}${String(start + i).padStart(padding, '0')}`);
  const taken = await existingUnitNumbers(ctx, locationId, numbers);
  if (taken.length)
    throw new ApiError('already_exists', `These unit numbers already exist at this location; nothing was created: ${taken.slice(0, 20).join(', ')}`, {
      extra: { existingUnitNumbers: taken },
    });
  const now = nowIso(ctx);
  const rows = numbers.map((n) => newRow(customerId, locationId, n, fields, status, now));
  try {
    await commit(
      ctx,
      rows.map((r) => ctx.db.insert(slips).values(r)),
      {
        audit: {
          action: 'slip.bulk_create',
          targetType: 'location',
          targetId: locationId,
          details: { count: rows.length, from: numbers[0], to: numbers.at(-1) },
        },
      },
    );
  } catch (err) {
    if (isUnitConflict(err)) throw new ApiError('already_exists', 'A unit number of the range was created meanwhile; nothing was created');
    throw err;
  }
  await syncSlipQuantity(ctx, customerId);
  return { created: rows.length, data: rows.map(slipOut) };
}

export async function updateSlip(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const row = await getSlipRow(ctx, id);
  const patch: Partial<SlipRow> = fieldsOf(input);
  if (input.unitNumber !== undefined && input.unitNumber !== row.unitNumber) {
    const taken = await existingUnitNumbers(ctx, row.locationId, [input.unitNumber], row.id);
    if (taken.length) throw unitTaken(input.unitNumber, taken);
    patch.unitNumber = input.unitNumber;
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to change');
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(slips)
          .set(patch)
          .where(and(eq(slips.id, row.id), eq(slips.customerId, row.customerId))),
      ],
      {
        audit: { action: 'slip.update', targetType: 'slip', targetId: row.id, details: { fields: Object.keys(patch) } },
      },
    );
  } catch (err) {
    if (isUnitConflict(err)) throw new ApiError('already_exists', `Unit number ${input.unitNumber} already exists at this location`);
    throw err;
  }
  return slipOut({ ...row, ...patch, updatedAt: nowIso(ctx) });
}

export async function setSlipStatus(ctx: Ctx, id: string, input: { status: SlipStatus; reason?: string }) {
  requirePermission(ctx, 'marina');
  const row = await getSlipRow(ctx, id);
  if (row.status === input.status) return slipOut(row);
  const reopening = row.status === 'out_of_service';
  if (reopening) await requireActiveSubscription(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(slips)
        .set({ status: input.status })
        .where(and(eq(slips.id, row.id), eq(slips.customerId, row.customerId))),
    ],
    {
      audit: { action: 'slip.status', targetType: 'slip', targetId: row.id, details: { from: row.status, to: input.status, reason: input.reason ?? null } },
    },
  );
  if (reopening || input.status === 'out_of_service') await syncSlipQuantity(ctx, row.customerId);
  return slipOut({ ...row, status: input.status, updatedAt: nowIso(ctx) });
}

/** DELETE: a soft delete (status out_of_service). Reservations keep the unit; transfer them if needed. */
export async function deleteSlip(ctx: Ctx, id: string) {
  return await setSlipStatus(ctx, id, { status: 'out_of_service', reason: 'deleted' });
}

export async function bulkUpdateSlips(ctx: Ctx, input: z.output<typeof s.BulkUpdateBody>) {
  requirePermission(ctx, 'marina');
  const ids = [...new Set(input.slipIds)];
  const rows = await slipRowsByIds(ctx, ids);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length) throw new ApiError('not_found', `Slips not found; nothing was changed: ${missing.slice(0, 20).join(', ')}`, { extra: { missing } });
  const { status, ...rest } = input.changes;
  const patch: Partial<SlipRow> = fieldsOf(rest);
  if (status) patch.status = status;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field in changes');
  const reopening = status && status !== 'out_of_service' && rows.some((r) => r.status === 'out_of_service');
  if (reopening) await requireActiveSubscription(ctx);
  const customerId = tenantOf(ctx);
  const stmts: Stmt[] = [];
  for (let i = 0; i < ids.length; i += 90)
    stmts.push(
      ctx.db
        .update(slips)
        .set(patch)
        .where(and(eq(slips.customerId, customerId), inArray(slips.id, ids.slice(i, i + 90)))),
    );
  await commit(ctx, stmts, {
    audit: { action: 'slip.bulk_update', targetType: 'slip', targetId: null, details: { count: ids.length, fields: Object.keys(patch) } },
  });
  if (status) await syncSlipQuantity(ctx, customerId);
  const now = nowIso(ctx);
  return { updated: ids.length, data: rows.map((r) => slipOut({ ...r, ...patch, updatedAt: now })) };
}

export async function renameSection(ctx: Ctx, input: { locationId: string; from: string; to: string }) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const where = and(eq(slips.customerId, customerId), eq(slips.locationId, input.locationId), eq(slips.section, input.from));
  const n = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(slips)
    .where(where)
    .get();
  if (!Number(n?.n)) throw notFound(`Section "${input.from}"`);
  await commit(ctx, [ctx.db.update(slips).set({ section: input.to }).where(where)], {
    audit: { action: 'slip.section_rename', targetType: 'location', targetId: input.locationId, details: { from: input.from, to: input.to } },
  });
  return { locationId: input.locationId, section: input.to, updated: Number(n!.n) };
}

export async function clearSection(ctx: Ctx, locationId: string, name: string) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const where = and(eq(slips.customerId, customerId), eq(slips.locationId, locationId), eq(slips.section, name));
  const n = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(slips)
    .where(where)
    .get();
  if (!Number(n?.n)) throw notFound(`Section "${name}"`);
  await commit(ctx, [ctx.db.update(slips).set({ section: null }).where(where)], {
    audit: { action: 'slip.section_clear', targetType: 'location', targetId: locationId, details: { section: name } },
  });
  return { locationId, section: name, updated: Number(n!.n) };
}

/** Statements other marina modules put in their batches: map pins (marina maps) and the occupied/available status (check-in, check-out). */
export function slipPinStmt(ctx: Ctx, slipId: string, pin: { mapId: string; x: number; y: number; rotation: number | null } | null): Stmt {
  return ctx.db
    .update(slips)
    .set(pin ? { mapId: pin.mapId, mapX: pin.x, mapY: pin.y, mapRotation: pin.rotation } : { mapId: null, mapX: null, mapY: null, mapRotation: null })
    .where(and(eq(slips.id, slipId), eq(slips.customerId, tenantOf(ctx))));
}

export function clearMapPinsStmt(ctx: Ctx, mapId: string): Stmt {
  return ctx.db
    .update(slips)
    .set({ mapId: null, mapX: null, mapY: null, mapRotation: null })
    .where(and(eq(slips.mapId, mapId), eq(slips.customerId, tenantOf(ctx))));
}

/** Occupied at check-in; back to available at check-out unless staff set another status meanwhile. */
export function slipOccupancyStmt(ctx: Ctx, slipId: string, occupied: boolean): Stmt {
  const where = and(eq(slips.id, slipId), eq(slips.customerId, tenantOf(ctx)));
  return occupied
    ? ctx.db
        .update(slips)
        .set({ status: 'occupied' })
        .where(and(where, inArray(slips.status, ['available', 'reserved'])))
    : ctx.db
        .update(slips)
        .set({ status: 'available' })
        .where(and(where, eq(slips.status, 'occupied')));
}
