/** Public availability endpoints and the operator window check. */
import { describe, it, expect } from 'vitest';
import { createOperator, expectError, get } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, dateAhead, email, rentalItem, tourItem, everyDay } from '../bookings/factories';

const q = (o: Record<string, string | number | undefined>) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

describe('GET /public/availability and /preload-availability', () => {
  it('answers each day of the month with its status, anonymously', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 1, data: { scheduleExceptions: [{ date: dateAhead(op.timezone, 3), closed: true }] } });
    // Day 2 fully booked (08:00-18:00).
    await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 2, '08:00'), endTime: at(op.timezone, 2, '18:00') }));
    const dayOf = async (date: string) => {
      const res = await get(`/public/availability?${q({ inventoryId: item.id, locationId: item.locationId, month: date.slice(0, 7) })}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ inventoryId: item.id, timezone: op.timezone, month: date.slice(0, 7), type: 'rental' });
      expect(res.body.days.length).toBe(new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).getUTCDate());
      return res.body.days.find((d: any) => d.date === date);
    };
    expect(await dayOf(dateAhead(op.timezone, 2))).toMatchObject({ status: 'sold_out', available: false, unitsFree: 0, slotsAvailable: 0 });
    expect(await dayOf(dateAhead(op.timezone, 3))).toMatchObject({ status: 'closed', available: false, slotsTotal: 0 });
    expect(await dayOf(dateAhead(op.timezone, 4))).toMatchObject({ status: 'available', available: true, unitsFree: 1, slotsTotal: 10, slotsAvailable: 10 });
    expect(await dayOf(dateAhead(op.timezone, -1))).toMatchObject({ status: 'unavailable', available: false });
    const month = dateAhead(op.timezone, 4).slice(0, 7);

    const pre = await get(`/preload-availability?${q({ inventoryId: item.id, month })}`);
    expect(pre.status, pre.text).toBe(200);
    // A day well ahead: today's early slots may already be past, depending on the hour the test runs.
    const withSlots = pre.body.days.find((d: any) => d.date === dateAhead(op.timezone, 4));
    expect(withSlots.slots.length).toBeGreaterThan(0);
    expect(withSlots.slots[0]).toMatchObject({ time: '08:00', available: true, unitsFree: 1 });
  });

  it('400 on missing or bad input; 404 when item and location do not belong together or the item is private', async () => {
    const op = await createOperator();
    const other = await createOperator();
    const item = await rentalItem(op);
    const hidden = await rentalItem(op, { isPublic: false });
    const month = dateAhead(op.timezone, 1).slice(0, 7);
    expectError(await get('/public/availability'), 400, 'validation_failed');
    expectError(await get('/preload-availability'), 400, 'validation_failed');
    expectError(await get(`/public/availability?${q({ inventoryId: item.id, locationId: item.locationId, month: '2026-13' })}`), 400, 'validation_failed');
    expectError(
      await get(`/public/availability?${q({ inventoryId: item.id, locationId: item.locationId, month, timezone: 'Mars/Olympus' })}`),
      400,
      'validation_failed',
    );
    expectError(await get(`/public/availability?${q({ inventoryId: item.id, locationId: other.locationId, month })}`), 404, 'not_found');
    expectError(await get(`/public/availability?${q({ inventoryId: 'inv_nope', locationId: item.locationId, month })}`), 404, 'not_found');
    expectError(await get(`/public/availability?${q({ inventoryId: hidden.id, locationId: hidden.locationId, month })}`), 404, 'not_found');
    expectError(await get(`/preload-availability?${q({ inventoryId: hidden.id, month })}`), 404, 'not_found');
    expect((await get(`/public/availability?${q({ inventoryId: hidden.id, locationId: hidden.locationId, month })}`, { key: op.adminKey })).status).toBe(200);
    expectError(
      await get(`/public/availability?${q({ inventoryId: hidden.id, locationId: hidden.locationId, month })}`, { key: other.adminKey }),
      404,
      'not_found',
    );
  });
});

describe('GET /public/day-availability', () => {
  it('slots with units left and busy intervals without renter data; timezone only changes rendering', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const secret = email('private-person');
    await book(op, {
      ...bookBody({ inventoryId: item.id, startTime: at(op.timezone, 4, '10:00'), endTime: at(op.timezone, 4, '12:00'), email: secret }),
      customerInfo: { firstName: 'Zebulon', lastName: 'Quartz', email: secret },
    });
    const date = dateAhead(op.timezone, 4);
    const r = await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date })}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.slots.map((s: any) => s.time)).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00']);
    const ten = r.body.slots.find((s: any) => s.time === '10:00');
    expect(ten).toMatchObject({ available: true, unitsFree: 1, capacity: 2, startTime: at(op.timezone, 4, '10:00') });
    expect(r.body.bookings).toHaveLength(1);
    expect(r.body.bookings[0]).toMatchObject({ kind: 'booked', startTime: at(op.timezone, 4, '10:00') });
    expect(r.text).not.toContain(secret);
    expect(r.text).not.toContain('Zebulon');
    expect(r.text).not.toContain('rnt_');

    const tokyo = await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date, timezone: 'Asia/Tokyo' })}`);
    expect(tokyo.body.timezone).toBe(op.timezone);
    expect(tokyo.body.displayTimezone).toBe('Asia/Tokyo');
    expect(tokyo.body.slots.map((s: any) => s.time)).toEqual(r.body.slots.map((s: any) => s.time));
    expect(tokyo.body.slots[0].displayTime).toMatch(/^\d{2}:\d{2}$/);
    expect(tokyo.body.slots[0].displayTime).not.toBe('08:00');
    expectError(
      await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date: '2026-02-30' })}`),
      400,
      'validation_failed',
    );
    expectError(await get('/public/day-availability'), 400, 'validation_failed');
  });

  for (const c of [
    { tz: 'America/New_York', date: '2026-11-01', utc10: '2026-11-01T15:00:00.000Z' },
    { tz: 'America/New_York', date: '2026-03-08', utc10: '2026-03-08T14:00:00.000Z' },
    { tz: 'Europe/Berlin', date: '2026-10-25', utc10: '2026-10-25T09:00:00.000Z' },
    { tz: 'Europe/Berlin', date: '2026-03-29', utc10: '2026-03-29T08:00:00.000Z' },
    { tz: 'Australia/Sydney', date: '2026-04-05', utc10: '2026-04-05T00:00:00.000Z' },
    { tz: 'Australia/Sydney', date: '2026-10-04', utc10: '2026-10-03T23:00:00.000Z' },
  ]) {
    it(`DST day ${c.tz} ${c.date}: the 10:00 slot and departure are at 10:00 local`, async () => {
      const op = await createOperator();
      const item = await rentalItem(op, { timezone: c.tz, data: { operatingHours: everyDay({ open: '00:00', close: '00:00' }), durations: [1] } });
      const r = await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date: c.date })}`);
      expect(r.status, r.text).toBe(200);
      const times = r.body.slots.map((s: any) => s.time);
      expect(new Set(times).size).toBe(times.length);
      expect(times.length).toBe(c.date.endsWith('-08') || c.date.endsWith('-29') || c.date.endsWith('10-04') ? 23 : 24);
      expect(r.body.slots.find((s: any) => s.time === '10:00').startTime).toBe(c.utc10);
      const tour = await tourItem(op, { locationId: item.locationId });
      const t = await get(`/public/day-availability?${q({ inventoryId: tour.id, locationId: tour.locationId, date: c.date })}`);
      expect(t.body.slots.map((s: any) => [s.time, s.startTime])).toEqual([
        ['10:00', c.utc10],
        ['14:00', new Date(Date.parse(c.utc10) + 4 * 3_600_000).toISOString()],
      ]);
    });
  }

  it('a booking on a coming DST day lands at 10:00 local', async () => {
    // Pinned before the DST day, so the day is "coming" whenever the test runs.
    const op = await createOperator({ timezone: 'America/New_York', clockAt: '2027-03-01T17:00:00.000Z' });
    const item = await rentalItem(op);
    const r = await book(op, bookBody({ inventoryId: item.id, startTime: '2027-03-14T10:00:00-04:00', endTime: '2027-03-14T12:00:00-04:00' }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ startTime: '2027-03-14T14:00:00.000Z', localDate: '2027-03-14' });
    const day = await get(`/public/day-availability?${q({ inventoryId: item.id, locationId: item.locationId, date: '2027-03-14' })}`);
    expect(day.body.slots.find((s: any) => s.time === '10:00')).toMatchObject({ startTime: '2027-03-14T14:00:00.000Z', available: false });
    expect(day.body.slots.find((s: any) => s.time === '12:00').available).toBe(true);
  });
});

