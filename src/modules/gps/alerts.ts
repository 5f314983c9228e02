/** GPS alerts: firing (deduplicated per crossing or rental) and overdue returns (on ingest and every 5 minutes). */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { systemCtx } from '../../lib/context';
import { newId } from '../../lib/ids';
import type { Env } from '../../env';
import { gpsAlerts, gpsDevices, gpsFenceStates } from '../../db/schema/gps';
import { homeAreaOf, rentalsOut, settingsOf } from './queries';
import type { AlertRow, DeviceRow } from './views';

/** An alert row (written by the caller, in its batch). */
export function fireAlert(
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
  const home = await homeAreaOf(ctx, device.customerId, device.locationId);
  if (home) {
    const st = await ctx.db
      .select({ state: gpsFenceStates.state })
      .from(gpsFenceStates)
      .where(and(eq(gpsFenceStates.deviceId, device.id), eq(gpsFenceStates.geofenceId, home), eq(gpsFenceStates.customerId, device.customerId)))
      .get();
    if (st?.state === 'inside') return [];
  }
  const out: AlertRow[] = [];
  for (const r of late) {
    const a = fireAlert(device, {
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
