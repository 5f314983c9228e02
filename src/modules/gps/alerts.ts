/** GPS alerts: firing (deduplicated per crossing or rental), overdue returns, and the reads. */
import { and, desc, eq, gte, isNotNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, systemCtx, tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Env } from '../../env';
import { gpsAlerts, gpsDevices, gpsFenceStates, gpsGeofences } from '../../db/schema/gps';
import { rentalsOut } from './rentals';
import { settingsOf } from './setup';

export type AlertRow = typeof gpsAlerts.$inferSelect;
type DeviceRow = typeof gpsDevices.$inferSelect;

export const alertOut = (a: AlertRow) => ({
  alertId: a.id,
  type: a.type,
  locationId: a.locationId,
  deviceId: a.deviceId,
  deviceName: a.deviceName,
  geofenceId: a.geofenceId,
  rentalId: a.rentalId,
  lat: a.lat,
  lng: a.lng,
  accuracyMeters: a.accuracyMeters,
  message: a.message,
  createdAt: a.createdAt,
});

export function fireAlert(
  _ctx: Ctx,
  device: DeviceRow,
  a: {
    type: AlertRow['type'];
    geofenceId?: string;
    rentalId?: string;
    fix?: { lat: number; lng: number; accuracy?: number } | null;
    message: string;
    dedupeKey: string;
  },
): AlertRow {
  return {
    id: newId('gal'),
    customerId: device.customerId,
    locationId: device.locationId,
    deviceId: device.id,
    deviceName: device.deviceName,
    type: a.type,
    geofenceId: a.geofenceId ?? null,
    rentalId: a.rentalId ?? null,
    lat: a.fix?.lat ?? null,
    lng: a.fix?.lng ?? null,
    accuracyMeters: a.fix?.accuracy ?? null,
    message: a.message,
    dedupeKey: a.dedupeKey,
    details: null,
    createdAt: new Date().toISOString(),
  };
}

/**
 * A boat still out (not confirmed inside its home area) after its rental's end plus the grace
 * period raises one `overdue_return` alert per rental.
 */
export async function checkOverdue(ctx: Ctx, device: DeviceRow, settings: { overdueGraceMinutes: number }): Promise<AlertRow[]> {
  if (!device.assetId) return [];
  const now = Date.now();
  const late = (await rentalsOut(ctx, device.customerId, device.assetId, now)).filter((r) => r.end + settings.overdueGraceMinutes * 60_000 < now);
  if (!late.length) return [];
  const home = await ctx.db
    .select({ id: gpsGeofences.id })
    .from(gpsGeofences)
    .where(and(eq(gpsGeofences.customerId, device.customerId), eq(gpsGeofences.locationId, device.locationId), eq(gpsGeofences.isHome, true)))
    .get();
  if (home) {
    const st = await ctx.db
      .select({ state: gpsFenceStates.state })
      .from(gpsFenceStates)
      .where(and(eq(gpsFenceStates.deviceId, device.id), eq(gpsFenceStates.geofenceId, home.id)))
      .get();
    if (st?.state === 'inside') return [];
  }
  const out: AlertRow[] = [];
  for (const r of late) {
    const a = fireAlert(ctx, device, {
      type: 'overdue_return',
      rentalId: r.rentalId,
      fix: device.lastLat != null && device.lastLng != null ? { lat: device.lastLat, lng: device.lastLng, accuracy: device.lastAccuracy ?? undefined } : null,
      message: `${device.deviceName} is overdue: rental ${r.rentalId} ended ${Math.round((now - r.end) / 60_000)} minutes ago`,
      dedupeKey: `overdue:${r.rentalId}`,
    });
    const res = await ctx.db.insert(gpsAlerts).values(a).onConflictDoNothing().run();
    if (res.meta.changes) out.push(a);
  }
  return out;
}

/** Cron (every 5 minutes): overdue returns of every tracked boat, whether or not it reports. */
export async function overdueSweep(env: Env) {
  const base = systemCtx(env);
  const devices = await base.db
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.status, 'active'), isNotNull(gpsDevices.assetId)))
    .limit(1000)
    .all();
  let fired = 0;
  for (const d of devices) {
    const ctx = systemCtx(env, { customerId: d.customerId, requestId: base.requestId });
    fired += (await checkOverdue(ctx, d, await settingsOf(ctx, d.customerId))).length;
  }
  return { devices: devices.length, fired };
}

const since = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** GET /integrations/alerts */
export async function listAlerts(ctx: Ctx, q: { minutes: number; limit: number; locationId?: string }) {
  requirePermission(ctx, 'integrations');
  const from = since(q.minutes);
  const rows = await ctx.db
    .select()
    .from(gpsAlerts)
    .where(and(eq(gpsAlerts.customerId, tenantOf(ctx)), gte(gpsAlerts.createdAt, from), q.locationId ? eq(gpsAlerts.locationId, q.locationId) : undefined))
    .orderBy(desc(gpsAlerts.createdAt))
    .limit(q.limit)
    .all();
  return { data: rows.map(alertOut), since: from, limit: q.limit };
}

/** GET /integrations/device-alerts/{deviceName} */
export async function deviceAlerts(ctx: Ctx, deviceName: string, q: { minutes: number; limit: number }) {
  requirePermission(ctx, 'integrations');
  const customerId = tenantOf(ctx);
  const device = await ctx.db
    .select({ id: gpsDevices.id })
    .from(gpsDevices)
    .where(and(eq(gpsDevices.customerId, customerId), eq(gpsDevices.deviceName, deviceName)))
    .get();
  if (!device) throw notFound('GPS device');
  const from = since(q.minutes);
  const rows = await ctx.db
    .select()
    .from(gpsAlerts)
    .where(and(eq(gpsAlerts.customerId, customerId), eq(gpsAlerts.deviceId, device.id), gte(gpsAlerts.createdAt, from)))
    .orderBy(desc(gpsAlerts.createdAt))
    .limit(q.limit)
    .all();
  return { data: rows.map(alertOut), since: from, limit: q.limit };
}

/** GET /integrations/alert-summary: counts per device and type over the last `hours`. */
export async function alertSummary(ctx: Ctx, q: { hours: number }) {
  requirePermission(ctx, 'integrations');
  const from = since(q.hours * 60);
  const rows = await ctx.db
    .select({ deviceId: gpsAlerts.deviceId, deviceName: gpsAlerts.deviceName, type: gpsAlerts.type, createdAt: gpsAlerts.createdAt })
    .from(gpsAlerts)
    .where(and(eq(gpsAlerts.customerId, tenantOf(ctx)), gte(gpsAlerts.createdAt, from)))
    .all();
  const by = new Map<string, { deviceName: string; deviceId: string; total: number; byType: Record<AlertRow['type'], number>; lastAlertAt: string }>();
  for (const r of rows) {
    const d = by.get(r.deviceId) ?? {
      deviceName: r.deviceName,
      deviceId: r.deviceId,
      total: 0,
      byType: { geofence_exit: 0, overdue_return: 0, auto_returned: 0 },
      lastAlertAt: r.createdAt,
    };
    d.total++;
    d.byType[r.type]++;
    if (r.createdAt > d.lastAlertAt) d.lastAlertAt = r.createdAt;
    by.set(r.deviceId, d);
  }
  return { hours: q.hours, since: from, devices: [...by.values()].sort((a, b) => b.total - a.total || a.deviceName.localeCompare(b.deviceName)) };
}
