import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { base64Encode } from '../../../src/lib/crypto';
import { dayAt, DAY, HOUR, makeBooking, makeItem, makeLocation, makeRenter } from './factories';

const q = (params: Record<string, string | number | boolean>) =>
  '?' + new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
const b64json = (o: unknown) => base64Encode(new TextEncoder().encode(JSON.stringify(o)));

async function fixture() {
  const op = await createOperator({ timezone: 'America/New_York' });
  const item = await makeItem(op, { name: 'Pontoon 22', assets: 3 });
  const other = await makeItem(op, { name: 'Kayak' });
  const renter = await makeRenter(op, { firstName: 'Marta', lastName: 'Kowalski', email: 'marta.k@renter.test' });
  const b1 = await makeBooking(op, {
    item,
    start: dayAt(1),
    status: 'confirmed',
    customerInfo: { firstName: 'Alice', lastName: 'Nguyen', email: 'alice@renter.test' },
  });
  const b2 = await makeBooking(op, { item, start: dayAt(2), status: 'pending', renterId: renter.id, customerInfo: null });
  const b3 = await makeBooking(op, { item, start: dayAt(3), status: 'cancelled', customerInfo: { name: 'Bob Stone', email: 'bob@renter.test' } });
  const b4 = await makeBooking(op, { item, start: dayAt(10), status: 'checked_in', assetIds: [item.assetIds[1]] });
  const bOther = await makeBooking(op, { item: other, start: dayAt(1), status: 'confirmed' });
  return { op, item, other, renter, b1, b2, b3, b4, bOther };
}

