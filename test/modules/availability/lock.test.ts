/** The InventoryLock object directly: pending reservations count, written ones count once and are forgotten, release and forget free. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { createOperator, db, post } from '../../harness';
import { allocations } from '../../../src/db/schema/inventory';
import { renters } from '../../../src/db/schema/bookings';
import { forgetDeleted, lockOf, type ReserveRequest, type Reservation } from '../../../src/modules/availability/lock';
import { at, bookBody, tourItem, rentalItem } from '../bookings/factories';

describe('InventoryLock', () => {
  it('counts a pending reservation until it is released, and a written one once', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 2 });
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    const req = (sourceId: string, seats: number): ReserveRequest => ({
      customerId: op.customerId,
      itemId: tour.id,
      line: { kind: 'booking', sourceId, start, end: start + 7_200_000, seats, enforceRules: false },
    });
    const lock = lockOf(env, tour.id);

    const a = (await lock.reserve(req('bk_a', 1))) as Reservation;
    expect(a.ok).toBe(true);
    // Pending (payment in flight): only one seat is left for anyone else.
    const b2 = await lock.reserve(req('bk_b', 2));
    expect(b2).toMatchObject({ ok: false, code: 'unavailable', seatsFree: 1 });
    // A is written but not yet released: still one seat left, not zero.
    await db()
      .insert(allocations)
      .values({ ...a.allocations[0], createdAt: new Date().toISOString() });
    const b1 = (await lock.reserve(req('bk_b', 1))) as Reservation;
    expect(b1.ok).toBe(true);
    expect(await lock.reserve(req('bk_c', 1))).toMatchObject({ ok: false, seatsFree: 0 });
    // B fails (say a declined card) and releases: its seat is free again.
    expect(await lock.release(b1.reservationId)).toBe(true);
    expect(await lock.release(b1.reservationId)).toBe(false);
    expect(((await lock.reserve(req('bk_c', 1))) as Reservation).ok).toBe(true);
    // A was seen written by the reads since: the lock forgot it on its own (a sale never calls back after its write).
    expect(await lock.release(a.reservationId)).toBe(false);
  });

  it('a written sale needs no call back: its write runs through the lock, which settles it as it commits, so nothing piles up', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const lock = lockOf(env, item.id);
    for (let day = 3; day < 8; day++) {
      const r = await post(
        '/coreBooking/book',
        bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '11:00') }),
        {
          key: op.adminKey,
        },
      );
      expect(r.status, r.text).toBe(201);
      // Nothing is pending in the lock: the sale's write ran in the lock's group commit, which settled it.
      expect(await lock.pendingCount()).toBe(0);
    }
    // Written rows count from D1: both units of day 3 taken by one more sale each, the third refused.
    const more = await Promise.all(
      [0, 1, 2].map(() =>
        post('/coreBooking/book', bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:30'), endTime: at(op.timezone, 3, '11:30') }), {
          key: op.adminKey,
        }),
      ),
    );
    expect(more.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('group commit: parallel sales of one item by one new renter all land; a write refused in a shared call runs again alone, failing no other', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 4 });
    const window = { inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '11:00') };
    // Each sale creates the same new renter: in a shared call the second insert of the e-mail aborts the call, and each write runs alone.
    const sale = () => post('/coreBooking/book', bookBody({ ...window, email: 'group@renter.test' }), { key: op.adminKey });
    const sales = await Promise.all([0, 1, 2, 3].map(sale));
    expect(sales.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const assets = sales.map((r) => (r.body as { assetIds: string[] }).assetIds[0]);
    expect(new Set(assets).size).toBe(4);
    const rows = await db()
      .select({ id: renters.id })
      .from(renters)
      .where(and(eq(renters.customerId, op.customerId), eq(renters.email, 'group@renter.test')));
    expect(rows).toHaveLength(1);
    const taken = await db().select({ id: allocations.id }).from(allocations).where(eq(allocations.itemId, item.id));
    expect(taken).toHaveLength(4);
    // Every write settled its reservation as it committed; the fifth sale finds the four rows in D1.
    expect(await lockOf(env, item.id).pendingCount()).toBe(0);
    const fifth = await post('/coreBooking/book', bookBody(window), { key: op.adminKey });
    expect(fifth.status, fifth.text).toBe(409);
  });

  it('forget: rows deleted before any read saw them stop counting at once', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    const line = { kind: 'booking' as const, sourceId: 'bk_f', start, end: start + 3_600_000, enforceRules: false };
    const lock = lockOf(env, item.id);
    const a = (await lock.reserve({ customerId: op.customerId, itemId: item.id, line })) as Reservation;
    expect(a.ok).toBe(true);
    // Written, then deleted (a sandbox reset) before the lock read again.
    await db()
      .insert(allocations)
      .values({ ...a.allocations[0], createdAt: new Date().toISOString() });
    await db().delete(allocations).where(eq(allocations.id, a.allocations[0].id));
    expect(await lock.reserve({ customerId: op.customerId, itemId: item.id, line: { ...line, sourceId: 'bk_g' } })).toMatchObject({
      ok: false,
      code: 'unavailable',
    });
    await forgetDeleted(env, [{ itemId: item.id, id: a.allocations[0].id }]);
    expect(await lock.pendingCount()).toBe(0);
    const b = (await lock.reserve({ customerId: op.customerId, itemId: item.id, line: { ...line, sourceId: 'bk_g' } })) as Reservation;
    expect(b.ok).toBe(true);
    expect(await lock.release(b.reservationId)).toBe(true);
  });

  it('refuses unknown or foreign items and a changed item version', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const item = await rentalItem(op);
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    const line = { kind: 'booking' as const, sourceId: 'bk_x', start, end: start + 3_600_000, enforceRules: false };
    expect(await lockOf(env, item.id).reserve({ customerId: other.customerId, itemId: item.id, line })).toMatchObject({ ok: false, status: 404 });
    expect(await lockOf(env, item.id).reserve({ customerId: op.customerId, itemId: item.id, expectVersion: 99, line })).toMatchObject({
      ok: false,
      status: 409,
      code: 'version_conflict',
    });
    const ok = (await lockOf(env, item.id).reserve({ customerId: op.customerId, itemId: item.id, expectVersion: 1, line })) as Reservation;
    expect(ok).toMatchObject({ ok: true, assetIds: [item.assetIds[0]] });
    expect(await lockOf(env, item.id).pendingCount()).toBe(1);
    await lockOf(env, item.id).release(ok.reservationId);
    expect(await lockOf(env, item.id).pendingCount()).toBe(0);
  });

  it('parallel reserves overlap their reads yet never take more than there is; a written reservation counts once without its release', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const start = Date.parse(at(op.timezone, 3, '10:00'));
    const req = (sourceId: string): ReserveRequest => ({
      customerId: op.customerId,
      itemId: item.id,
      line: { kind: 'booking', sourceId, start, end: start + 3_600_000, enforceRules: false },
    });
    const lock = lockOf(env, item.id);
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => lock.reserve(req(`bk_p${i}`))));
    const won = all.filter((r) => r.ok) as unknown as Reservation[];
    expect(won).toHaveLength(3);
    expect(new Set(won.flatMap((r) => r.assetIds)).size).toBe(3);
    // One is written and never released (a lost release); the other two are abandoned.
    await db()
      .insert(allocations)
      .values({ ...won[0].allocations[0], createdAt: new Date().toISOString() });
    expect(await lock.release(won[1].reservationId)).toBe(true);
    expect(await lock.release(won[2].reservationId)).toBe(true);
    const again = await Promise.all(Array.from({ length: 4 }, (_, i) => lock.reserve(req(`bk_q${i}`))));
    const won2 = again.filter((r) => r.ok) as unknown as Reservation[];
    expect(won2).toHaveLength(2);
    expect(won2.flatMap((r) => r.assetIds)).not.toContain(won[0].assetIds[0]);
    await Promise.all(won2.map((r) => lock.release(r.reservationId)));
  });
});
