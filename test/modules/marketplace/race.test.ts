/**
 * The last unit, sold three ways at once: marketplace reserves, reseller channel bookings and
 * operator checkouts race for it through the item's lock. Exactly one wins; nothing is oversold.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, post } from '../../harness';
import { assetOverlaps, at, book, bookBody, dateAhead, rentalItem, seatsByDeparture, tourItem } from '../bookings/factories';
import { idem, partnerKey } from '../channel/factories';
import { configureMarketplace, reserve } from './factories';

const TZ = 'America/New_York';

describe('race for the last unit: marketplace, channel, operator', () => {
  it('a boat: exactly one of 18 sales wins (6 reserves, 6 channel bookings, 6 checkouts)', async () => {
    const op = await createOperator({ timezone: TZ });
    const boat = await rentalItem(op, { assets: 1 });
    const { apiKey } = await configureMarketplace(op);
    const pk = await partnerKey(op);
    const start = at(TZ, 7, '10:00');
    const end = at(TZ, 7, '12:00');
    const attempts = Array.from({ length: 6 }, (_, i) => [
      reserve(apiKey, { productOptionId: `${boat.id}:1h`, travelDate: dateAhead(TZ, 7), startTime: '10:00' }).then((r) => ({ via: 'marketplace', r })),
      post(
        '/channel/v1/bookings',
        {
          productId: boat.id,
          startTime: start,
          endTime: end,
          quantity: 1,
          totalPrice: 200,
          reference: `R-${i}`,
          guest: { firstName: 'G', lastName: `${i}`, email: `g${i}@x.test` },
        },
        idem(pk.key, `race-${i}`),
      ).then((r) => ({ via: 'channel', r })),
      book(op, bookBody({ inventoryId: boat.id, startTime: start, endTime: end })).then((r) => ({ via: 'operator', r })),
    ]).flat();
    const results = await Promise.all(attempts);
    const won = results.filter((x) => x.r.status === 200 || x.r.status === 201);
    expect(won, JSON.stringify(results.map((x) => [x.via, x.r.status]))).toHaveLength(1);
    for (const x of results.filter((y) => !won.includes(y))) expect(x.r.status, `${x.via}: ${x.r.text}`).toBe(409);
    expect(await assetOverlaps(boat.id)).toEqual([]);
    const taken = await env.DB.prepare("SELECT COUNT(*) AS n FROM allocations WHERE item_id = ? AND active = 1 AND kind IN ('booking','hold')")
      .bind(boat.id)
      .first<{ n: number }>();
    expect(taken!.n).toBe(1);
  });

  it('a tour with 3 seats: parties of 2 from the three paths never take more than 3 seats', async () => {
    const op = await createOperator({ timezone: TZ });
    const tour = await tourItem(op, { capacity: 3 });
    const { apiKey } = await configureMarketplace(op);
    const pk = await partnerKey(op);
    const start = at(TZ, 7, '14:00');
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => [
        reserve(apiKey, { productOptionId: tour.id, travelDate: dateAhead(TZ, 7), startTime: '14:00', totalTravelers: 2 }),
        post('/channel/v1/bookings', { productId: tour.id, startTime: start, quantity: 2, totalPrice: 100, reference: `T-${i}` }, idem(pk.key, `tour-${i}`)),
        book(op, bookBody({ inventoryId: tour.id, startTime: start, tickets: { Adult: 2 } })),
      ]).flat(),
    );
    const won = results.filter((r) => r.status === 200 || r.status === 201);
    expect(won).toHaveLength(1);
    expect(results.every((r) => r.status === 200 || r.status === 201 || r.status === 409)).toBe(true);
    const [dep] = await seatsByDeparture(tour.id);
    expect(dep.seats).toBe(2);
  });
});