describe('GET /public/check-availability', () => {
  it('is the asset free for a Unix window (buffer counted, a booking excluded on request)?', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2, data: { turnaroundBufferMinutes: 30 } });
    const b = await book(
      op,
      bookBody({ inventoryId: item.id, startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00'), assetIds: [item.assetIds[0]] }),
    );
    const s = (time: string) => Date.parse(at(op.timezone, 3, time)) / 1000;
    const check = (assetId: string, from: string, to: string, extra: Record<string, string> = {}) =>
      get(`/public/check-availability?${q({ inventoryId: item.id, assetId, startUtc: s(from), endUtc: s(to), ...extra })}`);
    const busy = await check(item.assetIds[0], '12:00', '13:00');
    expect(busy.status, busy.text).toBe(200);
    expect(busy.body).toMatchObject({ available: false, turnaroundBufferMinutes: 30 });
    expect(busy.body.conflicts).toEqual([{ startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00'), kind: 'booked' }]);
    expect((await check(item.assetIds[0], '12:30', '13:30')).body.available).toBe(true);
    expect((await check(item.assetIds[1], '10:00', '12:00')).body.available).toBe(true);
    expect((await check(item.assetIds[0], '11:00', '12:00', { excludeRentalId: b.body.rentalId })).body).toMatchObject({ available: true, conflicts: [] });
    expectError(await check('ast_nope', '10:00', '11:00'), 404, 'not_found');
    expectError(await check(item.assetIds[0], '11:00', '10:00'), 400, 'bad_request');
    expectError(await get('/public/check-availability'), 400, 'validation_failed');
    expectError(
      await get(`/public/check-availability?${q({ inventoryId: item.id, assetId: item.assetIds[0], startUtc: 'soon', endUtc: 5 })}`),
      400,
      'validation_failed',
    );
  });
});

describe('GET /public/time-slot-popularity', () => {
  it('counts bookings per local start time, by weekday and duration', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    for (const [day, from, to] of [
      [2, '10:00', '12:00'],
      [2, '10:00', '11:00'],
      [3, '10:00', '12:00'],
      [3, '14:00', '16:00'],
    ] as const) {
      expect((await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, from), endTime: at(op.timezone, day, to) }))).status).toBe(201);
    }
    const r = await get(`/public/time-slot-popularity?${q({ inventoryId: item.id, locationId: item.locationId })}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.totalBookings).toBe(4);
    const by = Object.fromEntries(r.body.slots.map((s: any) => [s.time, s]));
    expect(by['10:00']).toMatchObject({ bookings: 3, share: 0.75, popularity: 'high' });
    expect(by['14:00'].bookings).toBe(1);
    expect(by['08:00']).toMatchObject({ bookings: 0, popularity: 'none' });
    const two = await get(`/public/time-slot-popularity?${q({ inventoryId: item.id, locationId: item.locationId, duration: 2 })}`);
    expect(two.body.totalBookings).toBe(3);
    const weekday = new Date(`${dateAhead(op.timezone, 3)}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
    const wd = await get(`/public/time-slot-popularity?${q({ inventoryId: item.id, locationId: item.locationId, dayOfWeek: weekday.slice(0, 3) })}`);
    expect(wd.body).toMatchObject({ dayOfWeek: weekday, totalBookings: 2 });
    expectError(
      await get(`/public/time-slot-popularity?${q({ inventoryId: item.id, locationId: item.locationId, dayOfWeek: 'Caturday' })}`),
      400,
      'bad_request',
    );
    expectError(await get('/public/time-slot-popularity'), 400, 'validation_failed');
    expectError(await get(`/public/time-slot-popularity?${q({ inventoryId: item.id, locationId: 'loc_elsewhere' })}`), 404, 'not_found');
  });
});

