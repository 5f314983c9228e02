// Geofences' face: what other modules may call, and the geofence and position use cases it defines
// (the router answers with them). Others use it for:
// - the GPS integration checking its trackers: fencesOf, getGeofence, assetPositionUpsert
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { nowIso, nowMs } from '../../lib/clock';
import { ApiError, notFound, type ErrorDetail } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { assetPositions, geofences, staffLocations, type LatLng } from '../../db/schema/geofences';
import { getLocationInTenant } from '../locations/service';
import { getAssetsInTenant, listAssetsOfLocation } from '../inventory/service';
import { getUserInTenant } from '../users/service';
import { contains } from './geometry';

type GeofenceRow = typeof geofences.$inferSelect;
type StaffRow = typeof staffLocations.$inferSelect;
type AssetPosRow = typeof assetPositions.$inferSelect;

const detail = (field: string, message: string): ErrorDetail => ({ field, location: 'body', code: 'invalid', message });
const invalid = (details: ErrorDetail[]) =>
  new ApiError('validation_failed', `Invalid request: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, { details });

export const geofenceOut = (g: GeofenceRow) => ({
  geofenceId: g.id,
  customerId: g.customerId,
  locationId: g.locationId,
  name: g.name,
  shape: g.shape,
  center: g.centerLat !== null && g.centerLng !== null ? { lat: g.centerLat, lng: g.centerLng } : null,
  radiusMeters: g.radiusMeters,
  points: g.points,
  details: g.details ?? {},
  createdAt: g.createdAt,
  updatedAt: g.updatedAt,
});

interface Geometry {
  shape: 'circle' | 'polygon';
  center?: LatLng;
  radiusMeters?: number;
  points?: LatLng[];
}

/** A circle needs center and radius (no points); a polygon needs 3+ points (no center or radius). */
function geometry(g: Geometry) {
  if (g.shape === 'circle') {
    const problems: ErrorDetail[] = [];
    if (!g.center) problems.push(detail('center', 'is required for a circle'));
    if (g.radiusMeters === undefined) problems.push(detail('radiusMeters', 'is required for a circle'));
    if (g.points) problems.push(detail('points', 'is for polygons only'));
    if (problems.length) throw invalid(problems);
    return { shape: 'circle' as const, centerLat: g.center!.lat, centerLng: g.center!.lng, radiusMeters: g.radiusMeters!, points: null };
  }
  const problems: ErrorDetail[] = [];
  if (!g.points) problems.push(detail('points', 'are required for a polygon (at least 3)'));
  if (g.center || g.radiusMeters !== undefined) problems.push(detail(g.center ? 'center' : 'radiusMeters', 'is for circles only'));
  if (problems.length) throw invalid(problems);
  return { shape: 'polygon' as const, centerLat: null, centerLng: null, radiusMeters: null, points: g.points! };
}

async function geofenceInTenant(ctx: Ctx, id: string): Promise<GeofenceRow> {
  const row = await ctx.db
    .select()
    .from(geofences)
    .where(and(eq(geofences.id, id), eq(geofences.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Geofence');
  return row;
}

export async function listGeofences(ctx: Ctx, q: { locationId?: string; limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const where = and(eq(geofences.customerId, customerId), q.locationId ? eq(geofences.locationId, q.locationId) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(geofences).where(where).orderBy(desc(geofences.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(geofences).where(where).get(),
  ]);
  return { data: rows.map(geofenceOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export const getGeofence = async (ctx: Ctx, id: string) => geofenceOut(await geofenceInTenant(ctx, id));

export async function createGeofence(ctx: Ctx, input: Geometry & { locationId: string; name: string; details?: Record<string, unknown> }) {
  requirePermission(ctx, 'geofences');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const now = nowIso(ctx);
  const row: GeofenceRow = {
    id: newId('gfn'),
    customerId,
    locationId: input.locationId,
    name: input.name,
    ...geometry(input),
    details: input.details ?? {},
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(geofences).values(row)], {
    audit: { action: 'geofence.create', targetType: 'geofence', targetId: row.id, details: { name: row.name, shape: row.shape } },
  });
  return geofenceOut(row);
}

export async function updateGeofence(ctx: Ctx, id: string, input: Partial<Geometry> & { name?: string; details?: Record<string, unknown> }) {
  requirePermission(ctx, 'geofences');
  const existing = await geofenceInTenant(ctx, id);
  const geoChange = input.shape !== undefined || input.center !== undefined || input.radiusMeters !== undefined || input.points !== undefined;
  const patch: Partial<GeofenceRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.details !== undefined) patch.details = input.details;
  if (geoChange) {
    const shape = input.shape ?? existing.shape;
    const keep = shape === existing.shape;
    Object.assign(
      patch,
      geometry({
        shape,
        center: input.center ?? (keep && existing.centerLat !== null ? { lat: existing.centerLat, lng: existing.centerLng! } : undefined),
        radiusMeters: input.radiusMeters ?? (keep ? (existing.radiusMeters ?? undefined) : undefined),
        points: input.points ?? (keep ? (existing.points ?? undefined) : undefined),
      }),
    );
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one of name, shape, center, radiusMeters, points, details');
  await commit(
    ctx,
    [
      ctx.db
        .update(geofences)
        .set(patch)
        .where(and(eq(geofences.id, id), eq(geofences.customerId, existing.customerId))),
    ],
    { audit: { action: 'geofence.update', targetType: 'geofence', targetId: id, details: { fields: Object.keys(patch) } } },
  );
  return geofenceOut({ ...existing, ...patch, updatedAt: nowIso(ctx) });
}

export async function deleteGeofence(ctx: Ctx, id: string) {
  requirePermission(ctx, 'geofences');
  const existing = await geofenceInTenant(ctx, id);
  await commit(ctx, [ctx.db.delete(geofences).where(and(eq(geofences.id, id), eq(geofences.customerId, existing.customerId)))], {
    audit: { action: 'geofence.delete', targetType: 'geofence', targetId: id },
  });
  return { success: true, geofenceId: id };
}

// ---- positions ----

function instant(ctx: Ctx, recordedAt: string | undefined): string {
  const now = nowMs(ctx);
  const t = recordedAt ? Date.parse(recordedAt) : now;
  if (t > now + 5 * 60_000) throw invalid([detail('recordedAt', 'is in the future')]);
  return new Date(t).toISOString();
}

/** The geofences of an operator (of one location when given); the GPS integration checks its trackers against them. */
export async function fencesOf(ctx: Ctx, customerId: string, locationId?: string | null) {
  return ctx.db
    .select()
    .from(geofences)
    .where(and(eq(geofences.customerId, customerId), locationId ? eq(geofences.locationId, locationId) : undefined))
    .all();
}

const inside = (fences: GeofenceRow[], p: { lat: number; lng: number; locationId?: string | null }) =>
  fences.filter((g) => (!p.locationId || g.locationId === p.locationId) && contains(g, p)).map((g) => g.id);

const staffOut = (r: StaffRow, name: string | null, fences: GeofenceRow[]) => ({
  userId: r.userId,
  name,
  locationId: r.locationId,
  lat: r.lat,
  lng: r.lng,
  accuracyMeters: r.accuracyMeters,
  heading: r.heading,
  speedMps: r.speedMps,
  recordedAt: r.recordedAt,
  source: r.source,
  geofenceIds: inside(fences, r),
});

const assetOut = (r: AssetPosRow, fences: GeofenceRow[]) => ({
  assetId: r.assetId,
  itemId: r.itemId,
  locationId: r.locationId,
  lat: r.lat,
  lng: r.lng,
  accuracyMeters: r.accuracyMeters,
  heading: r.heading,
  speedMps: r.speedMps,
  recordedAt: r.recordedAt,
  source: r.source,
  geofenceIds: inside(fences, r),
});

interface Reading {
  lat: number;
  lng: number;
  accuracyMeters?: number;
  heading?: number;
  speedMps?: number;
  recordedAt?: string;
}

/**
 * A staff member's position (default: the caller). Reporting for someone else needs the
 * `staff_locations` permission. Only a newer reading replaces the last known one (one conditional upsert).
 */
export async function reportStaffLocation(ctx: Ctx, input: Reading & { userId?: string; locationId?: string }) {
  const customerId = tenantOf(ctx);
  const userId = input.userId ?? ctx.principal.userId;
  if (!userId) throw invalid([detail('userId', 'is required for this credential')]);
  if (userId !== ctx.principal.userId) requirePermission(ctx, 'staff_locations');
  const user = await getUserInTenant(ctx, userId);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  const recordedAt = instant(ctx, input.recordedAt);
  const source = ctx.principal.kind === 'app' ? `app:${ctx.principal.app?.appId}` : 'staff';
  const values = {
    lat: input.lat,
    lng: input.lng,
    accuracyMeters: input.accuracyMeters ?? null,
    heading: input.heading ?? null,
    speedMps: input.speedMps ?? null,
    recordedAt,
    source,
    locationId: input.locationId ?? null,
    updatedAt: nowIso(ctx),
  };
  const written = await ctx.db
    .insert(staffLocations)
    .values({ id: newId('sloc'), customerId, userId, ...values })
    .onConflictDoUpdate({
      target: [staffLocations.customerId, staffLocations.userId],
      set: values,
      setWhere: sql`excluded.recorded_at > ${staffLocations.recordedAt}`,
    })
    .returning()
    .get();
  const row =
    written ??
    (await ctx.db
      .select()
      .from(staffLocations)
      .where(and(eq(staffLocations.customerId, customerId), eq(staffLocations.userId, userId)))
      .get())!;
  return { updated: Boolean(written), position: staffOut(row, user.name, await fencesOf(ctx, customerId, row.locationId)) };
}

export async function listStaffLocations(ctx: Ctx, q: { locationId?: string }) {
  const customerId = tenantOf(ctx);
  const rows = await ctx.db
    .select()
    .from(staffLocations)
    .where(and(eq(staffLocations.customerId, customerId), q.locationId ? eq(staffLocations.locationId, q.locationId) : undefined))
    .orderBy(desc(staffLocations.recordedAt))
    .all();
  const fences = await fencesOf(ctx, customerId, q.locationId);
  const names = new Map<string, string | null>();
  for (const r of rows) names.set(r.userId, (await getUserInTenant(ctx, r.userId).catch(() => null))?.name ?? null);
  return { data: rows.map((r) => staffOut(r, names.get(r.userId) ?? null, fences)) };
}

/** A device (or the GPS integration) reports where an asset is; only a newer reading replaces the last known one. */
export async function reportAssetPosition(ctx: Ctx, input: Reading & { assetId: string; source: 'device' | 'gps' }) {
  requirePermission(ctx, 'inventory');
  const customerId = tenantOf(ctx);
  const [asset] = await getAssetsInTenant(ctx, [input.assetId]);
  if (!asset) throw notFound('Asset');
  const recordedAt = instant(ctx, input.recordedAt);
  const written = await assetPositionUpsert(ctx, customerId, asset, { ...input, recordedAt })
    .returning()
    .get();
  const row =
    written ??
    (await ctx.db
      .select()
      .from(assetPositions)
      .where(and(eq(assetPositions.customerId, customerId), eq(assetPositions.assetId, asset.id)))
      .get())!;
  return { updated: Boolean(written), position: assetOut(row, await fencesOf(ctx, customerId, row.locationId)) };
}

/**
 * The statement that records an asset's position unless a newer one is known (one conditional
 * upsert): devices through the API and the GPS integration's trackers (`source: 'gps'`, in the
 * batch of their fixes).
 */
export function assetPositionUpsert(
  ctx: Ctx,
  customerId: string,
  asset: { id: string; itemId: string; locationId: string },
  r: Reading & { recordedAt: string; source: 'device' | 'gps' },
) {
  const values = {
    itemId: asset.itemId,
    locationId: asset.locationId,
    lat: r.lat,
    lng: r.lng,
    accuracyMeters: r.accuracyMeters ?? null,
    heading: r.heading ?? null,
    speedMps: r.speedMps ?? null,
    recordedAt: r.recordedAt,
    source: r.source,
    updatedAt: nowIso(ctx),
  };
  return ctx.db
    .insert(assetPositions)
    .values({ id: newId('apos'), customerId, assetId: asset.id, ...values })
    .onConflictDoUpdate({
      target: [assetPositions.customerId, assetPositions.assetId],
      set: values,
      setWhere: sql`excluded.recorded_at > ${assetPositions.recordedAt}`,
    });
}

export async function listAssetPositions(ctx: Ctx, q: { locationId?: string; itemId?: string }) {
  const customerId = tenantOf(ctx);
  const rows = await ctx.db
    .select()
    .from(assetPositions)
    .where(
      and(
        eq(assetPositions.customerId, customerId),
        q.locationId ? eq(assetPositions.locationId, q.locationId) : undefined,
        q.itemId ? eq(assetPositions.itemId, q.itemId) : undefined,
      ),
    )
    .orderBy(desc(assetPositions.recordedAt))
    .all();
  const fences = await fencesOf(ctx, customerId, q.locationId);
  return { data: rows.map((r) => assetOut(r, fences)) };
}

/** What the asset-tracking embed draws: the location, its geofences, every asset with its last known position, and staff positions. */
export async function liveMap(ctx: Ctx, locationId: string) {
  const customerId = tenantOf(ctx);
  const location = await getLocationInTenant(ctx, locationId);
  const [fences, assets, positions, staff] = await Promise.all([
    fencesOf(ctx, customerId, locationId),
    listAssetsOfLocation(ctx, locationId),
    listAssetPositions(ctx, { locationId }),
    listStaffLocations(ctx, { locationId }),
  ]);
  const byAsset = new Map(positions.data.map((p) => [p.assetId, p]));
  return {
    location: { locationId: location.id, name: location.name, latitude: location.latitude, longitude: location.longitude, timezone: location.timezone },
    geofences: fences.map(geofenceOut),
    assets: assets.map((a) => ({ assetId: a.id, name: a.name, itemId: a.itemId, itemName: a.itemName, status: a.status, position: byAsset.get(a.id) ?? null })),
    staff: staff.data,
    generatedAt: nowIso(ctx),
  };
}
