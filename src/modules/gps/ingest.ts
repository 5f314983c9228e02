/**
 * Position reports of a device. Fixes are applied in time order (older than the last one applied:
 * stored, no effect). For each geofence of the device's location (the `geofences` resource) a fix is inside, outside (its
 * whole accuracy circle out) or uncertain; a fix less accurate than `maxAccuracyMeters` (or
 * without accuracy) decides nothing. A crossing needs two consecutive accurate fixes on the other
 * side: then a geofence exit fires an alert (once per crossing), and a return inside the home
 * area, with auto-return on, marks the boat's checked-in rental returned (`booking.checked_out`).
 * The newest fix also becomes the boat's last known position (asset positions, source `gps`).
 * The state per device and geofence is written with a compare-and-swap, so two overlapping
 * reports cannot both flip it.
 */
import { and, eq, lt, or, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowMs } from '../../lib/clock';
import type { Stmt } from '../../db/client';
import { gpsAlerts, gpsDevices, gpsFenceStates, gpsFixes } from '../../db/schema/gps';
import { assetPositionUpsert, fencesOf } from '../geofences/service';
import { sideOf } from './geometry';
import { homeAreaOf, rentalsOut, settingsOf } from './queries';
import { fireAlert, checkOverdue } from './alerts';
import { alertOut, type AlertRow } from './views';
import { checkOutBooking } from '../bookings/service';

type FenceState = typeof gpsFenceStates.$inferSelect;

export interface Fix {
  lat: number;
  lng: number;
  accuracy?: number;
  recordedAt?: string;
  speed?: number;
  heading?: number;
}

/** Consecutive accurate fixes needed to confirm a crossing. */
export const CONFIRMING_FIXES = 2;

type Device = typeof gpsDevices.$inferSelect;
type Fence = Awaited<ReturnType<typeof fencesOf>>[number];
type Settings = Awaited<ReturnType<typeof settingsOf>>;
type TimedFix = Fix & { at: number };

async function loadReportingDevice(ctx: Ctx, customerId: string, deviceId: string): Promise<Device> {
  const device = await ctx.db
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.id, deviceId), eq(gpsDevices.customerId, customerId)))
    .get();
  if (!device) throw new ApiError('unauthenticated', 'The device was removed');
  return device;
}

async function loadFenceStates(ctx: Ctx, customerId: string, deviceId: string): Promise<Map<string, FenceState>> {
  const states = new Map<string, FenceState>();
  for (const s of await ctx.db
    .select()
    .from(gpsFenceStates)
    .where(and(eq(gpsFenceStates.deviceId, deviceId), eq(gpsFenceStates.customerId, customerId)))
    .all())
    states.set(s.geofenceId, s);
  return states;
}

/** Fixes in time order; fixes dated more than a minute ahead (a device clock gone wrong) are dropped. */
function orderedFixes(fixes: Fix[], now: number): TimedFix[] {
  return fixes
    .map((f) => ({ ...f, at: f.recordedAt ? Date.parse(f.recordedAt) : now }))
    .filter((f) => f.at <= now + 60_000)
    .sort((a, b) => a.at - b.at);
}

function fixInsert(ctx: Ctx, customerId: string, device: Device, f: TimedFix): Stmt {
  return ctx.db.insert(gpsFixes).values({
    id: newId('gfx'),
    customerId,
    deviceId: device.id,
    lat: f.lat,
    lng: f.lng,
    accuracyMeters: f.accuracy ?? null,
    speedMps: f.speed ?? null,
    heading: f.heading ?? null,
    recordedAt: f.at,
  });
}

/**
 * Applies one accurate fix to the state of every geofence: a crossing confirmed by enough
 * consecutive fixes fires an exit alert, or records a return inside the home area.
 */
function applyFixToFences(
  ctx: Ctx,
  customerId: string,
  device: Device,
  fences: Fence[],
  homeId: Awaited<ReturnType<typeof homeAreaOf>>,
  states: Map<string, FenceState>,
  f: TimedFix,
  accuracy: number,
  alerts: AlertRow[],
  returnedHome: number[],
) {
  for (const fence of fences) {
    const side = sideOf(fence, f, accuracy);
    const cur = states.get(fence.id);
    if (!cur) {
      if (side !== 'uncertain') states.set(fence.id, { deviceId: device.id, geofenceId: fence.id, customerId, state: side, streak: 0, changedAt: f.at });
      continue;
    }
    if (side === 'uncertain' || side === cur.state) {
      cur.streak = 0;
      continue;
    }
    cur.streak++;
    if (cur.streak < CONFIRMING_FIXES) continue;
    const from = cur.state;
    cur.state = side;
    cur.streak = 0;
    cur.changedAt = f.at;
    if (from === 'inside' && side === 'outside') {
      alerts.push(
        fireAlert(ctx, device, {
          type: 'geofence_exit',
          geofenceId: fence.id,
          fix: f,
          message: `${device.deviceName} left ${fence.name}`,
          dedupeKey: `exit:${device.id}:${fence.id}:${f.at}`,
        }),
      );
    } else if (fence.id === homeId && side === 'inside') {
      returnedHome.push(f.at);
    }
  }
}

