/** GPS devices (with their key), geofences and settings of an operator. */
import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requireAdmin, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { locations } from '../../db/schema/locations';
import { inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { gpsDevices, gpsFenceStates, gpsGeofences, gpsSettings } from '../../db/schema/gps';

type DeviceRow = typeof gpsDevices.$inferSelect;
type FenceRow = typeof gpsGeofences.$inferSelect;
export type SettingsRow = typeof gpsSettings.$inferSelect;

export const deviceOut = (d: DeviceRow) => ({
  deviceId: d.id,
  deviceName: d.deviceName,
  locationId: d.locationId,
  inventoryId: d.inventoryId,
  assetId: d.assetId,
  keyPrefix: d.keyPrefix,
  status: d.status,
  lastPosition:
    d.lastLat != null && d.lastLng != null && d.lastFixAt != null
      ? { lat: d.lastLat, lng: d.lastLng, accuracyMeters: d.lastAccuracy, recordedAt: new Date(d.lastFixAt).toISOString() }
      : null,
  createdAt: d.createdAt,
});

export const fenceOut = (g: FenceRow) => ({
  geofenceId: g.id,
  locationId: g.locationId,
  name: g.name,
  shape: g.shape,
  center: g.centerLat != null && g.centerLng != null ? { lat: g.centerLat, lng: g.centerLng } : null,
  radiusMeters: g.radiusMeters,
  points: g.points,
  isHome: g.isHome,
  createdAt: g.createdAt,
});

async function locationInTenant(ctx: Ctx, locationId: string) {
  const loc = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), eq(locations.customerId, tenantOf(ctx))))
    .get();
  if (!loc) throw notFound('Location');
  return loc;
}

export async function createDevice(ctx: Ctx, input: { locationId: string; deviceName: string; inventoryId?: string; assetId?: string }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await locationInTenant(ctx, input.locationId);
  let inventoryId = input.inventoryId ?? null;
  if (input.assetId) {
    const asset = await ctx.db
      .select({ id: inventoryAssets.id, itemId: inventoryAssets.itemId })
      .from(inventoryAssets)
      .where(and(eq(inventoryAssets.id, input.assetId), eq(inventoryAssets.customerId, customerId)))
      .get();
    if (!asset || (inventoryId && asset.itemId !== inventoryId))
      throw new ApiError('bad_request', 'assetId is not an asset of the operator (or of inventoryId)', {
        details: [{ field: 'assetId', message: 'unknown asset' }],
      });
    inventoryId = asset.itemId;
  } else if (inventoryId) {
    const item = await ctx.db
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.id, inventoryId), eq(inventoryItems.customerId, customerId)))
      .get();
    if (!item) throw new ApiError('bad_request', 'Unknown inventoryId', { details: [{ field: 'inventoryId', message: 'unknown item' }] });
  }
  const key = `gpd_${randomString(40)}`;
  const row: DeviceRow = {
    id: newId('gpd'),
    customerId,
    locationId: input.locationId,
    deviceName: input.deviceName,
    inventoryId,
    assetId: input.assetId ?? null,
    keyHash: await sha256Hex(key),
    keyPrefix: key.slice(0, 8),
    status: 'active',
    lastLat: null,
    lastLng: null,
    lastAccuracy: null,
    lastFixAt: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  try {
    await commit(ctx, [ctx.db.insert(gpsDevices).values(row)], {
      audit: { action: 'gps.device_create', targetType: 'gps_device', targetId: row.id, details: { deviceName: row.deviceName, assetId: row.assetId } },
    });
  } catch (err) {
    if (/UNIQUE/i.test(String(err))) throw new ApiError('already_exists', `A device named ${input.deviceName} exists`);
    throw err;
  }
  return { ...deviceOut(row), deviceKey: key };
}

export async function listDevices(ctx: Ctx) {
  requirePermission(ctx, 'integrations');
  const rows = await ctx.db
    .select()
    .from(gpsDevices)
    .where(eq(gpsDevices.customerId, tenantOf(ctx)))
    .orderBy(asc(gpsDevices.deviceName))
    .all();
  return { data: rows.map(deviceOut) };
}

