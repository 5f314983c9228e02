/**
 * GPS alerts through HTTP: device keys, home areas among the location's geofences, geofence exits
 * that need accuracy and two consecutive fixes, overdue returns, automatic returns firing
 * booking.checked_out, the alert reads, and the boat's position on the live map.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, createOperator, del, eventually, expectError, get, post, put, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, eventsOf, rentalItem, type TestItem } from '../bookings/factories';

const HOME = { lat: 25.7743, lng: -80.1937 };
/** A point `meters` north of home. */
const north = (meters: number) => ({ lat: HOME.lat + meters / 111_320, lng: HOME.lng });
const dev = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
let clock = Date.now() - 3_600_000;
const fix = (p: { lat: number; lng: number }, accuracy: number | null = 10) => ({
  ...p,
  ...(accuracy !== null ? { accuracy } : {}),
  recordedAt: new Date((clock += 10_000)).toISOString(),
});

async function setup(op: Operator, item: TestItem, name = 'tracker-1') {
  const fence = await post(
    '/geofences',
    { locationId: op.locationId, name: 'Marina basin', shape: 'circle', center: HOME, radiusMeters: 200 },
    { key: op.adminKey },
  );
  expect(fence.status, fence.text).toBe(201);
  const home = await put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: fence.body.geofenceId }, { key: op.adminKey });
  expect(home.status, home.text).toBe(200);
  const bay = await post(
    '/geofences',
    {
      locationId: op.locationId,
      name: 'Bay (allowed area)',
      shape: 'polygon',
      points: [
        { lat: north(-3000).lat, lng: HOME.lng - 0.05 },
        { lat: north(-3000).lat, lng: HOME.lng + 0.05 },
        { lat: north(3000).lat, lng: HOME.lng + 0.05 },
        { lat: north(3000).lat, lng: HOME.lng - 0.05 },
      ],
    },
    { key: op.adminKey },
  );
  expect(bay.status, bay.text).toBe(201);
  const d = await post('/integrations/gps/devices', { locationId: op.locationId, deviceName: name, assetId: item.assetIds[0] }, { key: op.adminKey });
  expect(d.status, d.text).toBe(201);
  return { device: d.body, key: d.body.deviceKey as string, homeId: fence.body.geofenceId as string, bayId: bay.body.geofenceId as string };
}

async function secondLocation(op: Operator, name: string) {
  const r = await post('/location', { name, address: '1 Harbour Road, Key West, FL', phoneNumber: '+13055550199', timezone: 'UTC' }, { key: op.adminKey });
  expect(r.status, r.text).toBe(200);
  return r;
}

const send = (key: string, fixes: unknown[]) => post('/integrations/gps/ingest', { fixes }, dev(key));