/** State changes: compare-and-swap against what was read, so a concurrent report cannot flip a state twice. */
function fenceStateStatements(ctx: Ctx, device: Device, states: Map<string, FenceState>, original: Map<string, FenceState>): Stmt[] {
  const stmts: Stmt[] = [];
  for (const [fenceId, s] of states) {
    const before = original.get(fenceId);
    if (!before) {
      stmts.push(ctx.db.insert(gpsFenceStates).values(s).onConflictDoNothing());
    } else if (before.state !== s.state || before.streak !== s.streak || before.changedAt !== s.changedAt) {
      stmts.push(
        ctx.db
          .update(gpsFenceStates)
          .set({ state: s.state, streak: s.streak, changedAt: s.changedAt })
          .where(
            and(
              eq(gpsFenceStates.deviceId, device.id),
              eq(gpsFenceStates.geofenceId, fenceId),
              eq(gpsFenceStates.state, before.state),
              eq(gpsFenceStates.streak, before.streak),
              eq(gpsFenceStates.changedAt, before.changedAt),
            ),
          ),
      );
    }
  }
  return stmts;
}

/** The device's (and the boat's) last known position, unless a newer one is known. */
function lastPositionStatements(ctx: Ctx, customerId: string, device: Device, last: TimedFix): Stmt[] {
  const stmts: Stmt[] = [
    ctx.db
      .update(gpsDevices)
      .set({ lastLat: last.lat, lastLng: last.lng, lastAccuracy: last.accuracy ?? null, lastFixAt: last.at })
      .where(and(eq(gpsDevices.id, device.id), eq(gpsDevices.customerId, customerId), or(isNull(gpsDevices.lastFixAt), lt(gpsDevices.lastFixAt, last.at)))),
  ];
  // The boat's last known position on the live map (asset positions, source `gps`), unless a newer one is known.
  if (device.assetId && device.inventoryId)
    stmts.push(
      assetPositionUpsert(
        ctx,
        customerId,
        { id: device.assetId, itemId: device.inventoryId, locationId: device.locationId },
        {
          lat: last.lat,
          lng: last.lng,
          accuracyMeters: last.accuracy,
          heading: last.heading,
          speedMps: last.speed,
          recordedAt: new Date(last.at).toISOString(),
          source: 'gps',
        },
      ),
    );
  return stmts;
}

/** Marks the boat's checked-in rentals returned; each return also records an `auto_returned` alert. */
async function autoReturnRentals(ctx: Ctx, customerId: string, device: Device, assetId: string, last: TimedFix, alerts: AlertRow[]): Promise<string[]> {
  const returnedRentalIds: string[] = [];
  for (const r of await rentalsOut(ctx, customerId, assetId)) {
    const dedupeKey = `returned:${r.rentalId}`;
    try {
      // Returned through the booking service: booking.checked_out (and booking.status_changed) fire like a return at the counter.
      await checkOutBooking(ctx, r.rentalId, { notes: `Returned automatically: ${device.deviceName} is back inside the home area` });
    } catch (err) {
      // Returned at the counter meanwhile (or not checked in any more): nothing to do.
      if (err instanceof ApiError && err.status < 500) continue;
      throw err;
    }
    returnedRentalIds.push(r.rentalId);
    const a = fireAlert(ctx, device, {
      type: 'auto_returned',
      rentalId: r.rentalId,
      fix: last,
      message: `${device.deviceName} is back: rental ${r.rentalId} marked returned`,
      dedupeKey,
    });
    await ctx.db.insert(gpsAlerts).values(a).onConflictDoNothing();
    alerts.push(a);
  }
  return returnedRentalIds;
}

export async function ingest(ctx: Ctx, input: { fixes: Fix[] }) {
  const customerId = tenantOf(ctx);
  const device = await loadReportingDevice(ctx, customerId, ctx.principal.subject!);
  const settings: Settings = await settingsOf(ctx, customerId);
  const [fences, homeId] = await Promise.all([fencesOf(ctx, customerId, device.locationId), homeAreaOf(ctx, customerId, device.locationId)]);
  const states = await loadFenceStates(ctx, customerId, device.id);
  const original = new Map([...states].map(([k, v]) => [k, { ...v }]));

  const fixes = orderedFixes(input.fixes, nowMs(ctx));
  let lastAt = device.lastFixAt ?? 0;
  let last: TimedFix | null = null;
  let ignoredOlder = 0;
  const stmts: Stmt[] = [];
  const alerts: AlertRow[] = [];
  const returnedHome: number[] = [];

  for (const f of fixes) {
    stmts.push(fixInsert(ctx, customerId, device, f));
    if (f.at <= lastAt) {
      ignoredOlder++;
      continue;
    }
    lastAt = f.at;
    last = f;
    if (f.accuracy == null || f.accuracy > settings.maxAccuracyMeters) continue;
    applyFixToFences(ctx, customerId, device, fences, homeId, states, f, f.accuracy, alerts, returnedHome);
  }

  stmts.push(...fenceStateStatements(ctx, device, states, original));
  if (last) stmts.push(...lastPositionStatements(ctx, customerId, device, last));
  for (const a of alerts) stmts.push(ctx.db.insert(gpsAlerts).values(a).onConflictDoNothing());
  for (let i = 0; i < stmts.length; i += 50) await ctx.db.batch(stmts.slice(i, i + 50) as [Stmt, ...Stmt[]]);

  const returnedRentalIds: string[] = [];
  if (returnedHome.length && settings.autoReturn && device.assetId)
    returnedRentalIds.push(...(await autoReturnRentals(ctx, customerId, device, device.assetId, last!, alerts)));
  if (device.assetId)
    alerts.push(...(await checkOverdue(ctx, { ...device, lastLat: last?.lat ?? device.lastLat, lastLng: last?.lng ?? device.lastLng }, settings)));
  return { deviceId: device.id, accepted: fixes.length, ignoredOlder, alerts: alerts.map(alertOut), returnedRentalIds };
}
