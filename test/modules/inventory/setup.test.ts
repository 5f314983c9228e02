import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db, del, expectError, get, post } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { bookings } from '../../../src/db/schema/bookings';
import { inventoryAssets } from '../../../src/db/schema/inventory';
import { auditLogs } from '../../../src/db/schema/accounts';
import { and, eq } from 'drizzle-orm';
import { createItem, rentalData, tourData } from './helpers';

describe('POST /inventory/setup', () => {
  it('creates a rental with its asset pool and answers 200 created: true', async () => {
    const op = await createOperator();
    const r = await post('/inventory/setup', { data: rentalData(op) }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      created: true,
      kind: 'rental',
      name: 'Center Console 24',
      version: 1,
      locationId: op.locationId,
      timezone: 'America/New_York',
      isPublic: true,
    });
    expect(r.body.inventory_id).toMatch(/^inv_/);
    expect(r.body.inventoryId).toBe(r.body.inventory_id);
    expect(r.body.location).toMatchObject({ locationId: op.locationId, timezone: 'America/New_York' });
    expect(r.body.assets.map((a: any) => a.name)).toEqual(['Boat 1', 'Boat 2']);
    expect(r.body.assets[0]).toMatchObject({ status: 'active', mapPin: null, displayOrder: 0 });
    expect(r.body.assets[0].assetId).toMatch(/^ast_/);
    // Data is stored normalized by the model, with the asset ids and the location currency.
    expect(r.body.data.assets.map((a: any) => a.assetId)).toEqual(r.body.assets.map((a: any) => a.assetId));
    expect(r.body.data.currency).toBe('usd');
    expect(r.body.data.turnaroundBufferMinutes).toBe(0);
    expect(r.body.data.addons[0]).toMatchObject({ addonId: 'cooler', priceType: 'flat', taxable: true });
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, op.customerId), eq(auditLogs.action, 'inventory.create')))
      .all();
    expect(audit).toHaveLength(1);
  });

  it('creates a tour (seats and time slots, no assets)', async () => {
    const op = await createOperator();
    const r = await post('/inventory/setup', { data: tourData(op) }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ kind: 'tour', assets: [] });
    expect(r.body.data.capacity).toBe(12);
    expect(r.body.data.tourPricing).toMatchObject({ minParticipants: 2, isPrivate: false });
    expect(r.body.data.tourPricing.priceTiers[0]).toMatchObject({ name: 'Adult', price: 65, seats: 1 });
    expect(r.body.data.assets).toBeUndefined();
  });

  it('updates with inventory_id (or inventoryId), bumps the version and keeps asset ids', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const [b1, b2] = item.assets;
    // Rename Boat 1 by id, drop Boat 2, keep a new Boat 3, and list by name an asset that matches nothing.
    const data = rentalData(op, { name: 'CC 24 (2025)', assets: [{ assetId: b1.assetId, name: 'Boat One' }, { name: 'Boat 3' }] });
    const r = await post('/inventory/setup', { data, inventory_id: item.inventory_id }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ created: false, version: 2, name: 'CC 24 (2025)' });
    expect(r.body.assets.map((a: any) => [a.assetId === b1.assetId, a.name])).toEqual([
      [true, 'Boat One'],
      [false, 'Boat 3'],
    ]);
    // The removed asset is kept, inactive, for the bookings that reference it.
    const removed = await db().select().from(inventoryAssets).where(eq(inventoryAssets.id, b2.assetId)).get();
    expect(removed?.status).toBe('inactive');
    // Listing it again by name brings the same id back.
    const again = await post(
      '/inventory/setup',
      { data: rentalData(op, { assets: [{ name: 'Boat One' }, { name: 'boat 2' }, { name: 'Boat 3' }] }), inventoryId: item.inventory_id },
      { key: op.adminKey },
    );
    expect(again.status, again.text).toBe(200);
    expect(again.body.version).toBe(3);
    expect(again.body.assets.map((a: any) => a.assetId)).toEqual([b1.assetId, b2.assetId, r.body.assets[1].assetId]);
    expect(again.body.assets[1]).toMatchObject({ status: 'active', name: 'boat 2' });
  });

  it('refuses an assetId that is not an asset of the item', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const r = await post(
      '/inventory/setup',
      { data: rentalData(op, { assets: [{ assetId: 'ast_made_up', name: 'X' }] }), inventory_id: item.inventory_id },
      { key: op.adminKey },
    );
    expectError(r, 400, 'validation_failed');
    expect(r.body.details[0].field).toBe('data.assets.0.assetId');
  });

  it("refuses another operator's item with 403 and an unknown id with 404", async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const intruder = await otherOperator();
    const r = await post('/inventory/setup', { data: rentalData(intruder), inventory_id: item.inventory_id }, { key: intruder.adminKey });
    expectError(r, 403, 'forbidden');
    const unknown = await post('/inventory/setup', { data: rentalData(op), inventory_id: 'inv_nope' }, { key: op.adminKey });
    expectError(unknown, 404, 'not_found');
  });

  it("needs one of the caller's locations (404) and their own customerId (403)", async () => {
    const op = await createOperator();
    const intruder = await otherOperator();
    const r = await post('/inventory/setup', { data: rentalData(op, { locationId: intruder.locationId }) }, { key: op.adminKey });
    expectError(r, 404, 'not_found');
    const foreign = await post('/inventory/setup', { data: rentalData(op), customerId: intruder.customerId }, { key: op.adminKey });
    expectError(foreign, 403, 'forbidden');
  });

  it('validates data with the model', async () => {
    const op = await createOperator();
    const cases: [Record<string, unknown>, string][] = [
      [{ seasons: [{ name: 'Bad', startDate: '13-45', endDate: '12-31' }] }, 'data.seasons.0.startDate'],
      [{ seasons: [{ name: 'Bad', startDate: '2025-02-30', endDate: '2025-03-31' }] }, 'data.seasons.0.startDate'],
      [{ seasons: [{ name: 'Backwards', startDate: '2025-09-01', endDate: '2025-06-01' }] }, 'data.seasons.0.endDate'],
      [{ seasons: [{ name: 'Half', startDate: '05-01' }] }, 'data.seasons.0.endDate'],
      [{ seasons: [{ name: 'Neg', dailyPrices: { Monday: -5 } }] }, 'data.seasons.0.dailyPrices.Monday'],
      [{ seasons: [{ name: 'Day', dailyPrices: { Funday: 100 } }] }, 'data.seasons.0.dailyPrices'],
      [{ seasons: [{ name: 'MinMax', hourlyPrices: { Monday: { basePrice: 50, minimumHours: 6, maximumHours: 2 } } }] }, 'data.seasons.0.hourlyPrices.Monday'],
      [{ type: 'boat-ish' }, 'data.type'],
      [{ assets: [] }, 'data.assets'],
      [{ assets: [{ name: 'A' }, { name: 'a' }] }, 'data.assets.1.name'],
      [
        {
          addons: [
            { addonId: 'x', name: 'X', price: 1 },
            { addonId: 'x', name: 'Y', price: 2 },
          ],
        },
        'data.addons.1.addonId',
      ],
      [{ maintenanceBlocks: [{ start: '2025-06-02T10:00:00Z', end: '2025-06-01T10:00:00Z' }] }, 'data.maintenanceBlocks.0.end'],
      [
        { maintenanceBlocks: [{ assetIds: ['ast_elsewhere'], start: '2025-06-01T10:00:00Z', end: '2025-06-02T10:00:00Z' }] },
        'data.maintenanceBlocks.0.assetIds.0',
      ],
    ];
    for (const [over, field] of cases) {
      const r = await post('/inventory/setup', { data: rentalData(op, over) }, { key: op.adminKey });
      expectError(r, 400, 'validation_failed');
      const fields = r.body.details.map((d: any) => d.field);
      expect(
        fields.some((f: string) => f.startsWith(field)),
        `${JSON.stringify(over)} -> ${JSON.stringify(fields)}`,
      ).toBe(true);
    }
    const tourNoSlots = await post('/inventory/setup', { data: tourData(op, { timeSlots: [] }) }, { key: op.adminKey });
    expectError(tourNoSlots, 400, 'validation_failed');
    expect(tourNoSlots.body.details.map((d: any) => d.field)).toContain('data.timeSlots');
    const tourNoSeats = await post('/inventory/setup', { data: tourData(op, { capacity: 0 }) }, { key: op.adminKey });
    expect(tourNoSeats.body.details.map((d: any) => d.field)).toContain('data.capacity');
    const missing = await post('/inventory/setup', {}, { key: op.adminKey });
    expectError(missing, 400, 'validation_failed');
    expect(missing.body.details[0]).toMatchObject({ field: 'data', code: 'required' });
  });

  it('reads a legacy bare hourly number as basePrice', async () => {
    const op = await createOperator();
    const item = await createItem(
      op,
      rentalData(op, { seasons: [{ name: 'Legacy', dailyPrices: { Sunday: 500 }, hourlyPrices: { Sunday: 95, Monday: { basePrice: 80 } } }] }),
    );
    expect(item.data.seasons[0].hourlyPrices).toEqual({ Sunday: { basePrice: 95 }, Monday: { basePrice: 80 } });
    expect(item.data.seasons[0].startDate).toBeUndefined();
  });

  it('keeps uploaded media when an update omits them, and answers 409 on a stale expectedVersion', async () => {
    const op = await createOperator();
    const item = await createItem(op, rentalData(op, { images: ['https://cdn.example/a.jpg'] }));
    const upd = await post(
      '/inventory/setup',
      { data: rentalData(op, { description: 'Fast boat' }), inventory_id: item.inventory_id, expectedVersion: 1 },
      { key: op.adminKey },
    );
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.data.images).toEqual(['https://cdn.example/a.jpg']);
    expect(upd.body.data.description).toBe('Fast boat');
    const stale = await post('/inventory/setup', { data: rentalData(op), inventory_id: item.inventory_id, expectedVersion: 1 }, { key: op.adminKey });
    expectError(stale, 409, 'version_conflict');
    expect(stale.body.currentVersion).toBe(2);
  });

  it('serializes concurrent updates: every write lands with its own version', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        post('/inventory/setup', { data: rentalData(op, { description: `v${i}` }), inventory_id: item.inventory_id }, { key: op.adminKey }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(200);
    expect(new Set(results.map((r) => r.body.version)).size).toBe(5);
    const list = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data[0].version).toBe(6);
  });

  it('has a database guard: a write based on a stale version is rolled back', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const stale = env.DB.prepare('UPDATE inventory_items SET version = ?, name = ? WHERE id = ?');
    await stale.bind(2, 'first', item.inventory_id).run();
    await expect(stale.bind(2, 'lost update', item.inventory_id).run()).rejects.toThrow(/version_conflict/);
    await env.DB.prepare('UPDATE inventory_items SET display_order = 5 WHERE id = ?').bind(item.inventory_id).run();
    const row = await env.DB.prepare('SELECT name, version, display_order FROM inventory_items WHERE id = ?').bind(item.inventory_id).first();
    expect(row).toMatchObject({ name: 'first', version: 2, display_order: 5 });
  });

  it('refuses a staff user without the inventory permission', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    expectError(await post('/inventory/setup', { data: rentalData(op) }, { key: staff.key }), 403, 'forbidden');
    const clerk = await op.addUser({ role: 'staff', permissions: ['inventory'] });
    expect((await post('/inventory/setup', { data: rentalData(op) }, { key: clerk.key })).status).toBe(200);
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, {
      method: 'POST',
      path: '/inventory/setup',
      body: { data: rentalData(op), inventory_id: item.inventory_id },
      otherStatus: 403,
      adminOnly: true,
    });
  });
});