describe('GET /schedule/schedule', () => {
  it("lists an item's bookings with renters, status counts and page info", async () => {
    const { op, item, b1, b2, b3, b4 } = await fixture();
    const r = await get(`/schedule/schedule${q({ inventory_id: item.id })}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id, b2.id, b3.id, b4.id]);
    expect(r.body.total).toBe(4);
    expect(r.body.timezone).toBe('America/New_York');
    expect(r.body.statusCounts).toEqual({ confirmed: 1, pending: 1, cancelled: 1, checked_in: 1 });
    const e1 = r.body.data[0];
    expect(e1.renter).toMatchObject({ firstName: 'Alice', lastName: 'Nguyen', name: 'Alice Nguyen', email: 'alice@renter.test' });
    expect(e1.inventoryName).toBe('Pontoon 22');
    expect(e1.total).toBe(200);
    expect(e1.startTime).toBe(new Date(b1.start).toISOString());
    // renter from the renters table when customer_info has none
    expect(r.body.data[1].renter).toMatchObject({ renterId: b2.renterId, firstName: 'Marta', lastName: 'Kowalski', email: 'marta.k@renter.test' });
  });

  it('filters by status list, window, rental id; sorts and pages', async () => {
    const { op, item, b1, b2, b3, b4 } = await fixture();
    const key = op.adminKey;
    let r = await get(`/schedule/schedule${q({ inventory_id: item.id, status_filter: 'pending,confirmed' })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id, b2.id]);
    expect(r.body.statusCounts.cancelled).toBe(1);

    const d = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    r = await get(`/schedule/schedule${q({ inventory_id: item.id, start_date: d(b2.start), end_date: d(b3.start) })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b2.id, b3.id]);

    r = await get(`/schedule/schedule${q({ inventory_id: item.id, start_date: new Date(b1.start + HOUR).toISOString() })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b2.id, b3.id, b4.id]);
    r = await get(`/schedule/schedule${q({ inventory_id: item.id, start_date: new Date(b1.start + HOUR).toISOString(), extend: true })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id, b2.id, b3.id, b4.id]);

    r = await get(`/schedule/schedule${q({ inventory_id: item.id, search_rental_id: b3.id.slice(-10).toLowerCase() })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b3.id]);

    r = await get(`/schedule/schedule${q({ inventory_id: item.id, sort_by: 'start', sort_order: 'desc', page: 2, limit: 3 })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id]);
    expect(r.body).toMatchObject({ page: 2, limit: 3, total: 4, totalPages: 2, hasMore: false });
    r = await get(`/schedule/schedule${q({ inventory_id: item.id, page: 1, limit: 3, use_parallel: true, use_scan: 'false' })}`, { key });
    expect(r.body).toMatchObject({ total: 4, hasMore: true });
  });

  it('answers dates only, and drydock periods when asked', async () => {
    const { op, item, b1 } = await fixture();
    await makeBooking(op, { item, start: b1.start + 3 * HOUR });
    const r = await get(`/schedule/schedule${q({ inventory_id: item.id, dates_only: true, include_drydock: true })}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toBeUndefined();
    expect(r.body.dates[0]).toEqual({ date: b1.localDate, count: 2 });
    expect(r.body.dates).toHaveLength(4);
    expect(r.body.drydock).toEqual([]);
  });

  it('validates input: missing inventory_id, unknown status, bad sort, bad dates', async () => {
    const { op, item } = await fixture();
    const key = op.adminKey;
    expectError(await get('/schedule/schedule', { key }), 400, 'validation_failed');
    const bad = await get(`/schedule/schedule${q({ inventory_id: item.id, status_filter: 'confirmed,teleported' })}`, { key });
    expectError(bad, 400, 'validation_failed');
    expect(bad.body.message).toContain('teleported');
    expectError(await get(`/schedule/schedule${q({ inventory_id: item.id, sort_by: 'price' })}`, { key }), 400);
    expectError(await get(`/schedule/schedule${q({ inventory_id: item.id, start_date: '2025-13-45' })}`, { key }), 400);
    expectError(await get(`/schedule/schedule${q({ inventory_id: item.id, start_date: '2025-07-10', end_date: '2025-07-01' })}`, { key }), 400);
    expectError(await get(`/schedule/schedule${q({ inventory_id: item.id, limit: 0 })}`, { key }), 400);
    expectError(await get(`/schedule/schedule${q({ inventory_id: 'inv_nope' })}`, { key }), 404, 'not_found');
  });

  it('passes the security checks', async () => {
    const { op, item } = await fixture();
    await checkSecurity(op, { method: 'GET', path: `/schedule/schedule${q({ inventory_id: item.id })}`, otherStatus: 404 });
  });
});

describe('GET /schedule/schedule/search', () => {
  it('finds bookings by partial rental id, name (booking or renter record) and e-mail', async () => {
    const { op, item, b1, b2, b3 } = await fixture();
    const key = op.adminKey;
    let r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, customer_name: 'nguy' })}`, { key });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id]);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, customer_name: 'Alice Nguyen' })}`, { key });
    expect(r.body.total).toBe(1);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, customer_name: 'kowal' })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b2.id]);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, customer_name: 'bob stone' })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b3.id]);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, email: 'MARTA.K@' })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b2.id]);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, rental_id: b1.id.slice(3, 15) })}`, { key });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b1.id]);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, email: '%' })}`, { key });
    expect(r.body.total).toBe(0);
    r = await get(`/schedule/schedule/search${q({ inventory_id: item.id, customer_name: 'alice', email: 'bob' })}`, { key });
    expect(r.body.total).toBe(0);
  });

  it('needs inventory_id and a search term', async () => {
    const { op, item } = await fixture();
    expectError(await get('/schedule/schedule/search', { key: op.adminKey }), 400);
    expectError(await get(`/schedule/schedule/search${q({ inventory_id: item.id })}`, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('passes the security checks', async () => {
    const { op, item } = await fixture();
    await checkSecurity(op, { method: 'GET', path: `/schedule/schedule/search${q({ inventory_id: item.id, email: 'a' })}`, otherStatus: 404 });
  });
});

describe('GET /schedule/location', () => {
  it('lists the bookings of several locations with per-location counts', async () => {
    const { op, b1, b2, b3, b4, bOther } = await fixture();
    const loc2 = await makeLocation(op, { name: 'Lake dock', timezone: 'Europe/Berlin' });
    const item2 = await makeItem(op, { locationId: loc2 });
    const b5 = await makeBooking(op, { item: item2, start: dayAt(5), timezone: 'Europe/Berlin' });
    const r = await get(`/schedule/location${q({ location_ids: JSON.stringify([op.locationId, loc2]) })}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.total).toBe(6);
    expect(r.body.locations).toEqual([
      { locationId: op.locationId, name: 'Main dock', timezone: 'America/New_York', count: 5 },
      { locationId: loc2, name: 'Lake dock', timezone: 'Europe/Berlin', count: 1 },
    ]);
    expect(new Set(r.body.data.map((e: any) => e.rentalId))).toEqual(new Set([b1.id, b2.id, b3.id, b4.id, bOther.id, b5.id]));
    const light = await get(`/schedule/location${q({ location_ids: JSON.stringify([loc2]), lightweight: true })}`, { key: op.adminKey });
    expect(light.body.data).toEqual([
      {
        rentalId: b5.id,
        status: 'confirmed',
        startTime: new Date(b5.start).toISOString(),
        endTime: new Date(b5.end).toISOString(),
        inventoryId: item2.id,
        assetIds: b5.assetIds,
      },
    ]);
    const filtered = await get(`/schedule/location${q({ location_ids: JSON.stringify([op.locationId]), status_filter: 'cancelled' })}`, { key: op.adminKey });
    expect(filtered.body.data.map((e: any) => e.rentalId)).toEqual([b3.id]);
  });

  it('refuses anything but a JSON array of strings, and foreign locations', async () => {
    const { op } = await fixture();
    const key = op.adminKey;
    expectError(await get('/schedule/location', { key }), 400);
    for (const bad of ['loc_1', '{"a":1}', '[]', '[1,2]', '["ok", ""]', '[null]']) {
      expectError(await get(`/schedule/location${q({ location_ids: bad })}`, { key }), 400, 'validation_failed');
    }
    const intruder = await otherOperator();
    expectError(await get(`/schedule/location${q({ location_ids: JSON.stringify([op.locationId, intruder.locationId]) })}`, { key }), 404, 'not_found');
  });

  it('passes the security checks', async () => {
    const { op } = await fixture();
    await checkSecurity(op, { method: 'GET', path: `/schedule/location${q({ location_ids: JSON.stringify([op.locationId]) })}`, otherStatus: 404 });
  });
});

describe('GET /schedule/by-customer-status and /schedule/by-location-status', () => {
  it("lists the account's bookings by status, full or lightweight", async () => {
    const { op, b1, b2, bOther } = await fixture();
    let r = await get(`/schedule/by-customer-status${q({ status: 'confirmed' })}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: any) => e.rentalId).sort()).toEqual([b1.id, bOther.id].sort());
    expect(r.body.statusCounts).toMatchObject({ confirmed: 2, pending: 1, cancelled: 1, checked_in: 1 });
    r = await get(`/schedule/by-customer-status${q({ customer_id: op.customerId, status: 'pending,confirmed', lightweight: true, sort_order: 'desc' })}`, {
      key: op.adminKey,
    });
    expect(r.body.total).toBe(3);
    expect(Object.keys(r.body.data[0]).sort()).toEqual(['assetIds', 'endTime', 'inventoryId', 'rentalId', 'startTime', 'status']);
    const starts = r.body.data.map((e: any) => e.startTime);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(r.body.data.map((e: any) => e.rentalId)).toContain(b2.id);
  });

  it('refuses a foreign customer_id with 403 and an unknown status with 400', async () => {
    const { op } = await fixture();
    const intruder = await otherOperator();
    expectError(await get(`/schedule/by-customer-status${q({ customer_id: intruder.customerId })}`, { key: op.adminKey }), 403, 'forbidden');
    expectError(await get(`/schedule/by-customer-status${q({ status: 'lost' })}`, { key: op.adminKey }), 400);
  });

  it('filters one location by status and local dates', async () => {
    const { op, b4 } = await fixture();
    const loc2 = await makeLocation(op);
    const r = await get(
      `/schedule/by-location-status${q({ location_id: op.locationId, status: 'checked_in', start_date: b4.localDate, end_date: b4.localDate })}`,
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b4.id]);
    const empty = await get(`/schedule/by-location-status${q({ location_id: loc2 })}`, { key: op.adminKey });
    expect(empty.body).toMatchObject({ data: [], total: 0 });
    expectError(await get('/schedule/by-location-status', { key: op.adminKey }), 400);
  });

  it('passes the security checks', async () => {
    const { op } = await fixture();
    await checkSecurity(op, { method: 'GET', path: `/schedule/by-customer-status${q({ customer_id: op.customerId })}`, otherStatus: 403 });
    await checkSecurity(op, { method: 'GET', path: `/schedule/by-location-status${q({ location_id: op.locationId })}`, otherStatus: 404 });
  });
});

