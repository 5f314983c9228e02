/** GPS alerts: firing (deduplicated per crossing or rental) and overdue returns (on ingest and every 5 minutes). */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { systemCtxFor } from '../../lib/context';
import { nowIso, nowMs } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { inJobScope } from '../../lib/job-scope';
import { gpsAlerts, gpsDevices, gpsFenceStates } from '../../db/schema/gps';
import { homeAreaOf, rentalsOut, settingsOf, SETTINGS_DEFAULTS } from './queries';
import type { AlertRow, DeviceRow } from './views';

/** An alert row (written by the caller, in its batch), created at the context's "now". */
export function fireAlert(
  ctx: Ctx,
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
    createdAt: nowIso(ctx),
  };
}

/**
 * A boat still out (not confirmed inside its home area) after its rental's end plus the grace
 * period raises one `overdue_return` alert per rental.
 */
export async function checkOverdue(ctx: Ctx, device: DeviceRow, settings: { overdueGraceMinutes: number }): Promise<AlertRow[]> {
  if (!device.assetId) return [];
  const now = nowMs(ctx);
  const late = (await rentalsOut(ctx, device.customerId, device.assetId)).filter((r) => r.end + settings.overdueGraceMinutes * 60_000 < now);
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

/** Cron (every 5 minutes): overdue returns of every tracked boat of the operators in scope, whether or not it reports. */
export async function overdueSweep(ctx: Ctx) {
  const devices = await ctx.db
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.status, 'active'), isNotNull(gpsDevices.assetId), inJobScope(ctx, gpsDevices.customerId)))
    .limit(1000)
    .all();
  let fired = 0;
  for (const d of devices) {
    const octx = systemCtxFor(ctx, d.customerId);
    fired += (await checkOverdue(octx, d, await settingsOf(octx, d.customerId))).length;
  }
  return { devices: devices.length, fired };
}

/**
 * The sweep's next due instant: the first moment after "now" at which a checked-in rental of a
 * tracked boat is past its end plus the operator's grace period (`checkOverdue` fires strictly after).
 */
export async function nextOverdueDue(ctx: Ctx): Promise<number | null> {
  const now = nowMs(ctx);
  const row = await ctx.db.get<{ due: number | null }>(sql`
    SELECT min(b."end" + coalesce(s.overdue_grace_minutes, ${SETTINGS_DEFAULTS.overdueGraceMinutes}) * 60000 + 1) AS due
    FROM gps_devices
    JOIN bookings b ON b.customer_id = gps_devices.customer_id AND b.status = 'checked_in'
      AND EXISTS (SELECT 1 FROM json_each(b.asset_ids) j WHERE j.value = gps_devices.asset_id)
    LEFT JOIN gps_settings s ON s.customer_id = gps_devices.customer_id
    WHERE gps_devices.status = 'active' AND gps_devices.asset_id IS NOT NULL AND ${inJobScope(ctx, gpsDevices.customerId)}
      AND b."end" + coalesce(s.overdue_grace_minutes, ${SETTINGS_DEFAULTS.overdueGraceMinutes}) * 60000 + 1 > ${now}`);
  return row?.due == null ? null : Number(row.due);
}