describe('GPS: security', () => {
  it('operator routes refuse anonymous, bad credentials and other operators; device keys authenticate ingest', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const { key, device, homeId } = await setup(op, item);
    const routes = [
      { method: 'GET', path: '/integrations/alerts?minutes=60&limit=10', adminOnly: true },
      { method: 'GET', path: '/integrations/device-alerts/tracker-1', otherStatus: 404 as const, adminOnly: true },
      { method: 'GET', path: '/integrations/alert-summary?hours=24', adminOnly: true },
      { method: 'POST', path: '/integrations/gps/devices', body: { locationId: op.locationId, deviceName: 'x' }, otherStatus: 404 as const, adminOnly: true },
      { method: 'GET', path: '/integrations/gps/devices', adminOnly: true },
      { method: 'DELETE', path: `/integrations/gps/devices/${device.deviceId}`, otherStatus: 404 as const, adminOnly: true },
      { method: 'GET', path: '/integrations/gps/home-areas', adminOnly: true },
      {
        method: 'PUT',
        path: `/integrations/gps/home-areas/${op.locationId}`,
        body: { geofenceId: homeId },
        otherStatus: 404 as const,
        adminOnly: true,
      },
      { method: 'DELETE', path: `/integrations/gps/home-areas/${op.locationId}`, otherStatus: 404 as const, adminOnly: true },
      { method: 'GET', path: '/integrations/gps/settings', adminOnly: true },
      { method: 'PUT', path: '/integrations/gps/settings', body: { autoReturn: true }, adminOnly: true },
    ];
    for (const rc of routes) await checkSecurity(op, rc);
    expectError(await post('/integrations/gps/ingest', { fixes: [fix(HOME)] }), 401, 'missing_device_key');
    expectError(await post('/integrations/gps/ingest', { fixes: [fix(HOME)] }, dev('gpd_not_a_key')), 401, 'invalid_device_key');
    // The body is validated before the key.
    expectError(await post('/integrations/gps/ingest', { fixes: [] }), 400, 'validation_failed');
    expectError(await post('/integrations/gps/ingest', { fixes: [{ lat: 200, lng: 0 }] }, dev(key)), 400, 'validation_failed');
    expect((await post('/integrations/gps/ingest', { fixes: [fix(HOME)] }, { headers: { 'x-device-key': key } })).status).toBe(200);
    expectError(await post('/integrations/gps/devices', { locationId: op.locationId, deviceName: 'tracker-1' }, { key: op.adminKey }), 409, 'already_exists');
    // A tracker's boat is an asset of its location.
    const elsewhere = await secondLocation(op, 'Elsewhere');
    expectError(
      await post('/integrations/gps/devices', { locationId: elsewhere.body.locationId, deviceName: 'x', assetId: item.assetIds[0] }, { key: op.adminKey }),
      400,
    );
    await del(`/integrations/gps/devices/${device.deviceId}`, undefined, { key: op.adminKey });
    expectError(await send(key, [fix(HOME)]), 401, 'invalid_device_key');
  });

  it('home areas: a geofence of the location (400 for another location, 404 unknown), replaced, removed, and gone with its geofence', async () => {
    const op = await createOperator();
    const a = { key: op.adminKey };
    const basin = (await post('/geofences', { locationId: op.locationId, name: 'Basin', shape: 'circle', center: HOME, radiusMeters: 100 }, a)).body;
    const dock = (await post('/geofences', { locationId: op.locationId, name: 'Dock', shape: 'circle', center: HOME, radiusMeters: 30 }, a)).body;
    const other = await secondLocation(op, 'Second marina');
    const far = (await post('/geofences', { locationId: other.body.locationId, name: 'Far', shape: 'circle', center: north(9000), radiusMeters: 100 }, a)).body;
    expectError(await put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: far.geofenceId }, a), 400);
    expectError(await put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: 'gfn_01J00000000000000000000000' }, a), 404);
    expectError(await put(`/integrations/gps/home-areas/loc_01J00000000000000000000000`, { geofenceId: basin.geofenceId }, a), 404);
    expectError(await del(`/integrations/gps/home-areas/${op.locationId}`, undefined, a), 404);
    const set = await put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: basin.geofenceId }, a);
    expect(set.body).toMatchObject({ locationId: op.locationId, geofenceId: basin.geofenceId, name: 'Basin' });
    await put(`/integrations/gps/home-areas/${op.locationId}`, { geofenceId: dock.geofenceId }, a);
    await put(`/integrations/gps/home-areas/${other.body.locationId}`, { geofenceId: far.geofenceId }, a);
    const list = await get('/integrations/gps/home-areas', a);
    expect(list.body.total).toBe(2);
    expect(list.body.data.find((h: any) => h.locationId === op.locationId)).toMatchObject({ geofenceId: dock.geofenceId, name: 'Dock' });
    expect((await get('/integrations/gps/home-areas?limit=1&offset=1', a)).body).toMatchObject({ total: 2, limit: 1, offset: 1 });
    // The geofence deleted: its home area is no longer listed (nor used).
    expect((await del(`/geofences/${far.geofenceId}`, undefined, a)).status).toBe(200);
    expect((await get('/integrations/gps/home-areas', a)).body.data.map((h: any) => h.geofenceId)).toEqual([dock.geofenceId]);
    expect((await del(`/integrations/gps/home-areas/${op.locationId}`, undefined, a)).body).toEqual({ success: true, id: op.locationId });
    expect((await get('/integrations/gps/home-areas', a)).body.total).toBe(0);
  });
});

