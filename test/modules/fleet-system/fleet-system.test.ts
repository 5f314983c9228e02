/**
 * Fleet software through HTTP with the offline simulator: connection tested before saving,
 * pass-through reservations and invoices, product mappings, and sync-booking (a reservation per
 * asset, an invoice on the first, idempotent per booking).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db, del, expectError, get, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, everyDay, rentalItem, type TestItem } from '../bookings/factories';
import { fleetsysLinks } from '../../../src/db/schema/fleet-system';
import { FleetApi, SimulatedFleet } from '../../../src/adapters/fleet';
import { fakeHosts } from '../../outbound';
import { eq } from 'drizzle-orm';

const sim = new SimulatedFleet(env);
const creds = (op: Operator, extra: Record<string, unknown> = {}) => ({
  customerId: op.customerId,
  clientId: `client-${op.customerId.slice(-8)}`,
  clientSecret: 'secret-0123456789',
  tokenUrl: 'https://fleet.example.test/oauth/token',
  ...extra,
});

describe('fleet software: security', () => {
  it('every route refuses anonymous and bad credentials, a foreign customerId (403), non-admins where it configures', async () => {
    const op = await createOperator();
    const c = op.customerId;
    const routes = [
      { method: 'GET', path: `/fleetsys/status?customerId=${c}`, otherStatus: 403 as const },
      { method: 'POST', path: '/fleetsys/connect', body: creds(op), otherStatus: 403 as const, adminOnly: true },
      { method: 'DELETE', path: `/fleetsys/disconnect?customerId=${c}`, otherStatus: 403 as const, adminOnly: true },
      { method: 'GET', path: `/fleetsys/inventory-types?customerId=${c}`, otherStatus: 403 as const },
      { method: 'GET', path: `/fleetsys/products?customerId=${c}`, otherStatus: 403 as const },
      { method: 'GET', path: `/fleetsys/reservations?customerId=${c}&externalBookingId=x`, otherStatus: 403 as const },
      {
        method: 'POST',
        path: '/fleetsys/reservations',
        body: { customerId: c, externalBookingId: 'x', startDate: '2027-01-01T10:00:00Z', endDate: '2027-01-01T12:00:00Z', productId: 'p', customerName: 'N' },
        otherStatus: 403 as const,
      },
      { method: 'PUT', path: '/fleetsys/reservations/fsr_1', body: { customerId: c }, otherStatus: 403 as const },
      { method: 'PUT', path: '/fleetsys/reservations/fsr_1/cancel', body: { customerId: c }, otherStatus: 403 as const },
      { method: 'POST', path: '/fleetsys/reservations/fsr_1/invoice', body: { customerId: c, amount: 10 }, otherStatus: 403 as const },
      { method: 'POST', path: '/fleetsys/sync-booking', body: { customerId: c, rentalId: 'bk_1', locationId: op.locationId }, otherStatus: 403 as const },
      { method: 'GET', path: `/fleetsys/product-mappings?customerId=${c}`, otherStatus: 403 as const },
      { method: 'PUT', path: '/fleetsys/product-mappings', body: { customerId: c, mappings: [] }, otherStatus: 403 as const, adminOnly: true },
    ];
    for (const rc of routes) await checkSecurity(op, rc);
  });
});

describe('fleet software: connection and pass-through', () => {
  it('tests the connection before saving (400 when it fails, nothing saved); secret sealed; disconnect', async () => {
    const op = await createOperator();
    expectError(await get(`/fleetsys/products?customerId=${op.customerId}`, { key: op.adminKey }), 400, 'fleetsys_not_connected');
    expectError(await post('/fleetsys/connect', creds(op, { clientSecret: 'invalid-secret' }), { key: op.adminKey }), 400, 'fleetsys_connection_failed');
    expect((await get(`/fleetsys/status?customerId=${op.customerId}`, { key: op.adminKey })).body.connected).toBe(false);
    expectError(await post('/fleetsys/connect', creds(op, { tokenUrl: 'ftp://fleet.example.test/token' }), { key: op.adminKey }), 400, 'validation_failed');
    const ok = await post('/fleetsys/connect', creds(op), { key: op.adminKey });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ success: true, connected: true, status: 'active', apiBaseUrl: 'https://fleet.example.test/api/v1', provider: 'simulator' });
    const row = (await db().select().from(fleetsysLinks).where(eq(fleetsysLinks.customerId, op.customerId)).get())!;
    expect(row.clientSecret).not.toContain('secret-0123456789');
    expect(JSON.stringify(ok.body)).not.toContain('secret-0123456789');
    expect((await get(`/fleetsys/inventory-types?customerId=${op.customerId}`, { key: op.adminKey })).body.data.length).toBeGreaterThan(0);
    // An expired cached token is renewed transparently.
    await env.DB.prepare('UPDATE fleetsys_links SET token_expires_at = 1 WHERE customer_id = ?').bind(op.customerId).run();
    expect((await get(`/fleetsys/products?customerId=${op.customerId}`, { key: op.adminKey })).status).toBe(200);
    const off = await del(`/fleetsys/disconnect?customerId=${op.customerId}`, undefined, { key: op.adminKey });
    expect(off.body).toMatchObject({ success: true, disconnected: true });
    expectError(await get(`/fleetsys/products?customerId=${op.customerId}`, { key: op.adminKey }), 400, 'fleetsys_not_connected');
  });

  it('reservations: create, find, update, cancel, invoice; refusals of the fleet system answer 400 or 404', async () => {
    const op = await createOperator();
    await post('/fleetsys/connect', creds(op), { key: op.adminKey });
    const body = {
      customerId: op.customerId,
      externalBookingId: 'EXT-1',
      startDate: '2027-07-01T10:00:00Z',
      endDate: '2027-07-01T12:00:00Z',
      productId: 'fsp_pontoon',
      customerName: 'Pat Renter',
      customerEmail: 'pat@renter.test',
      totalAmount: 240,
    };
    const created = await post('/fleetsys/reservations', body, { key: op.adminKey });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ externalBookingId: 'EXT-1', status: 'confirmed', productId: 'fsp_pontoon' });
    const id = created.body.id;
    expect(
      (await get(`/fleetsys/reservations?customerId=${op.customerId}&externalBookingId=EXT-1`, { key: op.adminKey })).body.data.map((r: any) => r.id),
    ).toEqual([id]);
    const updated = await put(
      `/fleetsys/reservations/${id}`,
      { customerId: op.customerId, notes: 'Bring life vests', endDate: '2027-07-01T13:00:00Z' },
      { key: op.adminKey },
    );
    expect(updated.body).toMatchObject({ notes: 'Bring life vests', endDate: '2027-07-01T13:00:00Z' });
    expectError(
      await put(`/fleetsys/reservations/${id}`, { customerId: op.customerId, productId: 'fsp_unknown' }, { key: op.adminKey }),
      400,
      'fleetsys_refused',
    );
    const inv = await post(`/fleetsys/reservations/${id}/invoice`, { customerId: op.customerId, amount: 240, description: 'Rental' }, { key: op.adminKey });
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({ reservationId: id, amount: 240 });
    const cancelled = await put(`/fleetsys/reservations/${id}/cancel`, { customerId: op.customerId }, { key: op.adminKey });
    expect(cancelled.body.status).toBe('cancelled');
    expectError(await post(`/fleetsys/reservations/${id}/invoice`, { customerId: op.customerId, amount: 5 }, { key: op.adminKey }), 400, 'fleetsys_refused');
    expectError(await put('/fleetsys/reservations/fsr_nope/cancel', { customerId: op.customerId }, { key: op.adminKey }), 404, 'not_found');
    expectError(await post('/fleetsys/reservations', { ...body, endDate: '2027-07-01T09:00:00Z' }, { key: op.adminKey }), 400, 'fleetsys_refused');
  });
});

describe('fleet software: sync-booking', () => {
  let op: Operator;
  let item: TestItem;
  let clientId: string;
  beforeAll(async () => {
    op = await createOperator();
    item = await rentalItem(op, { assets: 2 });
    clientId = creds(op).clientId;
    await post('/fleetsys/connect', creds(op), { key: op.adminKey });
  });

  it('a reservation per asset through the mapping, an invoice on the first; idempotent; concurrent syncs create nothing twice', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00'), quantity: 2 }));
    expect(b.status, b.text).toBe(201);
    const sync = { rentalId: b.body.rentalId, customerId: op.customerId, locationId: op.locationId };
    expectError(await post('/fleetsys/sync-booking', sync, { key: op.adminKey }), 400, 'fleetsys_mapping_missing');
    expectError(
      await put('/fleetsys/product-mappings', { customerId: op.customerId, mappings: [{ inventoryId: item.id, productId: 'fsp_nope' }] }, { key: op.adminKey }),
      400,
    );
    const m = await put(
      '/fleetsys/product-mappings',
      {
        customerId: op.customerId,
        mappings: [
          { inventoryId: item.id, productId: 'fsp_pontoon' },
          { inventoryId: item.id, assetId: item.assetIds[1], productId: 'fsp_center_console' },
        ],
      },
      { key: op.adminKey },
    );
    expect(m.status, m.text).toBe(200);
    expectError(await post('/fleetsys/sync-booking', { ...sync, locationId: 'loc_other' }, { key: op.adminKey }), 400);
    expectError(await post('/fleetsys/sync-booking', { ...sync, rentalId: 'bk_nope' }, { key: op.adminKey }), 404);

    const [r1, r2] = await Promise.all([
      post('/fleetsys/sync-booking', sync, { key: op.adminKey }),
      post('/fleetsys/sync-booking', sync, { key: op.adminKey }),
    ]);
    const statuses = [r1.status, r2.status].sort();
    expect([
      [200, 200],
      [200, 409],
    ]).toContainEqual(statuses);
    const first = [r1, r2].find((r) => r.status === 200)!;
    expect(first.body.reservations).toHaveLength(2);
    const byAsset = Object.fromEntries(first.body.reservations.map((r: any) => [r.assetId, r.productId]));
    expect(byAsset[item.assetIds[0]]).toBe('fsp_pontoon');
    expect(byAsset[item.assetIds[1]]).toBe('fsp_center_console');
    expect(first.body.invoice).toMatchObject({ amount: b.body.pricing.total });

    const again = await post('/fleetsys/sync-booking', sync, { key: op.adminKey });
    expect(again.status).toBe(200);
    expect(again.body.reservations.every((r: any) => r.created === false)).toBe(true);
    expect(again.body.invoice.created).toBe(false);
    const remote = await sim.dump(clientId);
    const mine = Object.values(remote.reservations).filter((r) => r.externalBookingId.startsWith(b.body.rentalId));
    expect(mine).toHaveLength(2);
    expect(mine.map((r) => r.externalBookingId).sort()).toEqual(item.assetIds.map((a) => `${b.body.rentalId}:${a}`).sort());
    expect(Object.values(remote.invoices).filter((i) => mine.some((r) => r.id === i.reservationId))).toHaveLength(1);
  });

  it('a booking whose total is 0 gets its reservation and no invoice', async () => {
    const free = await rentalItem(op, { data: { seasons: [{ name: 'Free', dailyPrices: everyDay(0), hourlyPrices: everyDay({ basePrice: 0 }) }] } });
    // PUT replaces the list: keep the mappings the other tests set.
    const kept = (await get(`/fleetsys/product-mappings?customerId=${op.customerId}`, { key: op.adminKey })).body.data;
    const m = await put(
      '/fleetsys/product-mappings',
      { customerId: op.customerId, mappings: [...kept, { inventoryId: free.id, productId: 'fsp_pontoon' }] },
      { key: op.adminKey },
    );
    expect(m.status, m.text).toBe(200);
    const b = await book(op, bookBody({ inventoryId: free.id, startTime: at(op.timezone, 6, '10:00'), endTime: at(op.timezone, 6, '11:00') }));
    expect(b.status, b.text).toBe(201);
    expect(b.body.pricing.total).toBe(0);
    const r = await post('/fleetsys/sync-booking', { rentalId: b.body.rentalId, customerId: op.customerId, locationId: op.locationId }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.reservations).toHaveLength(1);
    expect(r.body.reservations[0]).toMatchObject({ productId: 'fsp_pontoon', created: true });
    expect(r.body.invoice).toBeNull();
    const remote = await sim.dump(clientId);
    expect(Object.values(remote.invoices).filter((i) => i.reservationId === r.body.reservations[0].reservationId)).toHaveLength(0);
  });

  it('recovers a reservation created remotely before a crash (found by its externalBookingId)', async () => {
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '11:00'), quantity: 1 }));
    const assetId = b.body.assetIds[0];
    // The remote side already has it (a previous attempt died after the remote call).
    const pre = await post(
      '/fleetsys/reservations',
      {
        customerId: op.customerId,
        externalBookingId: `${b.body.rentalId}:${assetId}`,
        startDate: b.body.startTime,
        endDate: b.body.endTime,
        productId: 'fsp_pontoon',
        customerName: 'Rita Renter',
      },
      { key: op.adminKey },
    );
    const r = await post('/fleetsys/sync-booking', { rentalId: b.body.rentalId, customerId: op.customerId, locationId: op.locationId }, { key: op.adminKey });
    expect(r.body.reservations).toEqual([{ assetId, productId: expect.any(String), reservationId: pre.body.id, created: false }]);
  });
});

describe('fleet software: the real adapter over fetch', () => {
  let restore = () => {};
  afterAll(() => restore());

  it('client credentials at the token URL, bearer calls under the API base, errors classified', async () => {
    const seen: { method: string; url: string; auth: string | null; body: string }[] = [];
    restore = fakeHosts(['fleet.example.test'], async (input, init) => {
      const req = new Request(input, init);
      const body = await req.text();
      seen.push({ method: req.method, url: req.url, auth: req.headers.get('authorization'), body });
      if (req.url.endsWith('/oauth/token')) return Response.json({ access_token: 'at_123', expires_in: 3600, token_type: 'Bearer' });
      if (req.url.endsWith('/products')) return Response.json({ data: [{ id: 'p1', name: 'Boat', inventoryTypeId: null }] });
      if (req.url.endsWith('/reservations/missing/cancel')) return new Response('nope', { status: 404 });
      return new Response('{}', { status: 500 });
    });
    const api2 = new FleetApi(env);
    const c = { clientId: 'cid', clientSecret: 'csecret', tokenUrl: 'https://fleet.example.test/oauth/token', apiBaseUrl: 'https://fleet.example.test/api/v1' };
    const t = await api2.token(c);
    expect(t.accessToken).toBe('at_123');
    expect(seen[0]).toMatchObject({ method: 'POST', auth: `Basic ${btoa('cid:csecret')}` });
    expect(seen[0].body).toContain('grant_type=client_credentials');
    expect(await api2.products(c, 'at_123')).toEqual([{ id: 'p1', name: 'Boat', inventoryTypeId: null }]);
    expect(seen[1]).toMatchObject({ method: 'GET', url: 'https://fleet.example.test/api/v1/products', auth: 'Bearer at_123' });
    await expect(api2.cancelReservation(c, 'at_123', 'missing')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(api2.inventoryTypes(c, 'at_123')).rejects.toMatchObject({ kind: 'transient' });
  });
});
