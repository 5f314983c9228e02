/** Races: OCTO reservations, the channel API and the operator's checkout storming one slot never sell more than there is. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { post } from '../../harness';
import { assetOverlaps, rentalItem, seatsByDeparture, tourItem } from '../bookings/factories';
import { availabilityId, dateIn, octo, reseller, unitItems, TZ } from './factories';
import { wallTimeToUtc } from '../../../src/lib/time';

const iso = (days: number, time: string) => new Date(wallTimeToUtc(dateIn(days), time, TZ)).toISOString();

describe('OCTO races', () => {
  it('the last boat: eight OCTO reservations, a channel booking and an operator checkout at once; exactly one wins', async () => {
    const { op, key } = await reseller();
    const boat = await rentalItem(op, { assets: 1, data: { durations: [2] } });
    const id = availabilityId(20, '10:00');
    const octoCalls = Array.from({ length: 8 }, () =>
      octo('POST', '/bookings', key, { body: { productId: boat.id, optionId: 'PT2H', availabilityId: id, unitItems: unitItems('unit', 1) } }),
    );
    const channel = post(
      '/channel/v1/bookings',
      { productId: boat.id, startTime: iso(20, '10:00'), endTime: iso(20, '12:00'), quantity: 1, totalPrice: 200, reference: 'CH-1' },
      { headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'race-ch-1' } },
    );
    const operator = post(
      '/coreBooking/book',
      {
        rentalDetails: { inventoryId: boat.id, startTime: iso(20, '10:00'), endTime: iso(20, '12:00') },
        rentalPricing: {},
        customerInfo: { firstName: 'Walk', lastName: 'In', email: 'walkin@example.test' },
        paymentMethodId: 'pm_card_visa',
      },
      { key: op.adminKey },
    );
    const all = await Promise.all([...octoCalls, channel, operator]);
    const wins = all.filter((r) => r.status === 200 || r.status === 201);
    expect(wins, all.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join('\n')).toHaveLength(1);
    for (const r of all.slice(0, 8)) if (r.status !== 200) expect(r.body.error).toBe('UNPROCESSABLE_ENTITY');
    const active = await env.DB.prepare('SELECT COUNT(*) AS n FROM allocations WHERE item_id = ? AND active = 1 AND (expires_at IS NULL OR expires_at > ?)')
      .bind(boat.id, Date.now())
      .first<any>();
    expect(active.n).toBe(1);
    expect(await assetOverlaps(boat.id)).toEqual([]);
  });

  it('a departure of 5 seats: twelve one-seat reservations and a channel sale of 2 never exceed the capacity', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 5 });
    const id = availabilityId(21, '10:00');
    const calls = [
      ...Array.from({ length: 12 }, () =>
        octo('POST', '/bookings', key, { body: { productId: tour.id, optionId: 'DEFAULT', availabilityId: id, unitItems: unitItems('adult', 1) } }),
      ),
      post(
        '/channel/v1/bookings',
        { productId: tour.id, startTime: iso(21, '10:00'), quantity: 2, totalPrice: 100, reference: 'CH-T' },
        { headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'race-tour-ch' } },
      ),
    ];
    const all = await Promise.all(calls);
    const octoWins = all.slice(0, 12).filter((r) => r.status === 200).length;
    const chanWin = all[12].status === 201 ? 2 : 0;
    expect(octoWins + chanWin).toBeLessThanOrEqual(5);
    expect(octoWins + chanWin).toBeGreaterThanOrEqual(4);
    const seats = await seatsByDeparture(tour.id);
    expect(seats[0].seats).toBe(octoWins + chanWin);
    expect(seats[0].seats).toBeLessThanOrEqual(5);
  });

  it('one uuid sent six times at once makes one hold; five confirmations at once make one booking', async () => {
    const { op, key } = await reseller();
    const tour = await tourItem(op, { capacity: 10 });
    const uuid = crypto.randomUUID();
    const body = { uuid, productId: tour.id, optionId: 'DEFAULT', availabilityId: availabilityId(22, '14:00'), unitItems: unitItems('adult', 2) };
    const all = await Promise.all(Array.from({ length: 6 }, () => octo('POST', '/bookings', key, { body })));
    for (const r of all) expect(r.status, r.text).toBe(200);
    expect(new Set(all.map((r) => r.body.id)).size).toBe(1);
    expect((await seatsByDeparture(tour.id))[0].seats).toBe(2);
    const confirms = await Promise.all(
      Array.from({ length: 5 }, () => octo('POST', `/bookings/${uuid}/confirm`, key, { body: { contact: { fullName: 'Race Guest' } } })),
    );
    for (const r of confirms) expect(r.status, r.text).toBe(200);
    for (const r of confirms) expect(r.body.status).toBe('CONFIRMED');
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM bookings WHERE transaction_id = ?').bind(all[0].body.supplierReference).first<any>();
    expect(n.n).toBe(1);
    expect((await seatsByDeparture(tour.id))[0].seats).toBe(2);
  });
});
