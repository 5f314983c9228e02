import { describe, it, expect } from 'vitest';
import { createOperator, db, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { bookings } from '../../../src/db/schema/bookings';
import { createItem, rentalData } from '../inventory/helpers';

async function addBooking(op: Operator, itemId: string) {
  const id = `bk_${crypto.randomUUID().replace(/-/g, '')}`;
  const start = Date.now() - 3_600_000;
  await db()
    .insert(bookings)
    .values({
      id,
      customerId: op.customerId,
      transactionId: `tx_${id}`,
      locationId: op.locationId,
      itemId,
      status: 'checked_in',
      start,
      end: start + 7_200_000,
      localDate: '2026-01-01',
    });
  return id;
}

describe('POST /boatRecords', () => {
  it('creates a record (201) with the spec field names; timestamp defaults to now', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const asset = item.assets[0].assetId;
    const rental = await addBooking(op, item.inventory_id);
    const before = Date.now();
    const r = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkout', Details: { fuelLevel: 100 }, RentalId: rental, AssetId: asset },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ inventoryId: item.inventory_id, RecordType: 'checkout', Details: { fuelLevel: 100 }, RentalId: rental, AssetId: asset });
    expect(r.body.recordId).toMatch(/^rec_/);
    expect(Date.parse(r.body.timestamp)).toBeGreaterThanOrEqual(before - 5);
    // A given timestamp is normalized to UTC; a second record at the same instant is 409.
    const t = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'fuel', Details: { liters: 40 }, timestamp: '2026-06-01T10:00:00+02:00' },
      { key: op.adminKey },
    );
    expect(t.status, t.text).toBe(201);
    expect(t.body.timestamp).toBe('2026-06-01T08:00:00.000Z');
    const dup = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'fuel', Details: {}, timestamp: '2026-06-01T08:00:00Z' },
      { key: op.adminKey },
    );
    expectError(dup, 409, 'already_exists');
  });

  it('validates the body', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const other = await createItem(op, rentalData(op, { name: 'Other' }));
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await post('/boatRecords', body, { key: op.adminKey });
      expectError(r, 400, 'validation_failed');
      expect(r.body.details.map((d: any) => d.field)).toContain(field);
    };
    await bad({ RecordType: 'checkin', Details: {} }, 'inventoryId');
    await bad({ inventoryId: item.inventory_id, Details: {} }, 'RecordType');
    await bad({ inventoryId: item.inventory_id, RecordType: 'checkin' }, 'Details');
    await bad({ inventoryId: item.inventory_id, RecordType: 'checkin', Details: 'fine' }, 'Details');
    await bad({ inventoryId: item.inventory_id, RecordType: 'checkin', Details: {}, timestamp: 'yesterday' }, 'timestamp');
    await bad({ inventoryId: item.inventory_id, RecordType: 'checkin', Details: {}, AssetId: other.assets[0].assetId }, 'AssetId');
    await bad({ inventoryId: item.inventory_id, RecordType: 'checkin', Details: {}, RentalId: await addBooking(op, other.inventory_id) }, 'RentalId');
    expectError(await post('/boatRecords', { inventoryId: 'inv_nope', RecordType: 'checkin', Details: {} }, { key: op.adminKey }), 404, 'not_found');
  });

  it('is protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, {
      method: 'POST',
      path: '/boatRecords',
      body: { inventoryId: item.inventory_id, RecordType: 'checkout', Details: {} },
      otherStatus: 404,
    });
  });
});