export async function deleteDevice(ctx: Ctx, deviceId: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const d = await ctx.db
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.id, deviceId), eq(gpsDevices.customerId, customerId)))
    .get();
  if (!d) throw notFound('GPS device');
  await commit(
    ctx,
    [
      ctx.db.delete(gpsFenceStates).where(and(eq(gpsFenceStates.deviceId, d.id), eq(gpsFenceStates.customerId, customerId))),
      ctx.db.delete(gpsDevices).where(and(eq(gpsDevices.id, d.id), eq(gpsDevices.customerId, customerId))),
    ],
    { audit: { action: 'gps.device_delete', targetType: 'gps_device', targetId: d.id } },
  );
  return { success: true, id: d.id };
}

export async function createGeofence(
  ctx: Ctx,
  input: {
    locationId: string;
    name: string;
    shape: 'circle' | 'polygon';
    center?: { lat: number; lng: number };
    radiusMeters?: number;
    points?: { lat: number; lng: number }[];
    isHome?: boolean;
  },
) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await locationInTenant(ctx, input.locationId);
  const row: FenceRow = {
    id: newId('gpf'),
    customerId,
    locationId: input.locationId,
    name: input.name,
    shape: input.shape,
    centerLat: input.center?.lat ?? null,
    centerLng: input.center?.lng ?? null,
    radiusMeters: input.radiusMeters ?? null,
    points: input.points ?? null,
    isHome: !!input.isHome,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
  };
  await commit(
    ctx,
    [
      // One home area per location.
      ...(row.isHome
        ? [
            ctx.db
              .update(gpsGeofences)
              .set({ isHome: false })
              .where(and(eq(gpsGeofences.customerId, customerId), eq(gpsGeofences.locationId, row.locationId))),
          ]
        : []),
      ctx.db.insert(gpsGeofences).values(row),
    ],
    { audit: { action: 'gps.geofence_create', targetType: 'gps_geofence', targetId: row.id, details: { shape: row.shape, isHome: row.isHome } } },
  );
  return fenceOut(row);
}

export async function listGeofences(ctx: Ctx, q: { locationId?: string }) {
  requirePermission(ctx, 'integrations');
  const rows = await ctx.db
    .select()
    .from(gpsGeofences)
    .where(and(eq(gpsGeofences.customerId, tenantOf(ctx)), q.locationId ? eq(gpsGeofences.locationId, q.locationId) : undefined))
    .orderBy(asc(gpsGeofences.createdAt))
    .all();
  return { data: rows.map(fenceOut) };
}

export async function deleteGeofence(ctx: Ctx, geofenceId: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const g = await ctx.db
    .select({ id: gpsGeofences.id })
    .from(gpsGeofences)
    .where(and(eq(gpsGeofences.id, geofenceId), eq(gpsGeofences.customerId, customerId)))
    .get();
  if (!g) throw notFound('Geofence');
  await commit(
    ctx,
    [
      ctx.db.delete(gpsFenceStates).where(and(eq(gpsFenceStates.geofenceId, g.id), eq(gpsFenceStates.customerId, customerId))),
      ctx.db.delete(gpsGeofences).where(and(eq(gpsGeofences.id, g.id), eq(gpsGeofences.customerId, customerId))),
    ],
    { audit: { action: 'gps.geofence_delete', targetType: 'gps_geofence', targetId: g.id } },
  );
  return { success: true, id: g.id };
}

const DEFAULTS = { autoReturn: false, maxAccuracyMeters: 50, overdueGraceMinutes: 15 };

export async function settingsOf(ctx: Ctx, customerId: string) {
  const s = await ctx.db.select().from(gpsSettings).where(eq(gpsSettings.customerId, customerId)).get();
  return s ? { autoReturn: s.autoReturn, maxAccuracyMeters: s.maxAccuracyMeters, overdueGraceMinutes: s.overdueGraceMinutes } : DEFAULTS;
}

export async function getSettings(ctx: Ctx) {
  requirePermission(ctx, 'integrations');
  return settingsOf(ctx, tenantOf(ctx));
}

export async function updateSettings(ctx: Ctx, input: { autoReturn?: boolean; maxAccuracyMeters?: number; overdueGraceMinutes?: number }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  const next = { ...(await settingsOf(ctx, customerId)), ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  await commit(
    ctx,
    [
      ctx.db
        .insert(gpsSettings)
        .values({ customerId, ...next })
        .onConflictDoUpdate({ target: gpsSettings.customerId, set: { ...next, updatedAt: new Date().toISOString() } }),
    ],
    { audit: { action: 'gps.settings', targetType: 'gps_settings', targetId: customerId, details: next } },
  );
  return next;
}