describe('GPS: geofence exits', () => {
  let op: Operator;
  let g: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    op = await createOperator();
    g = await setup(op, await rentalItem(op));
  });

  it('needs accurate fixes and two consecutive ones outside; fires once per crossing', async () => {
    expect((await send(g.key, [fix(HOME)])).body).toMatchObject({ accepted: 1, alerts: [] });
    // One fix outside, then back in: no alert.
    expect((await send(g.key, [fix(north(500)), fix(HOME)])).body.alerts).toEqual([]);
    // Inaccurate fixes (80 m > 50 m) or none decide nothing.
    expect((await send(g.key, [fix(north(500), 80), fix(north(600), 80), fix(north(700), null)])).body.alerts).toEqual([]);
    // 220 m from the center is 20 m out, within the 40 m accuracy: uncertain, and it breaks the streak.
    expect((await send(g.key, [fix(north(500)), fix(north(220), 40), fix(north(500))])).body.alerts).toEqual([]);
    // Two consecutive accurate fixes outside: the exit fires, once.
    const out = await send(g.key, [fix(north(500)), fix(north(600))]);
    expect(out.body.alerts).toHaveLength(1);
    expect(out.body.alerts[0]).toMatchObject({ type: 'geofence_exit', geofenceId: g.homeId, deviceName: 'tracker-1', accuracyMeters: 10 });
    expect((await send(g.key, [fix(north(700)), fix(north(800))])).body.alerts).toEqual([]);
    // Fixes older than the last one applied change nothing.
    const old = await send(g.key, [{ ...HOME, accuracy: 5, recordedAt: new Date(clock - 3_600_000).toISOString() }]);
    expect(old.body).toMatchObject({ ignoredOlder: 1, alerts: [] });
    // Back inside (two fixes), out again: a second crossing fires a second alert.
    await send(g.key, [fix(HOME), fix(HOME)]);
    expect((await send(g.key, [fix(north(900)), fix(north(950))])).body.alerts).toHaveLength(1);
    // Far outside the bay polygon too.
    const far = await send(g.key, [fix(north(5000)), fix(north(5100))]);
    expect(far.body.alerts.map((a: any) => a.geofenceId)).toEqual([g.bayId]);

    const alerts = await get('/integrations/alerts?minutes=120&limit=50', { key: op.adminKey });
    expect(alerts.body.data.filter((a: any) => a.type === 'geofence_exit')).toHaveLength(3);
    const byDevice = await get('/integrations/device-alerts/tracker-1?minutes=120', { key: op.adminKey });
    expect(byDevice.body.data).toHaveLength(3);
    expectError(await get('/integrations/device-alerts/unknown-tracker', { key: op.adminKey }), 404);
    const summary = await get('/integrations/alert-summary?hours=2', { key: op.adminKey });
    expect(summary.body.devices).toEqual([
      expect.objectContaining({ deviceName: 'tracker-1', total: 3, byType: { geofence_exit: 3, overdue_return: 0, auto_returned: 0 } }),
    ]);
    expect((await get(`/integrations/alerts?locationId=loc_other`, { key: op.adminKey })).body.data).toEqual([]);
    const devices = await get('/integrations/gps/devices', { key: op.adminKey });
    expect(devices.body.data[0].lastPosition).toMatchObject({ lat: north(5100).lat, accuracyMeters: 10 });
    expect(devices.body).toMatchObject({ total: 1, limit: 100, offset: 0 });
    // The boat's last known position on the live map comes from its tracker.
    const positions = await get(`/asset-positions?locationId=${op.locationId}`, { key: op.adminKey });
    expect(positions.body.data).toEqual([
      expect.objectContaining({ assetId: g.device.assetId, lat: north(5100).lat, accuracyMeters: 10, source: 'gps', geofenceIds: [] }),
    ]);
  });
});