describe('condition analysis of check-ins with photos', () => {
  it('compares the check-in with the check-out of the same rental', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const rental = await addBooking(op, item.inventory_id);
    await post(
      '/boatRecords',
      {
        inventoryId: item.inventory_id,
        RecordType: 'checkout',
        RentalId: rental,
        timestamp: '2026-06-01T09:00:00Z',
        Details: { fuelLevel: 100, engineHours: 120.5, photos: ['a', 'b', 'c'], damages: ['Scratch on port bow'] },
      },
      { key: op.adminKey },
    );
    const r = await post(
      '/boatRecords',
      {
        inventoryId: item.inventory_id,
        RecordType: 'check-in',
        RentalId: rental,
        timestamp: '2026-06-01T13:00:00Z',
        Details: {
          fuelLevel: 0.6,
          engineHours: 119,
          photos: [{ url: 'https://x/1.jpg' }, 'https://x/2.jpg'],
          damages: ['scratch on port bow', { area: 'stern', description: 'Cracked rub rail' }],
          notes: 'Small dent near the ladder',
        },
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
    const a = r.body.Details.conditionAnalysis;
    expect(a).toMatchObject({
      status: 'completed',
      method: 'rules',
      photoCount: 2,
      severity: 'major',
      comparedTo: { timestamp: '2026-06-01T09:00:00.000Z', RecordType: 'checkout' },
    });
    const codes = a.findings.map((f: any) => f.code).sort();
    expect(codes).toEqual(['damage_words_in_notes', 'engine_hours_decreased', 'fewer_photos_than_checkout', 'fuel_below_checkout', 'new_damage']);
    expect(a.findings.find((f: any) => f.code === 'new_damage').damages).toEqual(['stern cracked rub rail']);
    expect(a.findings.find((f: any) => f.code === 'fuel_below_checkout')).toMatchObject({ checkout: 100, checkin: 60 });
  });

  it('reports a clean return as severity none, and skips check-ins without photos and other record types', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const asset = item.assets[1].assetId;
    await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkout', AssetId: asset, timestamp: '2026-06-02T09:00:00Z', Details: { fuelLevel: 80, photos: ['a'] } },
      { key: op.adminKey },
    );
    const clean = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkin', AssetId: asset, timestamp: '2026-06-02T12:00:00Z', Details: { fuelLevel: 78, photos: ['b'] } },
      { key: op.adminKey },
    );
    expect(clean.body.Details.conditionAnalysis).toMatchObject({ severity: 'none', findings: [] });
    const noPhotos = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkin', timestamp: '2026-06-02T13:00:00Z', Details: { fuelLevel: 10 } },
      { key: op.adminKey },
    );
    expect(noPhotos.body.Details.conditionAnalysis).toBeUndefined();
    const damage = await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'damage', timestamp: '2026-06-02T14:00:00Z', Details: { photos: ['c'] } },
      { key: op.adminKey },
    );
    expect(damage.body.Details.conditionAnalysis).toBeUndefined();
    // Adding photos later through PATCH runs the analysis (against the item's latest check-out before it).
    const later = await patch(
      '/boatRecords',
      { inventoryId: item.inventory_id, timestamp: '2026-06-02T13:00:00Z', Updates: { photos: ['d'] } },
      { key: op.adminKey },
    );
    expect(later.body.Details.conditionAnalysis).toMatchObject({ comparedTo: { timestamp: '2026-06-02T09:00:00.000Z' }, severity: 'minor' });
    expect(later.body.Details.conditionAnalysis.findings.map((f: any) => f.code)).toEqual(['fuel_below_checkout']);
  });
});

