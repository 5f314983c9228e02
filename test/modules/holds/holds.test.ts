/** POST /holdAsset: a unit kept for an e-mail for 2 days, enforced at booking time, swept by cron. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, expectError, get, post, cronJobNames } from '../../harness';
import { expireHolds, nextHoldExpiry } from '../../../src/modules/holds/service';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { at, book, bookBody, email, rentalItem, tourItem, assetOverlaps } from '../bookings/factories';

const hold = (body: unknown, key?: string) => post('/holdAsset', body, key ? { key } : {});

describe('POST /holdAsset', () => {
  it('validates input (public: no credentials needed, 400 on missing fields)', async () => {
    const r = await hold({});
    expectError(r, 400, 'validation_failed');
    expect(new Set(r.body.details.map((d: any) => d.field))).toEqual(new Set(['customerId', 'email', 'inventoryId', 'locationId']));
    expectError(await hold({ customerId: 'c', email: 'nope', inventoryId: 'i', locationId: 'l' }), 400, 'validation_failed');
  });

  it('keeps one unit for the e-mail: others see one fewer, the same e-mail books it and consumes the hold', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const mail = email('waiting');
    const r = await hold({ customerId: op.customerId, email: mail, inventoryId: item.id, locationId: item.locationId });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'active', email: mail, assetIds: [item.assetIds[0]], created: true });
    const ttl = Date.parse(r.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(47.9 * 3_600_000);
    expect(ttl).toBeLessThanOrEqual(48 * 3_600_000);
    const w = { inventoryId: item.id, startTime: at(op.timezone, 1, '10:00'), endTime: at(op.timezone, 1, '12:00') };
    const avail = await get(`/availability?inventoryId=${item.id}&startTime=${encodeURIComponent(w.startTime)}&endTime=${encodeURIComponent(w.endTime)}`, {
      key: op.adminKey,
    });
    expect(avail.body).toMatchObject({ available: false, unitsFree: 0 });
    expectError(await book(op, bookBody({ ...w, email: email('other') })), 409, 'unavailable');
    // Holding again with the same e-mail answers the same hold.
    const again = await hold({ customerId: op.customerId, email: mail.toUpperCase(), inventoryId: item.id, locationId: item.locationId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ holdId: r.body.holdId, created: false });
    const mine = await book(op, bookBody({ ...w, email: mail }));
    expect(mine.status, mine.text).toBe(201);
    const row = await env.DB.prepare('SELECT status FROM holds WHERE id = ?').bind(r.body.holdId).first<any>();
    expect(row.status).toBe('consumed');
    const allocs = await env.DB.prepare('SELECT active FROM allocations WHERE source_id = ?').bind(r.body.holdId).all<any>();
    expect(allocs.results.every((a: any) => a.active === 0)).toBe(true);
    expect(await assetOverlaps(item.id)).toEqual([]);
  });

  it('answers 409 when no unit is free for the two days', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 1, '10:00'), endTime: at(op.timezone, 1, '11:00') }));
    expectError(await hold({ customerId: op.customerId, email: email(), inventoryId: item.id, locationId: item.locationId }), 409, 'unavailable');
  });

  it('tours: a seat on each departure of the next two days', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 1 });
    const r = await hold({ customerId: op.customerId, email: email(), inventoryId: tour.id, locationId: tour.locationId });
    expect(r.status, r.text).toBe(201);
    expect(r.body.departures.length).toBeGreaterThanOrEqual(2);
    const first = r.body.departures[0].startTime;
    expectError(await book(op, bookBody({ inventoryId: tour.id, startTime: first, tickets: { Adult: 1 } })), 409, 'unavailable');
  });

  it('customer, item and location must belong together; a foreign customerId is 403', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const item = await rentalItem(op);
    const base = { customerId: op.customerId, email: email(), inventoryId: item.id, locationId: item.locationId };
    expectError(await hold({ ...base, locationId: other.locationId }), 404, 'not_found');
    expectError(await hold({ ...base, customerId: other.customerId }), 404, 'not_found');
    expectError(await hold({ ...base, customerId: 'cus_nobody' }), 404, 'not_found');
    expectError(await hold({ ...base, inventoryId: 'inv_nope' }), 404, 'not_found');
    expectError(await hold(base, other.adminKey), 403, 'forbidden');
    expect((await hold(base, op.adminKey)).status).toBe(201);
    expectError(await api('POST', '/holdAsset', { body: base, key: 'brk_not_a_real_key_000000000000000000000' }), 401, 'unauthenticated');
  });

  it('expired holds stop counting at once and the cron sweep marks them', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const r = await hold({ customerId: op.customerId, email: email(), inventoryId: item.id, locationId: item.locationId });
    await env.DB.prepare("UPDATE holds SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").bind(r.body.holdId).run();
    await env.DB.prepare('UPDATE allocations SET expires_at = 1 WHERE source_id = ?').bind(r.body.holdId).run();
    const w = { inventoryId: item.id, startTime: at(op.timezone, 1, '10:00'), endTime: at(op.timezone, 1, '12:00') };
    expect((await book(op, bookBody({ ...w, email: email('late') }))).status).toBe(201);
    expect(cronJobNames('*/5 * * * *')).toContain('holds.expire');
    const res = await expireHolds(systemCtx(env));
    expect(res.expired).toBeGreaterThanOrEqual(1);
    const row = await env.DB.prepare('SELECT status FROM holds WHERE id = ?').bind(r.body.holdId).first<any>();
    expect(row.status).toBe('expired');
    const a = await env.DB.prepare('SELECT active FROM allocations WHERE source_id = ?').bind(r.body.holdId).first<any>();
    expect(a.active).toBe(0);
  });

  it('holds and bookings racing for the last unit: exactly one wins', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const w = { inventoryId: item.id, startTime: at(op.timezone, 1, '10:00'), endTime: at(op.timezone, 1, '12:00') };
    const rs = await Promise.all([
      ...Array.from({ length: 5 }, () => hold({ customerId: op.customerId, email: email('h'), inventoryId: item.id, locationId: item.locationId })),
      ...Array.from({ length: 5 }, () => book(op, bookBody({ ...w, email: email('b') }))),
    ]);
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    expect(rs.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await assetOverlaps(item.id)).toEqual([]);
  });

  it("runs on the operator's clock: a hold from a pinned clock's now for two days, due then (nextDue) and expired then", async () => {
    const NOW = Date.parse('2026-12-10T15:00:00.000Z');
    const op = await createOperator({ clockAt: NOW });
    const item = await rentalItem(op, { assets: 1 });
    // Anonymous: the operator is named in the body, and its clock is the one read.
    const r = await hold({ customerId: op.customerId, email: email(), inventoryId: item.id, locationId: item.locationId });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ createdAt: new Date(NOW).toISOString(), expiresAt: new Date(NOW + 48 * 3_600_000).toISOString() });
    const ctxAt = (t: number) => systemCtx(env, { customerId: op.customerId, clock: fixedClock(t, op.clockId!) });
    expect(await nextHoldExpiry(ctxAt(NOW))).toBe(NOW + 48 * 3_600_000);
    // The wall clock's sweep leaves an operator on a test clock alone.
    await expireHolds(systemCtx(env, { clock: fixedClock(NOW + 72 * 3_600_000) }));
    expect((await env.DB.prepare('SELECT status FROM holds WHERE id = ?').bind(r.body.holdId).first<any>()).status).toBe('active');
    expect(await expireHolds(ctxAt(NOW + 48 * 3_600_000 - 1))).toEqual({ expired: 0 });
    expect(await expireHolds(ctxAt(NOW + 48 * 3_600_000))).toEqual({ expired: 1 });
    expect((await env.DB.prepare('SELECT active FROM allocations WHERE source_id = ?').bind(r.body.holdId).first<any>()).active).toBe(0);
    expect(await nextHoldExpiry(ctxAt(NOW + 48 * 3_600_000))).toBeNull();
  });
});