describe('GPS: returns', () => {
  it('auto-return (operator setting): back inside the home area marks the rental returned and fires booking.checked_out', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const g = await setup(op, item, 'boat-7');
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 2, '10:00'), endTime: at(op.timezone, 2, '12:00') }));
    expect(b.status, b.text).toBe(201);
    // The rental started an hour ago and is out on the water.
    await env.DB.prepare('UPDATE bookings SET start = ?, "end" = ? WHERE id = ?')
      .bind(Date.now() - 3_600_000, Date.now() + 3_600_000, b.body.rentalId)
      .run();
    expect((await post(`/coreBooking/${b.body.rentalId}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
    await send(g.key, [fix(HOME), fix(north(500)), fix(north(600))]);
    // Auto-return off (default): coming back changes nothing.
    expect((await get('/integrations/gps/settings', { key: op.adminKey })).body.autoReturn).toBe(false);
    const back = await send(g.key, [fix(HOME), fix(HOME)]);
    expect(back.body.returnedRentalIds).toEqual([]);
    expect((await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey })).body.status).toBe('checked_in');
    // On: out again and back.
    expect((await put('/integrations/gps/settings', { autoReturn: true }, { key: op.adminKey })).body.autoReturn).toBe(true);
    await send(g.key, [fix(north(500)), fix(north(600))]);
    const oneFix = await send(g.key, [fix(HOME)]);
    expect(oneFix.body.returnedRentalIds).toEqual([]);
    const home = await send(g.key, [fix(HOME)]);
    expect(home.body.returnedRentalIds).toEqual([b.body.rentalId]);
    expect(home.body.alerts.map((a: any) => a.type)).toContain('auto_returned');
    expect((await get(`/coreBooking/${b.body.rentalId}`, { key: op.adminKey })).body.status).toBe('completed');
    const out = await eventually(async () => (await eventsOf(op.customerId, 'booking.checked_out')).find((e) => e.payload.data.rentalId === b.body.rentalId));
    expect(out).toBeTruthy();
  });

  it('a boat still out after its end plus the grace period is overdue: one alert per rental, from ingest or the job', async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const g = await setup(op, item, 'boat-9');
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 2, '10:00'), endTime: at(op.timezone, 2, '12:00') }));
    await env.DB.prepare('UPDATE bookings SET start = ?, "end" = ? WHERE id = ?')
      .bind(Date.now() - 3 * 3_600_000, Date.now() - 20 * 60_000, b.body.rentalId)
      .run();
    expect((await post(`/coreBooking/${b.body.rentalId}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
    await put('/integrations/gps/settings', { overdueGraceMinutes: 30 }, { key: op.adminKey });
    // Within the grace period: the exit only.
    expect((await send(g.key, [fix(HOME), fix(north(500)), fix(north(600))])).body.alerts.map((a: any) => a.type)).toEqual(['geofence_exit']);
    await put('/integrations/gps/settings', { overdueGraceMinutes: 10 }, { key: op.adminKey });
    await runCron('*/5 * * * *');
    const alerts = (await get('/integrations/alerts', { key: op.adminKey })).body.data;
    const overdue = alerts.filter((a: any) => a.type === 'overdue_return');
    expect(overdue).toHaveLength(1);
    expect(overdue[0]).toMatchObject({ rentalId: b.body.rentalId, deviceName: 'boat-9' });
    // Not twice.
    expect((await send(g.key, [fix(north(700))])).body.alerts).toEqual([]);
    await runCron('*/5 * * * *');
    expect((await get('/integrations/alerts', { key: op.adminKey })).body.data.filter((a: any) => a.type === 'overdue_return')).toHaveLength(1);
  });

  it("on a sandbox test clock the overdue alert fires at the rental's end plus the grace period, as the clock advances", async () => {
    const t0 = Date.parse('2027-01-14T15:00:00Z');
    const op = await createOperator({ clockAt: t0 });
    const item = await rentalItem(op);
    await setup(op, item, 'boat-11');
    const iso = (ms: number) => new Date(ms).toISOString();
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: iso(t0 + 2 * 3_600_000), endTime: iso(t0 + 4 * 3_600_000) }));
    expect(b.status, b.text).toBe(201);
    // Out since an hour before the clock's time, due back an hour after it.
    await env.DB.prepare('UPDATE bookings SET start = ?, "end" = ? WHERE id = ?')
      .bind(t0 - 3_600_000, t0 + 3_600_000, b.body.rentalId)
      .run();
    expect((await post(`/coreBooking/${b.body.rentalId}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
    const overdue = async () =>
      (await get('/integrations/alerts?minutes=1440&limit=10', { key: op.adminKey })).body.data.filter((a: any) => a.type === 'overdue_return');
    // The wall-clock schedule leaves a test-clock operator alone, whatever its time.
    await runCron('*/5 * * * *', new Date(t0 + 3 * 3_600_000));
    expect(await overdue()).toEqual([]);
    const clock = await advanceClock(op.clockId!, t0 + 2 * 3_600_000, op.adminKey);
    expect(clock.status, JSON.stringify(clock)).toBe('ready');
    const fired = await overdue();
    expect(fired).toHaveLength(1);
    // At its own instant: the end (t0 + 1 h) plus the default 15-minute grace.
    expect(fired[0]).toMatchObject({ rentalId: b.body.rentalId, createdAt: iso(t0 + 3_600_000 + 15 * 60_000 + 1) });
  });
});