describe('GET /boatRecords and rundownRecords', () => {
  async function seedRecords(op: Operator, itemId: string, n: number) {
    for (let i = 0; i < n; i++) {
      const r = await post(
        '/boatRecords',
        { inventoryId: itemId, RecordType: i % 2 ? 'checkin' : 'checkout', Details: { i }, timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() },
        { key: op.adminKey },
      );
      expect(r.status, r.text).toBe(201);
    }
  }

  it('lists newest first, filtered by RecordType', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await seedRecords(op, item.inventory_id, 5);
    const all = await get(`/boatRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((r: any) => r.Details.i)).toEqual([4, 3, 2, 1, 0]);
    expect(all.body).toMatchObject({ count: 5, hasMore: false, nextToken: null });
    const ins = await get(`/boatRecords?inventoryId=${item.inventory_id}&RecordType=checkin`, { key: op.adminKey });
    expect(ins.body.data.map((r: any) => r.Details.i)).toEqual([3, 1]);
    const paged = await get(`/boatRecords?inventoryId=${item.inventory_id}&RecordType=checkout&limit=2`, { key: op.adminKey });
    expect(paged.body.data.map((r: any) => r.Details.i)).toEqual([4, 2]);
    const rest = await get(`/boatRecords?inventoryId=${item.inventory_id}&RecordType=checkout&limit=2&nextToken=${paged.body.nextToken}`, { key: op.adminKey });
    expect(rest.body.data.map((r: any) => r.Details.i)).toEqual([0]);
    expectError(await get('/boatRecords', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/boatRecords?inventoryId=inv_nope', { key: op.adminKey }), 404, 'not_found');
  });

  it('paginates the rundown with an opaque URL-safe nextToken', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await seedRecords(op, item.inventory_id, 7);
    const seen: number[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const q: string = `/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&limit=3${token ? `&nextToken=${encodeURIComponent(token)}` : ''}`;
      const r = await get(q, { key: op.adminKey });
      expect(r.status, r.text).toBe(200);
      expect(r.body.limit).toBe(3);
      seen.push(...r.body.data.map((x: any) => x.Details.i));
      token = r.body.nextToken;
      if (token) expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(r.body.hasMore).toBe(Boolean(token));
      pages++;
    } while (token && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0]);
    const def = await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(def.body).toMatchObject({ limit: 20, count: 7, hasMore: false, nextToken: null });
  });

  it('refuses an invalid nextToken, a token of another item and a bad limit with 400', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const other = await createItem(op, rentalData(op, { name: 'Other' }));
    await seedRecords(op, item.inventory_id, 3);
    const first = await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&limit=1`, { key: op.adminKey });
    expectError(await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&nextToken=garbage!!`, { key: op.adminKey }), 400, 'invalid_cursor');
    expectError(await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&nextToken=eyJ4IjoxfQ`, { key: op.adminKey }), 400, 'invalid_cursor');
    expectError(
      await get(`/boatRecords/rundownRecords?inventoryId=${other.inventory_id}&nextToken=${first.body.nextToken}`, { key: op.adminKey }),
      400,
      'invalid_cursor',
    );
    expectError(
      await get(`/boatRecords?inventoryId=${item.inventory_id}&RecordType=checkin&nextToken=${first.body.nextToken}`, { key: op.adminKey }),
      400,
      'invalid_cursor',
    );
    expectError(await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&limit=0`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/boatRecords/rundownRecords?inventoryId=${item.inventory_id}&limit=abc`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get('/boatRecords/rundownRecords', { key: op.adminKey }), 400, 'validation_failed');
  });

  it('are protected', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await checkSecurity(op, { method: 'GET', path: `/boatRecords?inventoryId=${item.inventory_id}`, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/boatRecords/rundownRecords?inventoryId=${item.inventory_id}`, otherStatus: 404 });
  });
});

describe('PATCH and DELETE /boatRecords', () => {
  it('merges Updates into Details (null removes a key) and deletes by timestamp', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    await post(
      '/boatRecords',
      { inventoryId: item.inventory_id, RecordType: 'checkout', Details: { fuelLevel: 90, notes: 'ok', crew: 2 }, timestamp: '2026-03-01T10:00:00Z' },
      { key: op.adminKey },
    );
    const r = await patch(
      '/boatRecords',
      { inventoryId: item.inventory_id, timestamp: '2026-03-01T05:00:00-05:00', Updates: { fuelLevel: 75, notes: null, signedBy: 'Sam' } },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.Details).toEqual({ fuelLevel: 75, crew: 2, signedBy: 'Sam' });
    expectError(
      await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: '2026-03-01T11:00:00Z', Updates: { a: 1 } }, { key: op.adminKey }),
      404,
      'not_found',
    );
    expectError(
      await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: '2026-03-01T10:00:00Z', Updates: {} }, { key: op.adminKey }),
      400,
      'no_changes',
    );
    expectError(
      await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: '2026-03-01T10:00:00Z' }, { key: op.adminKey }),
      400,
      'validation_failed',
    );

    const d = await del('/boatRecords', { inventoryId: item.inventory_id, timestamp: '2026-03-01T10:00:00.000Z' }, { key: op.adminKey });
    expect(d.status, d.text).toBe(200);
    expect(d.body).toMatchObject({ success: true, deleted: { RecordType: 'checkout', timestamp: '2026-03-01T10:00:00.000Z' } });
    expectError(await del('/boatRecords', { inventoryId: item.inventory_id, timestamp: '2026-03-01T10:00:00Z' }, { key: op.adminKey }), 404, 'not_found');
    expectError(await del('/boatRecords', { inventoryId: item.inventory_id }, { key: op.adminKey }), 400, 'validation_failed');
    const list = await get(`/boatRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(list.body.data).toHaveLength(0);
  });

  it('are protected; deleting needs the inventory permission, staff may write records', async () => {
    const op = await createOperator();
    const item = await createItem(op);
    const ts = '2026-04-01T10:00:00.000Z';
    await post('/boatRecords', { inventoryId: item.inventory_id, RecordType: 'checkout', Details: {}, timestamp: ts }, { key: op.adminKey });
    const staff = await op.addUser({ role: 'staff' });
    const byStaff = await patch('/boatRecords', { inventoryId: item.inventory_id, timestamp: ts, Updates: { checkedBy: 'staff' } }, { key: staff.key });
    expect(byStaff.status, byStaff.text).toBe(200);
    await checkSecurity(op, {
      method: 'PATCH',
      path: '/boatRecords',
      body: { inventoryId: item.inventory_id, timestamp: ts, Updates: { x: 1 } },
      otherStatus: 404,
    });
    await checkSecurity(op, {
      method: 'DELETE',
      path: '/boatRecords',
      body: { inventoryId: item.inventory_id, timestamp: ts },
      otherStatus: 404,
      adminOnly: true,
    });
    const still = await get(`/boatRecords?inventoryId=${item.inventory_id}`, { key: op.adminKey });
    expect(still.body.data[0].Details).toEqual({ checkedBy: 'staff' });
  });
});
