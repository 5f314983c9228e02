/**
 * Month views are cached per isolate keyed by the item's version and allocation sequence: every
 * write of allocations (any path) bumps the sequence through triggers, so the next read recomputes.
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, get, post } from '../../harness';
import { at, book, bookBody, dateAhead, rentalItem } from '../bookings/factories';
import { allocations, inventoryItems } from '../../../src/db/schema/inventory';

const TZ = 'America/New_York';

async function dayOf(itemId: string, locationId: string, date: string) {
  const r = await get(`/public/availability?inventoryId=${itemId}&locationId=${locationId}&month=${date.slice(0, 7)}`);
  expect(r.status).toBe(200);
  return r.body.days.find((d: any) => d.date === date);
}

describe('month availability cache', () => {
  it('never serves a view older than the last allocation write, whatever path wrote it', async () => {
    const op = await createOperator({ timezone: TZ });
    const item = await rentalItem(op, {
      assets: 1,
      timezone: TZ,
      data: {
        operatingHours: Object.fromEntries(
          ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((d) => [d, { open: '10:00', close: '12:00' }]),
        ) as any,
        slotIntervalMinutes: 120,
        durations: [2],
      },
    });
    const date = dateAhead(TZ, 20);
    const seq = async () => (await db().select({ s: inventoryItems.allocSeq }).from(inventoryItems).where(eq(inventoryItems.id, item.id)).get())!.s;

    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'available', slotsAvailable: 1 });
    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'available' });
    const before = await seq();

    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(TZ, 20, '10:00'), endTime: at(TZ, 20, '12:00') }));
    expect(b.status).toBe(201);
    expect(await seq()).toBeGreaterThan(before);
    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'sold_out', slotsAvailable: 0 });

    expect((await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'available' });

    // A write that bypasses every service (as a maintenance script would) is seen too.
    const b2 = await book(op, bookBody({ inventoryId: item.id, startTime: at(TZ, 20, '10:00'), endTime: at(TZ, 20, '12:00') }));
    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'sold_out' });
    await db().delete(allocations).where(eq(allocations.sourceId, b2.body.rentalId));
    expect(await dayOf(item.id, item.locationId, date)).toMatchObject({ status: 'available' });
  });
});