describe('GET /schedule/schedules/paginated and /count', () => {
  it('walks every booking with cursors that carry the filters', async () => {
    const op = await createOperator();
    const item = await makeItem(op);
    const made = [];
    const t0 = dayAt(1);
    for (let i = 0; i < 7; i++) made.push(await makeBooking(op, { item, start: t0 + Math.floor(i / 2) * DAY, status: i === 3 ? 'cancelled' : 'confirmed' }));
    const expected = made
      .filter((b) => b.status === 'confirmed')
      .sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : 1))
      .map((b) => b.id);
    const seen: string[] = [];
    let r = await get(`/schedule/schedules/paginated${q({ limit: 4, filters: JSON.stringify({ status: 'confirmed' }) })}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    seen.push(...r.body.data.map((e: any) => e.rentalId));
    expect(r.body.hasMore).toBe(true);
    const decoded = JSON.parse(atob(r.body.nextCursor));
    expect(decoded).toMatchObject({ v: 1, filters: { status: 'confirmed' } });
    expect(decoded.after).toEqual([Date.parse(r.body.data[3].startTime), r.body.data[3].rentalId]);
    // bookings added while paging: one before the cursor position is not seen, one after it is
    await makeBooking(op, { item, start: t0 - DAY });
    const late = await makeBooking(op, { item, start: t0 + 9 * DAY });
    r = await get(`/schedule/schedules/paginated${q({ limit: 4, cursor: r.body.nextCursor })}`, { key: op.adminKey });
    seen.push(...r.body.data.map((e: any) => e.rentalId));
    expect(r.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(seen).toEqual([...expected, late.id]);
    // same filters beside the cursor are fine; different ones are refused
    const first = await get(`/schedule/schedules/paginated${q({ limit: 2, filters: '{"status":"confirmed"}' })}`, { key: op.adminKey });
    const again = await get(`/schedule/schedules/paginated${q({ limit: 2, cursor: first.body.nextCursor, filters: '{"status":"confirmed"}' })}`, {
      key: op.adminKey,
    });
    expect(again.status).toBe(200);
    expectError(
      await get(`/schedule/schedules/paginated${q({ limit: 2, cursor: first.body.nextCursor, filters: '{"status":"pending"}' })}`, { key: op.adminKey }),
      400,
      'invalid_cursor',
    );
  });

  it('refuses invalid cursors and filters with 400', async () => {
    const op = await createOperator();
    const key = op.adminKey;
    for (const bad of [
      '%%%not-base64',
      b64json([1, 2]),
      btoa('not json'),
      b64json({ after: ['x', 'bk_1'] }),
      b64json({ after: [1] }),
      b64json({ after: [1, 'bk_1'], filters: { colour: 'red' } }),
    ]) {
      expectError(await get(`/schedule/schedules/paginated${q({ cursor: bad })}`, { key }), 400, 'invalid_cursor');
    }
    for (const bad of ['not json', '[1]', '{"status":"teleported"}', '{"colour":"red"}', '{"startDate":"tomorrow"}']) {
      const r = await get(`/schedule/schedules/paginated${q({ filters: bad })}`, { key });
      expectError(r, 400, 'validation_failed');
      expect(r.body.details[0].field).toMatch(/^filters/);
      expectError(await get(`/schedule/schedules/count${q({ filters: bad })}`, { key }), 400, 'validation_failed');
    }
    expectError(await get(`/schedule/schedules/paginated${q({ limit: 501 })}`, { key }), 400);
  });

  it('accepts a hand-built cursor (base64 JSON) and counts with filters', async () => {
    const op = await createOperator();
    const item = await makeItem(op);
    const other = await makeItem(op);
    const a = await makeBooking(op, { item, start: dayAt(1), customerInfo: { firstName: 'Zed', email: 'zed@renter.test' } });
    const b = await makeBooking(op, { item, start: dayAt(2), status: 'pending' });
    await makeBooking(op, { item: other, start: dayAt(3) });
    const cursor = b64json({ after: [a.start, a.id], filters: { inventoryId: item.id } });
    const r = await get(`/schedule/schedules/paginated${q({ cursor })}`, { key: op.adminKey });
    expect(r.body.data.map((e: any) => e.rentalId)).toEqual([b.id]);
    const urlSafe = cursor.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect((await get(`/schedule/schedules/paginated${q({ cursor: urlSafe })}`, { key: op.adminKey })).body.data.map((e: any) => e.rentalId)).toEqual([b.id]);

    let c = await get('/schedule/schedules/count', { key: op.adminKey });
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ total: 3, byStatus: { confirmed: 2, pending: 1 } });
    c = await get(`/schedule/schedules/count${q({ filters: JSON.stringify({ inventoryId: [item.id], status: ['confirmed', 'pending'] }) })}`, {
      key: op.adminKey,
    });
    expect(c.body.total).toBe(2);
    c = await get(`/schedule/schedules/count${q({ filters: JSON.stringify({ search: 'zed@' }) })}`, { key: op.adminKey });
    expect(c.body.total).toBe(1);
    c = await get(`/schedule/schedules/count${q({ filters: JSON.stringify({ startDate: b.localDate }) })}`, { key: op.adminKey });
    expect(c.body.total).toBe(2);
  });

  it('passes the security checks (another operator sees nothing of ours)', async () => {
    const op = await createOperator();
    const item = await makeItem(op);
    await makeBooking(op, { item, start: dayAt(1) });
    await checkSecurity(op, { method: 'GET', path: '/schedule/schedules/paginated' });
    await checkSecurity(op, { method: 'GET', path: '/schedule/schedules/count' });
    const intruder = await otherOperator();
    const r = await get(`/schedule/schedules/paginated${q({ filters: JSON.stringify({ inventoryId: item.id }) })}`, { key: intruder.adminKey });
    expect(r.body.data).toEqual([]);
    const c = await get(`/schedule/schedules/count${q({ filters: JSON.stringify({ inventoryId: item.id }) })}`, { key: intruder.adminKey });
    expect(c.body.total).toBe(0);
  });
});
