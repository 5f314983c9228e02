import { describe, it, expect } from 'vitest';
import { createOperator, del, expectError, get, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { rentalItem } from '../bookings/factories';

const circle = (locationId: string, extra: Record<string, unknown> = {}) => ({
  locationId,
  name: 'Marina basin',
  shape: 'circle',
  center: { lat: 25.7743, lng: -80.1937 },
  radiusMeters: 250,
  ...extra,
});
const square = [
  { lat: 25.77, lng: -80.2 },
  { lat: 25.77, lng: -80.19 },
  { lat: 25.78, lng: -80.19 },
  { lat: 25.78, lng: -80.2 },
];

describe('Geofences', () => {
  it('creates circles and polygons per location, validates geometry, updates and deletes', async () => {
    const op = await createOperator();
    const c = await post('/geofences', circle(op.locationId), { key: op.adminKey });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ shape: 'circle', center: { lat: 25.7743, lng: -80.1937 }, radiusMeters: 250, points: null, locationId: op.locationId });
    const p = await post('/geofences', { locationId: op.locationId, name: 'Fuel dock', shape: 'polygon', points: square }, { key: op.adminKey });
    expect(p.status, p.text).toBe(201);

    expectError(await post('/geofences', { ...circle(op.locationId), radiusMeters: undefined }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/geofences', { ...circle(op.locationId), points: square }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/geofences', { locationId: op.locationId, name: 'x', shape: 'polygon', points: square.slice(0, 2) }, { key: op.adminKey }), 400);
    expectError(await post('/geofences', { ...circle(op.locationId), center: { lat: 91, lng: 0 } }, { key: op.adminKey }), 400);
    expectError(await post('/geofences', circle('loc_01J0000000000000000000000'), { key: op.adminKey }), 404, 'not_found');

    const list = await get(`/geofences?locationId=${op.locationId}`, { key: op.adminKey });
    expect(list.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const toPolygon = await patch(`/geofences/${c.body.geofenceId}`, { shape: 'polygon', points: square }, { key: op.adminKey });
    expect(toPolygon.body).toMatchObject({ shape: 'polygon', center: null, radiusMeters: null, points: square });
    const grow = await patch(`/geofences/${p.body.geofenceId}`, { name: 'Fuel dock (north)' }, { key: op.adminKey });
    expect(grow.body.name).toBe('Fuel dock (north)');
    expectError(await patch(`/geofences/${p.body.geofenceId}`, {}, { key: op.adminKey }), 400, 'no_changes');

    const staff = await op.addUser({ role: 'staff' });
    expect((await get('/geofences', { key: staff.key })).status).toBe(200);
    expectError(await post('/geofences', circle(op.locationId), { key: staff.key }), 403, 'forbidden');

    const id = p.body.geofenceId;
    await checkSecurity(op, { method: 'GET', path: '/geofences' });
    await checkSecurity(op, { method: 'POST', path: '/geofences', body: circle(op.locationId), otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/geofences/${id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'PATCH', path: `/geofences/${id}`, body: { name: 'x' }, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/geofences/${id}`, otherStatus: 404 });
    expect((await del(`/geofences/${id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/geofences/${id}`, { key: op.adminKey }), 404, 'not_found');
  });
});

describe('Staff locations, asset positions and the live map', () => {
  it('keeps the newest position per staff member and asset, with the geofences that contain it', async () => {
    const op = await createOperator();
    const fence = await post('/geofences', circle(op.locationId), { key: op.adminKey });
    const staff = await op.addUser({ role: 'staff' });
    const now = Date.now();
    const inside = { lat: 25.7744, lng: -80.1938 };
    const outside = { lat: 25.8, lng: -80.1 };

    const r1 = await post('/staff-locations', { ...inside, locationId: op.locationId, recordedAt: new Date(now - 60_000).toISOString() }, { key: staff.key });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body).toMatchObject({ updated: true, position: { userId: staff.userId, geofenceIds: [fence.body.geofenceId], source: 'staff' } });
    const older = await post(
      '/staff-locations',
      { ...outside, locationId: op.locationId, recordedAt: new Date(now - 120_000).toISOString() },
      { key: staff.key },
    );
    expect(older.body.updated).toBe(false);
    expect(older.body.position.lat).toBe(inside.lat);
    const newer = await post('/staff-locations', { ...outside, locationId: op.locationId }, { key: staff.key });
    expect(newer.body).toMatchObject({ updated: true, position: { lat: outside.lat, geofenceIds: [] } });
    expectError(
      await post('/staff-locations', { ...inside, recordedAt: new Date(now + 3600_000).toISOString() }, { key: staff.key }),
      400,
      'validation_failed',
    );
    // Reporting for someone else needs the permission; admins have it.
    expectError(await post('/staff-locations', { ...inside, userId: op.adminId }, { key: staff.key }), 403, 'forbidden');
    expect((await post('/staff-locations', { ...inside, userId: staff.userId, locationId: op.locationId }, { key: op.adminKey })).body.updated).toBe(true);
    const foreign = await createOperator();
    expectError(await post('/staff-locations', { ...inside, userId: foreign.adminId }, { key: op.adminKey }), 404, 'not_found');

    const item = await rentalItem(op, { assets: 2 });
    const a1 = await post('/asset-positions', { assetId: item.assetIds[0], ...inside }, { key: op.adminKey });
    expect(a1.status, a1.text).toBe(200);
    expect(a1.body).toMatchObject({ updated: true, position: { assetId: item.assetIds[0], itemId: item.id, locationId: op.locationId, source: 'device' } });
    expect(a1.body.position.geofenceIds).toEqual([fence.body.geofenceId]);
    const otherItem = await rentalItem(foreign);
    expectError(await post('/asset-positions', { assetId: otherItem.assetIds[0], ...inside }, { key: op.adminKey }), 404, 'not_found');

    const map = await get(`/asset-tracking?locationId=${op.locationId}`, { key: staff.key });
    expect(map.status, map.text).toBe(200);
    expect(map.body.geofences).toHaveLength(1);
    expect(map.body.assets).toHaveLength(2);
    expect(map.body.assets.find((a: any) => a.assetId === item.assetIds[0]).position.lat).toBe(inside.lat);
    expect(map.body.assets.find((a: any) => a.assetId === item.assetIds[1]).position).toBeNull();
    expect(map.body.staff).toEqual([expect.objectContaining({ userId: staff.userId, geofenceIds: [fence.body.geofenceId] })]);
    expectError(await get(`/asset-tracking?locationId=${foreign.locationId}`, { key: op.adminKey }), 404, 'not_found');

    expect((await get('/staff-locations', { key: op.adminKey })).body.data).toHaveLength(1);
    expect((await get(`/asset-positions?itemId=${item.id}`, { key: op.adminKey })).body.data).toHaveLength(1);
    expect((await get('/asset-positions', { key: foreign.adminKey })).body.data).toEqual([]);

    await checkSecurity(op, { method: 'GET', path: '/staff-locations' });
    await checkSecurity(op, { method: 'POST', path: '/staff-locations', body: { ...inside, userId: staff.userId }, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: '/asset-positions' });
    await checkSecurity(op, { method: 'POST', path: '/asset-positions', body: { assetId: item.assetIds[0], ...inside }, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/asset-tracking?locationId=${op.locationId}`, otherStatus: 404 });
  });
});

describe('Asset pools', () => {
  it('groups assets of one location, refuses foreign or other-location assets, CRUD with tenancy', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const elsewhere = await rentalItem(op, { assets: 1, timezone: 'Europe/Berlin' });
    const foreign = await createOperator();
    const foreignItem = await rentalItem(foreign, { assets: 1 });

    const created = await post('/asset-pools', { locationId: op.locationId, name: 'Pontoon fleet', assetIds: item.assetIds.slice(0, 2) }, { key: op.adminKey });
    expect(created.status, created.text).toBe(201);
    expect(created.body.assets.map((a: any) => a.assetId)).toEqual(item.assetIds.slice(0, 2));
    const bad = await post(
      '/asset-pools',
      { locationId: op.locationId, name: 'x', assetIds: [item.assetIds[0], foreignItem.assetIds[0], elsewhere.assetIds[0]] },
      { key: op.adminKey },
    );
    expectError(bad, 400, 'validation_failed');
    expect(bad.body.details.map((d: any) => d.field)).toEqual(['assetIds.1', 'assetIds.2']);

    const id = created.body.poolId;
    const updated = await patch(`/asset-pools/${id}`, { assetIds: item.assetIds, description: 'All three' }, { key: op.adminKey });
    expect(updated.body).toMatchObject({ assetIds: item.assetIds, description: 'All three' });
    expect((await get(`/asset-pools?locationId=${op.locationId}`, { key: op.adminKey })).body.total).toBe(1);
    const staff = await op.addUser({ role: 'staff' });
    expect((await get(`/asset-pools/${id}`, { key: staff.key })).status).toBe(200);
    expectError(await patch(`/asset-pools/${id}`, { name: 'y' }, { key: staff.key }), 403, 'forbidden');

    await checkSecurity(op, { method: 'GET', path: '/asset-pools' });
    await checkSecurity(op, {
      method: 'POST',
      path: '/asset-pools',
      body: { locationId: op.locationId, name: 'p', assetIds: item.assetIds },
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'GET', path: `/asset-pools/${id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'PATCH', path: `/asset-pools/${id}`, body: { name: 'z' }, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/asset-pools/${id}`, otherStatus: 404 });
    expect((await del(`/asset-pools/${id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await get(`/asset-pools/${id}`, { key: op.adminKey }), 404, 'not_found');
  });
});

describe('Partner calls (/calls/partner/*) through the telephony adapter', () => {
  it('places, lists, reads (status from the provider) and hangs up calls', async () => {
    const op = await createOperator();
    const placed = await post(
      '/calls/partner/calls',
      { locationId: op.locationId, to: '+13055550123', message: 'Your charter is ready at dock 4' },
      { key: op.adminKey },
    );
    expect(placed.status, placed.text).toBe(201);
    expect(placed.body).toMatchObject({ status: 'queued', from: '+15555550100', to: '+13055550123', appId: null });
    expectError(await post('/calls/partner/calls', { locationId: op.locationId, to: '555-0123', message: 'x' }, { key: op.adminKey }), 400);
    const id = placed.body.callId;
    const hung = await post(`/calls/partner/calls/${id}/hangup`, {}, { key: op.adminKey });
    expect(hung.body.status).toBe('canceled');
    expectError(await post(`/calls/partner/calls/${id}/hangup`, {}, { key: op.adminKey }), 409, 'invalid_state');
    expect((await get('/calls/partner/calls', { key: op.adminKey })).body.total).toBe(1);
    const staff = await op.addUser({ role: 'staff' });
    expectError(await post('/calls/partner/calls', { locationId: op.locationId, to: '+13055550123', message: 'x' }, { key: staff.key }), 403, 'forbidden');

    await checkSecurity(op, {
      method: 'POST',
      path: '/calls/partner/calls',
      body: { locationId: op.locationId, to: '+13055550123', message: 'x' },
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'GET', path: '/calls/partner/calls' });
    await checkSecurity(op, { method: 'GET', path: `/calls/partner/calls/${id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: `/calls/partner/calls/${id}/hangup`, otherStatus: 404 });
  });
});
