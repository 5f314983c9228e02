/** The InventoryLock object directly: pending reservations count, written ones count once, release frees. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, db } from '../../harness';
import { allocations } from '../../../src/db/schema/inventory';
import { lockOf, type ReserveRequest, type Reservation } from '../../../src/modules/availability/lock';
import { at, tourItem, rentalItem } from '../bookings/factories';

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
    expect(await lock.release(a.reservationId)).toBe(true);
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
});
