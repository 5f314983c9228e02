/** GPS devices (with their key), home areas and settings of an operator. */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requireAdmin, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { nowIso } from '../../lib/clock';
import { ApiError, notFound, isUniqueViolation } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { gpsDevices, gpsFenceStates, gpsHomeAreas, gpsSettings } from '../../db/schema/gps';
import { getLocationInTenant } from '../locations/service';
import { getAssetsInTenant, getItemInTenant } from '../inventory/service';
import { getGeofence } from '../geofences/service';
import { deviceInTenant, homeAreaOf, settingsOf } from './queries';
import { deviceOut, homeAreaOut, type DeviceRow } from './views';

export async function createDevice(ctx: Ctx, input: { locationId: string; deviceName: string; inventoryId?: string; assetId?: string }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  let inventoryId = input.inventoryId ?? null;
  if (input.assetId) {
    const [asset] = await getAssetsInTenant(ctx, [input.assetId]);
    if (!asset || (inventoryId && asset.itemId !== inventoryId) || asset.locationId !== input.locationId)
      throw new ApiError('bad_request', 'assetId is not an asset of the operator at this location (or of inventoryId)', {
        details: [{ field: 'assetId', message: 'unknown asset, or an asset of another location or item' }],
      });
    inventoryId = asset.itemId;
  } else if (inventoryId) {
    const item = await getItemInTenant(ctx, inventoryId).catch(() => null);
    if (!item) throw new ApiError('bad_request', 'Unknown inventoryId', { details: [{ field: 'inventoryId', message: 'unknown item' }] });
  }
  const key = `gpd_${randomString(40)}`;
  const now = nowIso(ctx);
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
    createdAt: now,
    updatedAt: now,
  };
  try {
    await commit(ctx, [ctx.db.insert(gpsDevices).values(row)], {
      audit: { action: 'gps.device_create', targetType: 'gps_device', targetId: row.id, details: { deviceName: row.deviceName, assetId: row.assetId } },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', `A device named ${input.deviceName} exists`);
    throw err;
  }
  return { ...deviceOut(row), deviceKey: key };
}

export async function deleteDevice(ctx: Ctx, deviceId: string) {
  requireAdmin(ctx);
  const d = await deviceInTenant(ctx, deviceId);
  await commit(
    ctx,
    [
      ctx.db.delete(gpsFenceStates).where(and(eq(gpsFenceStates.deviceId, d.id), eq(gpsFenceStates.customerId, d.customerId))),
      ctx.db.delete(gpsDevices).where(and(eq(gpsDevices.id, d.id), eq(gpsDevices.customerId, d.customerId))),
    ],
    { audit: { action: 'gps.device_delete', targetType: 'gps_device', targetId: d.id } },
  );
  return { success: true, id: d.id };
}

/** PUT /integrations/gps/home-areas/{locationId}: one of the location's geofences becomes its home area (replacing the previous one). */
export async function setHomeArea(ctx: Ctx, locationId: string, input: { geofenceId: string }) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  const fence = await getGeofence(ctx, input.geofenceId);
  if (fence.locationId !== locationId)
    throw new ApiError('bad_request', 'The geofence belongs to another location', {
      details: [{ field: 'geofenceId', message: 'not a geofence of this location' }],
    });
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .insert(gpsHomeAreas)
        .values({ customerId, locationId, geofenceId: fence.geofenceId, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: [gpsHomeAreas.customerId, gpsHomeAreas.locationId], set: { geofenceId: fence.geofenceId, updatedAt: now } }),
    ],
    { audit: { action: 'gps.home_area_set', targetType: 'location', targetId: locationId, details: { geofenceId: fence.geofenceId } } },
  );
  return homeAreaOut({ locationId, geofenceId: fence.geofenceId, name: fence.name, updatedAt: now });
}

/** DELETE /integrations/gps/home-areas/{locationId}: the location has no home area any more (no auto-return, overdue from the rental's end only). */
export async function deleteHomeArea(ctx: Ctx, locationId: string) {
  requireAdmin(ctx);
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, locationId);
  if (!(await homeAreaOf(ctx, customerId, locationId))) throw notFound('Home area');
  await commit(ctx, [ctx.db.delete(gpsHomeAreas).where(and(eq(gpsHomeAreas.customerId, customerId), eq(gpsHomeAreas.locationId, locationId)))], {
    audit: { action: 'gps.home_area_delete', targetType: 'location', targetId: locationId },
  });
  return { success: true, id: locationId };
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
        .onConflictDoUpdate({ target: gpsSettings.customerId, set: { ...next, updatedAt: nowIso(ctx) } }),
    ],
    { audit: { action: 'gps.settings', targetType: 'gps_settings', targetId: customerId, details: next } },
  );
  return next;
}
