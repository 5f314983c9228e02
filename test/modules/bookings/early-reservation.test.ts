/**
 * The early reservation of a sale (src/modules/bookings/reservation.ts): the lock call starts with
 * the first read when the request alone says what to reserve, so a sale takes two round trips after
 * authentication. These tests pin that it never changes an answer: the plan's errors come first,
 * what it took is given back at once, a reservation that is not what the priced lines ask is
 * replaced, and racing sales never sell one unit twice.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError } from '../../harness';
import { assetOverlaps, at, book, bookBody, counts, rentalItem, seatsByDeparture, tourItem } from './factories';

describe('early reservation of a sale', () => {
  it('a price the plan refuses answers 400 and gives the unit back at once: the corrected booking gets it', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const window = { inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    expectError(await book(op, bookBody({ ...window, total: 1 })), 400, 'price_mismatch');
    const ok = await book(op, bookBody(window));
    expect(ok.status, ok.text).toBe(201);
    expect((await counts(op.customerId)).bookings).toBe(1);
  });

  it('a request the plan refuses answers its 400, not the 409 of a unit already sold', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1 });
    const window = { inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00') };
    expect((await book(op, bookBody(window))).status).toBe(201);
    const wrongCurrency = bookBody({ ...window, extra: { rentalPricing: { currency: 'eur' } } });
    expectError(await book(op, wrongCurrency), 400, 'bad_request');
    expectError(await book(op, bookBody(window)), 409, 'unavailable');
  });

  it('a tour sold with quantity and endTime (shaped like a rental) is reserved as the departure’s seats', async () => {
    const op = await createOperator();
    const tour = await tourItem(op, { capacity: 3 });
    const departure = { inventoryId: tour.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00') };
    const first = await book(op, bookBody({ ...departure, quantity: 2 }));
    expect(first.status, first.text).toBe(201);
    expect((await seatsByDeparture(tour.id)).map((d) => d.seats)).toEqual([2]);
    expectError(await book(op, bookBody({ ...departure, quantity: 2 })), 409, 'unavailable');
    expect((await book(op, bookBody({ ...departure, quantity: 1 }))).status).toBe(201);
    expect((await seatsByDeparture(tour.id)).map((d) => d.seats)).toEqual([3]);
  });

  it('eight parallel sales of two boats: exactly two win, no asset is sold twice', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const window = { inventoryId: item.id, startTime: at(op.timezone, 6, '09:00'), endTime: at(op.timezone, 6, '13:00') };
    const all = await Promise.all(Array.from({ length: 8 }, () => book(op, bookBody(window))));
    expect(all.filter((r) => r.status === 201)).toHaveLength(2);
    for (const r of all.filter((x) => x.status !== 201)) expectError(r, 409, 'unavailable');
    expect(await assetOverlaps(item.id)).toEqual([]);
    expect((await counts(op.customerId)).bookings).toBe(2);
  });
});