describe('GET /inventory/customer', () => {
  it("lists the caller's items in display order, without deleted ones", async () => {
    const op = await createOperator();
    const a = await createItem(op, rentalData(op, { name: 'A' }));
    const b = await createItem(op, tourData(op, { name: 'B' }));
    const c = await createItem(op, rentalData(op, { name: 'C', isPublic: false }));
    const r = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.total).toBe(3);
    expect(r.body.data.map((i: any) => i.name)).toEqual(['A', 'B', 'C']);
    expect(r.body.data[2]).toMatchObject({ isPublic: false, displayOrder: 2, timezone: 'America/New_York' });
    expect(r.body.data[0].assets).toHaveLength(2);
    const tours = await get(`/inventory/customer?customer_id=${op.customerId}&kind=tour`, { key: op.adminKey });
    expect(tours.body.data.map((i: any) => i.inventory_id)).toEqual([b.inventory_id]);
    await del(`/inventory/delete/${a.inventory_id}`, undefined, { key: op.adminKey });
    const after = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(after.body.data.map((i: any) => i.inventory_id)).toEqual([b.inventory_id, c.inventory_id]);
  });

  it("needs customer_id (400) and the caller's own (403)", async () => {
    const op = await createOperator();
    expectError(await get('/inventory/customer', { key: op.adminKey }), 400, 'validation_failed');
    const intruder = await otherOperator();
    expectError(await get(`/inventory/customer?customer_id=${intruder.customerId}`, { key: op.adminKey }), 403, 'forbidden');
    expectError(await get('/inventory/customer?customer_id=x&kind=boat', { key: op.adminKey }), 400, 'validation_failed');
  });

  it('is protected', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'GET', path: `/inventory/customer?customer_id=${op.customerId}`, otherStatus: 403 });
  });
});

