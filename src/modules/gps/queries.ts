/** Tenant-scoped reads of the GPS integration: settings, home areas, devices, alerts, and the rentals a boat is out on. */
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { fromNowIso, nowMs } from '../../lib/clock';
import { gpsAlerts, gpsDevices, gpsHomeAreas, gpsSettings } from '../../db/schema/gps';
import { bookings } from '../../db/schema/bookings';
import { fencesOf } from '../geofences/service';
import { alertOut, deviceOut, homeAreaOut, type AlertRow, type DeviceRow } from './views';

export const SETTINGS_DEFAULTS = { autoReturn: false, maxAccuracyMeters: 50, overdueGraceMinutes: 15 };

export async function settingsOf(ctx: Ctx, customerId: string) {
  const s = await ctx.db.select().from(gpsSettings).where(eq(gpsSettings.customerId, customerId)).get();
  return s ? { autoReturn: s.autoReturn, maxAccuracyMeters: s.maxAccuracyMeters, overdueGraceMinutes: s.overdueGraceMinutes } : SETTINGS_DEFAULTS;
}

/** The geofence id of a location's home area, or null when none is set. */
export async function homeAreaOf(ctx: Ctx, customerId: string, locationId: string): Promise<string | null> {
  const h = await ctx.db
    .select({ geofenceId: gpsHomeAreas.geofenceId })
    .from(gpsHomeAreas)
    .where(and(eq(gpsHomeAreas.customerId, customerId), eq(gpsHomeAreas.locationId, locationId)))
    .get();
  return h?.geofenceId ?? null;
}

export async function deviceInTenant(ctx: Ctx, deviceId: string): Promise<DeviceRow> {
  const d = await ctx.db
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.id, deviceId), eq(gpsDevices.customerId, tenantOf(ctx))))
    .get();
  if (!d) throw notFound('GPS device');
  return d;
}

/** GET /integrations/gps/devices */
export async function listDevices(ctx: Ctx, q: { limit: number; offset: number }) {
  requirePermission(ctx, 'integrations');
  const where = eq(gpsDevices.customerId, tenantOf(ctx));
  const [rows, total] = await Promise.all([
    ctx.db.select().from(gpsDevices).where(where).orderBy(asc(gpsDevices.deviceName)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(gpsDevices).where(where).get(),
  ]);
  return { data: rows.map(deviceOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

/** GET /integrations/gps/home-areas: home areas whose geofence still exists, by location. */
export async function listHomeAreas(ctx: Ctx, q: { limit: number; offset: number }) {
  requirePermission(ctx, 'integrations');
  const customerId = tenantOf(ctx);
  const [areas, fences] = await Promise.all([
    ctx.db.select().from(gpsHomeAreas).where(eq(gpsHomeAreas.customerId, customerId)).orderBy(asc(gpsHomeAreas.locationId)).all(),
    fencesOf(ctx, customerId),
  ]);
  const byId = new Map(fences.map((f) => [f.id, f]));
  const live = areas.flatMap((a) => {
    const f = byId.get(a.geofenceId);
    return f && f.locationId === a.locationId ? [homeAreaOut({ locationId: a.locationId, geofenceId: f.id, name: f.name, updatedAt: a.updatedAt })] : [];
  });
  return { data: live.slice(q.offset, q.offset + q.limit), total: live.length, limit: q.limit, offset: q.offset };
}

export interface OutRental {
  rentalId: string;
  start: number;
  end: number;
  status: string;
}

/** Checked-in rentals of an asset that started by the context's "now". */
export async function rentalsOut(ctx: Ctx, customerId: string, assetId: string): Promise<OutRental[]> {
  const now = nowMs(ctx);
  const rows = await ctx.db
    .select({ id: bookings.id, start: bookings.start, end: bookings.end, status: bookings.status, assetIds: bookings.assetIds })
    .from(bookings)
    .where(
      and(
        eq(bookings.customerId, customerId),
        inArray(bookings.status, ['checked_in']),
        lte(bookings.start, now),
        sql`${bookings.assetIds} LIKE ${`%${JSON.stringify(assetId)}%`}`,
      ),
    )
    .all();
  return rows.filter((r) => (r.assetIds ?? []).includes(assetId)).map((r) => ({ rentalId: r.id, start: r.start, end: r.end, status: r.status }));
}

const since = (ctx: Ctx, minutes: number) => fromNowIso(ctx, -minutes * 60_000);

/** GET /integrations/alerts */
export async function listAlerts(ctx: Ctx, q: { minutes: number; limit: number; locationId?: string }) {
  requirePermission(ctx, 'integrations');
  const from = since(ctx, q.minutes);
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
  const from = since(ctx, q.minutes);
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
  const from = since(ctx, q.hours * 60);
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
