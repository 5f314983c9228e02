/**
 * Real races: many parallel requests through the Worker at one item. The invariant is asserted
 * (never more sold than capacity, no asset allocated twice), not a timing.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator } from '../../harness';
import { assetOverlaps, at, book, bookBody, counts, rentalItem, seatsByDeparture, tourItem } from './factories';

const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();

describe('parallel bookings of one slot', () => {
  it('capacity 1: exactly one of 15 wins, the rest 409, nothing oversold', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const w = { inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') };
    const rs = await Promise.all(Array.from({ length: 15 }, () => book(op, bookBody(w))));
    expect(statuses(rs)).toEqual([201, ...Array(14).fill(409)]);
    // Refused by the lock itself (with the engine's reasons), not only by the database backstop.
    for (const r of rs.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ error: 'unavailable', reasons: [{ code: 'sold_out' }] });
    expect(await assetOverlaps(item.id)).toEqual([]);
    const c = await counts(op.customerId);
    expect(c.bookings).toBe(1);
    expect(c.allocations).toBe(1);
    // Losers left nothing: one renter per winner only, no stray ledger rows or events.
    expect(c.renters).toBe(1);
    const txns = await env.DB.prepare('SELECT COUNT(DISTINCT transaction_id) AS n FROM ledger_entries WHERE customer_id = ?').bind(op.customerId).first<any>();
    expect(txns.n).toBe(1);
  });

  it('a pool of 3 assets: exactly 3 of 15 win, each on a different boat', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const w = { inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') };
    const rs = await Promise.all(Array.from({ length: 15 }, () => book(op, bookBody(w))));
    expect(statuses(rs)).toEqual([201, 201, 201, ...Array(12).fill(409)]);
    for (const r of rs.filter((x) => x.status === 409)) expect(r.body.reasons?.[0]?.code).toBe('sold_out');
    const assets = rs.filter((r) => r.status === 201).map((r) => r.body.assetIds[0]);
    expect(new Set(assets).size).toBe(3);
    expect(await assetOverlaps(item.id)).toEqual([]);
    expect((await counts(op.customerId)).bookings).toBe(3);
  });

  it('a tour with 3 seats: exactly 3 single seats of 12 are sold', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const start = at(op.timezone, 4, '10:00');
    const rs = await Promise.all(Array.from({ length: 12 }, () => book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 1 } }))));
    expect(statuses(rs)).toEqual([201, 201, 201, ...Array(9).fill(409)]);
    const seats = await seatsByDeparture(tour.id);
    expect(seats).toEqual([{ start: Date.parse(start), seats: 3, capacity: 3 }]);
  });

  it('a tour with 3 seats and parties of 2: one party fits, never 4 seats', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const start = at(op.timezone, 4, '14:00');
    const rs = await Promise.all(
      Array.from({ length: 10 }, (_, i) => book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: i % 2 ? { Adult: 2 } : { Adult: 1 } }))),
    );
    const sold = rs.filter((r) => r.status === 201).reduce((s, r) => s + r.body.quantity, 0);
    expect(sold).toBeLessThanOrEqual(3);
    expect(sold).toBeGreaterThanOrEqual(2);
    expect(rs.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const [dep] = await seatsByDeparture(tour.id);
    expect(dep.seats).toBe(sold);
  });

  it('overlapping windows of different lengths on one boat never overlap', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1, data: { turnaroundBufferMinutes: 30 } });
    const windows = [
      ['09:00', '11:00'],
      ['10:00', '12:00'],
      ['11:00', '13:00'],
      ['11:30', '12:30'],
      ['13:00', '15:00'],
      ['14:00', '16:00'],
      ['15:30', '17:00'],
      ['09:30', '10:30'],
      ['12:00', '14:00'],
      ['16:00', '18:00'],
    ];
    const rs = await Promise.all(
      windows.map(([s, e]) => book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 6, s), endTime: at(op.timezone, 6, e) }))),
    );
    expect(rs.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(rs.some((r) => r.status === 201)).toBe(true);
    expect(await assetOverlaps(item.id)).toEqual([]);
    const won = rs
      .filter((r) => r.status === 201)
      .map((r) => [Date.parse(r.body.startTime), Date.parse(r.body.endTime)])
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < won.length; i++) expect(won[i][0]).toBeGreaterThanOrEqual(won[i - 1][1] + 30 * 60_000);
  });

  it('parallel multi-item orders and single bookings share the locks without deadlock or oversell', async () => {
    const op = await createOperator();
    const a = await rentalItem(op, { assets: 1 });
    const b = await rentalItem(op, { assets: 1 });
    const wa = { inventoryId: a.id, startTime: at(op.timezone, 8, '10:00'), endTime: at(op.timezone, 8, '12:00') };
    const wb = { inventoryId: b.id, startTime: at(op.timezone, 8, '10:00'), endTime: at(op.timezone, 8, '12:00') };
    const order = (first: typeof wa, second: typeof wb) => ({ ...bookBody({}), rentalDetails: { items: [first, second] } });
    const rs = await Promise.all([
      book(op, order(wa, wb)),
      book(op, order(wb, wa)),
      book(op, bookBody(wa)),
      book(op, bookBody(wb)),
      book(op, order(wa, wb)),
      book(op, bookBody(wa)),
    ]);
    expect(rs.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(await assetOverlaps(a.id)).toEqual([]);
    expect(await assetOverlaps(b.id)).toEqual([]);
    const perItem = await env.DB.prepare('SELECT item_id, COUNT(*) AS n FROM allocations WHERE customer_id = ? AND active = 1 GROUP BY item_id')
      .bind(op.customerId)
      .all<any>();
    for (const row of perItem.results) expect(row.n).toBe(1);
    // Every winning order took both items or neither.
    for (const r of rs.filter((x) => x.status === 201 && x.body.rentals.length === 2))
      expect(r.body.rentals.map((x: any) => x.inventoryId).sort()).toEqual([a.id, b.id].sort());
  });

  it('the D1 guard is the last line of defence: a write that slipped past the lock answers 409 and the payment is refunded', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const start = Date.parse(at(op.timezone, 9, '10:00'));
    // An allocation of the same asset that the item's lock cannot see (filed under another item id).
    await env.DB.prepare(
      `INSERT INTO allocations (id, customer_id, item_id, asset_id, kind, source_id, start, "end", blocked_start, blocked_end, seats, active, created_at)
       VALUES ('alc_stray', ?, 'inv_elsewhere', ?, 'booking', 'bk_stray', ?, ?, ?, ?, 1, 1, '2026-01-01')`,
    )
      .bind(op.customerId, item.assetIds[0], start, start + 7_200_000, start, start + 7_200_000)
      .run();
    const before = await counts(op.customerId);
    const r = await book(op, bookBody({ inventoryId: item.id, startTime: new Date(start).toISOString(), endTime: new Date(start + 7_200_000).toISOString() }));
    expect(r.status, r.text).toBe(409);
    expect(r.body.error).toBe('unavailable');
    expect(await counts(op.customerId)).toEqual(before);
    const pi = await env.DB.prepare("SELECT amount_received, amount_refunded FROM sim_payment_intents WHERE metadata LIKE ? AND capture_method = 'automatic'")
      .bind(`%${op.customerId}%`)
      .first<any>();
    expect(pi).toMatchObject({ amount_received: 20000, amount_refunded: 20000 });
  });
});