describe('GET /availability (operator)', () => {
  it('answers what a booking moments later meets: units for rentals, seats for tours', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 2 });
    const tour = await tourItem(op, { capacity: 4 });
    const w = { startTime: at(op.timezone, 3, '10:00'), endTime: at(op.timezone, 3, '12:00') };
    const a = await get(`/availability?${q({ inventoryId: item.id, ...w, quantity: 2 })}`, { key: op.adminKey });
    expect(a.body).toMatchObject({ available: true, unitsFree: 2 });
    await book(op, bookBody({ inventoryId: item.id, ...w }));
    const b = await get(`/availability?${q({ inventoryId: item.id, ...w, quantity: 2 })}`, { key: op.adminKey });
    expect(b.body).toMatchObject({ available: false, unitsFree: 1, reasons: [{ code: 'insufficient_units' }] });
    const t = await get(`/availability?${q({ inventoryId: tour.id, startTime: w.startTime, endTime: at(op.timezone, 3, '12:00'), seats: 3 })}`, {
      key: op.adminKey,
    });
    expect(t.body).toMatchObject({ available: true, unitsFree: null, seatsFree: 4, capacity: 4 });
    const rules = await get(
      `/availability?${q({ inventoryId: item.id, startTime: at(op.timezone, 0, '00:30'), endTime: at(op.timezone, 0, '01:00'), source: 'widget' })}`,
      { key: op.adminKey },
    );
    expect(rules.body.available).toBe(false);
    expectError(
      await get(`/availability?${q({ inventoryId: item.id, startTime: w.endTime, endTime: w.startTime })}`, { key: op.adminKey }),
      400,
      'bad_request',
    );
    expectError(await get('/availability', { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'GET', path: `/availability?${q({ inventoryId: item.id, ...w })}`, otherStatus: 404 });
  });
});