describe('POST /inventory/reorder', () => {
  it('sets the display order; unlisted items follow', async () => {
    const op = await createOperator();
    const a = await createItem(op, rentalData(op, { name: 'A' }));
    const b = await createItem(op, rentalData(op, { name: 'B' }));
    const c = await createItem(op, rentalData(op, { name: 'C' }));
    const r = await post('/inventory/reorder', { orderedBoats: [c.inventory_id, a.inventory_id] }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.orderedBoats).toEqual([c.inventory_id, a.inventory_id, b.inventory_id]);
    const list = await get(`/inventory/customer?customer_id=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data.map((i: any) => i.name)).toEqual(['C', 'A', 'B']);
    expect(list.body.data.map((i: any) => i.displayOrder)).toEqual([0, 1, 2]);
  });

  it("refuses ids that are not the caller's, duplicates and an empty body", async () => {
    const op = await createOperator();
    const a = await createItem(op);
    const intruder = await otherOperator();
    const theirs = await createItem(intruder, rentalData(intruder));
    const r = await post('/inventory/reorder', { orderedBoats: [a.inventory_id, theirs.inventory_id, 'inv_unknown'] }, { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    expect(r.body.details.map((d: any) => d.field)).toEqual(['orderedBoats.1', 'orderedBoats.2']);
    expectError(await post('/inventory/reorder', { orderedBoats: [a.inventory_id, a.inventory_id] }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/inventory/reorder', {}, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const a = await createItem(op);
    // Another operator sending this operator's ids gets 400 (not theirs); with a foreign customerId 403.
    await checkSecurity(op, {
      method: 'POST',
      path: '/inventory/reorder',
      body: { orderedBoats: [a.inventory_id], customerId: op.customerId },
      otherStatus: 403,
      adminOnly: true,
    });
  });
});

describe('DELETE /inventory/delete/{inventory_id}', () => {
  it('soft-deletes: gone from reads, 404 the second time', async () => {
    const op = await createOperator();
    const a = await createItem(op);
    const r = await del(`/inventory/delete/${a.inventory_id}`, undefined, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, inventory_id: a.inventory_id });
    expect(r.body.deletedAt).toBeTruthy();
    expectError(await del(`/inventory/delete/${a.inventory_id}`, undefined, { key: op.adminKey }), 404, 'not_found');
    expectError(await get(`/inventory-pricing?inventory_id=${a.inventory_id}`, { key: op.adminKey }), 404, 'not_found');
    expectError(await post('/inventory/setup', { data: rentalData(op), inventory_id: a.inventory_id }, { key: op.adminKey }), 404, 'not_found');
  });

  it("answers 403 for another operator's item and 404 for an unknown one", async () => {
    const op = await createOperator();
    const a = await createItem(op);
    const intruder = await otherOperator();
    expectError(await del(`/inventory/delete/${a.inventory_id}`, undefined, { key: intruder.adminKey }), 403, 'forbidden');
    expectError(await del('/inventory/delete/inv_unknown', undefined, { key: op.adminKey }), 404, 'not_found');
  });

  it('refuses an item with upcoming bookings', async () => {
    const op = await createOperator();
    const a = await createItem(op);
    const start = Date.now() + 86_400_000;
    await db()
      .insert(bookings)
      .values({
        id: `bk_${crypto.randomUUID()}`,
        customerId: op.customerId,
        transactionId: 'tx_1',
        locationId: op.locationId,
        itemId: a.inventory_id,
        status: 'confirmed',
        start,
        end: start + 3_600_000,
        localDate: '2030-01-01',
      });
    const r = await del(`/inventory/delete/${a.inventory_id}`, undefined, { key: op.adminKey });
    expectError(r, 400, 'has_upcoming_bookings');
    expect(r.body.upcomingBookings).toBe(1);
  });

  it('is protected', async () => {
    const op = await createOperator();
    const a = await createItem(op);
    await checkSecurity(op, { method: 'DELETE', path: `/inventory/delete/${a.inventory_id}`, otherStatus: 403, adminOnly: true });
  });
});

describe('OpenAPI', () => {
  it('documents the inventory routes, the multipart upload body and the record fields', async () => {
    const r = await get('/openapi.json');
    const paths = r.body.paths;
    for (const p of [
      '/inventory/setup',
      '/inventory/customer',
      '/inventory/delete/{inventory_id}',
      '/inventory/reorder',
      '/inventory-pricing',
      '/inventory/photo/{inventory_id}',
      '/inventory/video/{inventory_id}',
      '/inventory/asset-map/{inventory_id}',
      '/boatRecords',
      '/boatRecords/rundownRecords',
      '/inventory/media/{customerId}/{itemId}/{folder}/{file}',
    ]) {
      expect(paths[p], p).toBeDefined();
    }
    const upload = paths['/inventory/photo/{inventory_id}'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file.format).toBe('binary');
    expect(upload.required).toEqual(['file']);
    expect(
      Object.keys(
        paths['/boatRecords'].post.requestBody.content['application/json'].schema.$ref ? r.body.components.schemas.CreateInventoryRecord.properties : {},
      ),
    ).toEqual(expect.arrayContaining(['inventoryId', 'RecordType', 'Details', 'RentalId', 'AssetId', 'timestamp']));
  });
});
