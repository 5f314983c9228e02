// Marina maps' face: what other code may call, and the map and pin use cases it defines (the router
// answers with them). Others use it for:
// - a map and the maps of a location, for the public slip pages: getMap, listMaps
// - maps and pins for the seed: createMap, batchPins
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { marinaMaps } from '../../db/schema/marina-maps';
import { slips } from '../../db/schema/slips';
import { getLocationInTenant } from '../locations/service';
import { clearMapPinsStmt, getSlipRow, slipOut, slipPinStmt, slipRowsByIds, slipRowsOnMap, unassignedSlipRows, type SlipRow } from '../slips/service';
import type * as s from './schemas';

type MapRow = typeof marinaMaps.$inferSelect;

const mapOut = (m: MapRow, pinCount: number): z.output<typeof s.MarinaMap> => ({
  mapId: m.id,
  customerId: m.customerId,
  locationId: m.locationId,
  name: m.name,
  description: m.description,
  imageUrl: m.imageUrl,
  imageWidth: m.imageWidth,
  imageHeight: m.imageHeight,
  displayOrder: m.displayOrder,
  isActive: m.isActive,
  pinCount,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

const pinOut = (r: SlipRow): z.output<typeof s.Pin> => ({
  slipId: r.id,
  unitNumber: r.unitNumber,
  name: r.name,
  section: r.section,
  unitType: r.unitType,
  status: r.status,
  x: r.mapX ?? 0,
  y: r.mapY ?? 0,
  rotation: r.mapRotation,
});

/** Map ids start with `smap_`; anything else in GET /slips/maps/{id} is a location id. */
export const isMapId = (id: string) => id.startsWith('smap_');

async function getMapRow(ctx: Ctx, mapId: string): Promise<MapRow> {
  const row = await ctx.db
    .select()
    .from(marinaMaps)
    .where(and(eq(marinaMaps.id, mapId), eq(marinaMaps.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Map');
  return row;
}

async function pinCounts(ctx: Ctx, mapIds: string[]): Promise<Map<string, number>> {
  if (!mapIds.length) return new Map();
  const rows = await ctx.db
    .select({ mapId: slips.mapId, n: sql<number>`count(*)` })
    .from(slips)
    .where(and(eq(slips.customerId, tenantOf(ctx)), inArray(slips.mapId, mapIds)))
    .groupBy(slips.mapId)
    .all();
  return new Map(rows.map((r) => [r.mapId!, Number(r.n)]));
}

export async function getMap(ctx: Ctx, mapId: string) {
  const m = await getMapRow(ctx, mapId);
  const pins = (await slipRowsOnMap(ctx, m.id)).map(pinOut);
  return { ...mapOut(m, pins.length), pins };
}

export async function listMaps(ctx: Ctx, locationId: string, q: { activeOnly?: 'true' | 'false'; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const conds = [eq(marinaMaps.customerId, customerId), eq(marinaMaps.locationId, locationId)];
  if (q.activeOnly === 'true') conds.push(eq(marinaMaps.isActive, true));
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    ctx.db.select().from(marinaMaps).where(where).orderBy(asc(marinaMaps.displayOrder), asc(marinaMaps.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(marinaMaps)
      .where(where)
      .get(),
  ]);
  const counts = await pinCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return { locationId, data: rows.map((r) => mapOut(r, counts.get(r.id) ?? 0)), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** GET /slips/maps/{id}: a map with its pins for a map id, the maps of a location for a location id. */
export async function mapsOrMap(ctx: Ctx, id: string, q: { activeOnly?: 'true' | 'false'; limit: number; offset: number }) {
  return isMapId(id) ? getMap(ctx, id) : listMaps(ctx, id, q);
}

export async function createMap(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  let order = input.displayOrder;
  if (order === undefined) {
    const max = await ctx.db
      .select({ m: sql<number | null>`max(${marinaMaps.displayOrder})` })
      .from(marinaMaps)
      .where(and(eq(marinaMaps.customerId, customerId), eq(marinaMaps.locationId, input.locationId)))
      .get();
    order = max?.m == null ? 0 : Number(max.m) + 1;
  }
  const now = nowIso(ctx);
  const row: MapRow = {
    id: newId('smap'),
    customerId,
    locationId: input.locationId,
    name: input.name,
    description: input.description ?? null,
    imageUrl: input.imageUrl ?? null,
    imageWidth: input.imageWidth ?? null,
    imageHeight: input.imageHeight ?? null,
    displayOrder: order,
    isActive: input.isActive ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(marinaMaps).values(row)], {
    audit: { action: 'marina_map.create', targetType: 'marina_map', targetId: row.id, details: { name: row.name } },
  });
  return mapOut(row, 0);
}

export async function updateMap(ctx: Ctx, mapId: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const m = await getMapRow(ctx, mapId);
  const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<MapRow>;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to change');
  await commit(
    ctx,
    [
      ctx.db
        .update(marinaMaps)
        .set(patch)
        .where(and(eq(marinaMaps.id, m.id), eq(marinaMaps.customerId, m.customerId))),
    ],
    {
      audit: { action: 'marina_map.update', targetType: 'marina_map', targetId: m.id, details: { fields: Object.keys(patch) } },
    },
  );
  return getMap(ctx, m.id);
}

export async function deleteMap(ctx: Ctx, mapId: string) {
  requirePermission(ctx, 'marina');
  const m = await getMapRow(ctx, mapId);
  const pinned = (await pinCounts(ctx, [m.id])).get(m.id) ?? 0;
  await commit(ctx, [clearMapPinsStmt(ctx, m.id), ctx.db.delete(marinaMaps).where(and(eq(marinaMaps.id, m.id), eq(marinaMaps.customerId, m.customerId)))], {
    audit: { action: 'marina_map.delete', targetType: 'marina_map', targetId: m.id, details: { unpinnedSlips: pinned } },
  });
  return { mapId: m.id, deleted: true as const, unpinnedSlips: pinned };
}

export async function toggleMapActive(ctx: Ctx, mapId: string) {
  requirePermission(ctx, 'marina');
  const m = await getMapRow(ctx, mapId);
  // One conditional statement: two racing toggles flip twice, never lose one.
  await commit(
    ctx,
    [
      ctx.db
        .update(marinaMaps)
        .set({ isActive: sql`NOT ${marinaMaps.isActive}` })
        .where(and(eq(marinaMaps.id, m.id), eq(marinaMaps.customerId, m.customerId))),
    ],
    { audit: { action: 'marina_map.toggle_active', targetType: 'marina_map', targetId: m.id } },
  );
  const after = await getMapRow(ctx, m.id);
  return mapOut(after, (await pinCounts(ctx, [m.id])).get(m.id) ?? 0);
}

export async function reorderMaps(ctx: Ctx, input: { locationId: string; mapIds: string[] }) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const rows = await ctx.db
    .select()
    .from(marinaMaps)
    .where(and(eq(marinaMaps.customerId, customerId), eq(marinaMaps.locationId, input.locationId)))
    .orderBy(asc(marinaMaps.displayOrder), asc(marinaMaps.createdAt))
    .all();
  const known = new Set(rows.map((r) => r.id));
  const ids = [...new Set(input.mapIds)];
  const unknown = ids.filter((i) => !known.has(i));
  if (unknown.length) throw new ApiError('not_found', `Maps not found at this location: ${unknown.join(', ')}`);
  // The listed maps first in the given order, the others after them in their current order.
  const order = [...ids, ...rows.map((r) => r.id).filter((i) => !ids.includes(i))];
  const stmts: Stmt[] = order.map((mid, i) =>
    ctx.db
      .update(marinaMaps)
      .set({ displayOrder: i })
      .where(and(eq(marinaMaps.id, mid), eq(marinaMaps.customerId, customerId))),
  );
  await commit(ctx, stmts, { audit: { action: 'marina_map.reorder', targetType: 'location', targetId: input.locationId, details: { order } } });
  return listMaps(ctx, input.locationId, { limit: 100, offset: 0 });
}

export async function mapPins(ctx: Ctx, mapId: string) {
  const m = await getMapRow(ctx, mapId);
  return { mapId: m.id, data: (await slipRowsOnMap(ctx, m.id)).map(pinOut) };
}

export async function unassignedSlips(ctx: Ctx, locationId: string) {
  await getLocationInTenant(ctx, locationId);
  const rows = await unassignedSlipRows(ctx, locationId);
  return { locationId, data: rows.map(slipOut), total: rows.length };
}

/** All pins of the batch are checked before anything is written; then one atomic write. */
export async function batchPins(ctx: Ctx, input: z.output<typeof s.BatchPinsBody>) {
  requirePermission(ctx, 'marina');
  const m = await getMapRow(ctx, input.mapId);
  const ids = [...input.pins.map((p) => p.slipId), ...input.remove];
  if (!ids.length) throw new ApiError('no_changes', 'Give pins to place or slips to remove');
  const dup = input.pins.map((p) => p.slipId).filter((v, i, a) => a.indexOf(v) !== i);
  if (dup.length)
    throw new ApiError('validation_failed', `A slip appears twice in pins: ${dup[0]}`, { details: [{ field: 'pins', message: 'duplicate slipId' }] });
  const rows = await slipRowsByIds(ctx, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = [...new Set(ids)].filter((i) => !byId.has(i));
  if (missing.length) throw new ApiError('not_found', `Slips not found; nothing was changed: ${missing.slice(0, 20).join(', ')}`, { extra: { missing } });
  const elsewhere = rows.filter((r) => r.locationId !== m.locationId).map((r) => r.unitNumber);
  if (elsewhere.length)
    throw new ApiError('bad_request', `Slips of another location cannot be pinned on this map: ${elsewhere.slice(0, 20).join(', ')}`, {
      details: [{ field: 'pins', message: 'slip of another location' }],
    });
  const notHere = input.remove.filter((i) => byId.get(i)!.mapId !== m.id);
  if (notHere.length)
    throw new ApiError('bad_request', `Slips to remove are not on this map: ${notHere.slice(0, 20).join(', ')}`, {
      details: [{ field: 'remove', message: 'not on this map' }],
    });
  const stmts = [
    ...input.pins.map((p) => slipPinStmt(ctx, p.slipId, { mapId: m.id, x: p.x, y: p.y, rotation: p.rotation ?? byId.get(p.slipId)!.mapRotation ?? null })),
    ...input.remove.map((i) => slipPinStmt(ctx, i, null)),
  ];
  await commit(ctx, stmts, {
    audit: { action: 'marina_map.batch_pins', targetType: 'marina_map', targetId: m.id, details: { placed: input.pins.length, removed: input.remove.length } },
  });
  return { mapId: m.id, updated: input.pins.length, removed: input.remove.length, data: (await slipRowsOnMap(ctx, m.id)).map(pinOut) };
}

export async function assignPin(ctx: Ctx, slipId: string, input: { mapId: string; x: number; y: number; rotation?: number | null }) {
  requirePermission(ctx, 'marina');
  const slip = await getSlipRow(ctx, slipId);
  const m = await getMapRow(ctx, input.mapId);
  if (m.locationId !== slip.locationId)
    throw new ApiError('bad_request', 'The map belongs to another location than the slip', {
      details: [{ field: 'mapId', message: 'map of another location' }],
    });
  const pin = { mapId: m.id, x: input.x, y: input.y, rotation: input.rotation ?? null };
  await commit(ctx, [slipPinStmt(ctx, slip.id, pin)], {
    audit: { action: 'slip.map_pin', targetType: 'slip', targetId: slip.id, details: { ...pin, previousMapId: slip.mapId } },
  });
  return { slipId: slip.id, mapId: m.id, pin: pinOut({ ...slip, mapId: m.id, mapX: pin.x, mapY: pin.y, mapRotation: pin.rotation }) };
}

export async function movePin(ctx: Ctx, slipId: string, input: { x: number; y: number; rotation?: number | null }) {
  requirePermission(ctx, 'marina');
  const slip = await getSlipRow(ctx, slipId);
  if (!slip.mapId) throw new ApiError('invalid_state', 'The slip is on no map: assign it with PUT /slips/{slipId}/map-pin');
  const pin = { mapId: slip.mapId, x: input.x, y: input.y, rotation: input.rotation === undefined ? slip.mapRotation : input.rotation };
  await commit(ctx, [slipPinStmt(ctx, slip.id, pin)], { audit: { action: 'slip.map_pin_move', targetType: 'slip', targetId: slip.id, details: pin } });
  return { slipId: slip.id, mapId: slip.mapId, pin: pinOut({ ...slip, mapX: pin.x, mapY: pin.y, mapRotation: pin.rotation }) };
}

export async function removePin(ctx: Ctx, slipId: string) {
  requirePermission(ctx, 'marina');
  const slip = await getSlipRow(ctx, slipId);
  if (!slip.mapId) return { slipId: slip.id, mapId: null, pin: null, removed: false };
  await commit(ctx, [slipPinStmt(ctx, slip.id, null)], {
    audit: { action: 'slip.map_pin_remove', targetType: 'slip', targetId: slip.id, details: { mapId: slip.mapId } },
  });
  return { slipId: slip.id, mapId: null, pin: null, removed: true };
}
