/**
 * Marina details of issue 34 through HTTP: unit numbers unique without regard to case, a repeated
 * waitlist add answering 200 on the staff path as on the public form, first-night and first-month
 * deposits that differ, and bills that name their rates in dollars per foot.
 */
import { describe, it, expect } from 'vitest';
import { expectError, get, post, put } from '../../harness';
import { boat, day, makeSlip, marinaOperator, renter, reserve } from './helpers';
import { key } from './marina2-helpers';
import { addCalendarMonths, nightsBetween } from '../../../src/modules/slip-reservations/pricing';

describe('unit numbers', () => {
  it('are unique per location without regard to case, on create, bulk create and rename', async () => {
    const op = await marinaOperator(50);
    const a = await post('/slips', { locationId: op.locationId, unitNumber: 'D-01' }, key(op));
    expect(a.status, a.text).toBe(201);
    const dup = await post('/slips', { locationId: op.locationId, unitNumber: 'd-01' }, key(op));
    expectError(dup, 409, 'already_exists');
    expect(dup.body.message).toContain('D-01');
    expect(dup.body.existingUnitNumbers).toEqual(['D-01']);
    const bulk = await post('/slips/bulk-create', { locationId: op.locationId, prefix: 'd-', start: 1, end: 3, padding: 2 }, key(op));
    expectError(bulk, 409, 'already_exists');
    expect(bulk.body.existingUnitNumbers).toEqual(['D-01']);
    expect((await get(`/slips?locationId=${op.locationId}`, key(op))).body.total).toBe(1);
    const b = await post('/slips', { locationId: op.locationId, unitNumber: 'E-01' }, key(op));
    expectError(await put(`/slips/${b.body.id}`, { unitNumber: 'd-01' }, key(op)), 409, 'already_exists');
    // A unit may change the case of its own number.
    const own = await put(`/slips/${a.body.id}`, { unitNumber: 'd-01' }, key(op));
    expect(own.status, own.text).toBe(200);
    expect(own.body.unitNumber).toBe('d-01');
    // Another operator's location is another namespace.
    const other = await marinaOperator(5);
    expect((await post('/slips', { locationId: other.locationId, unitNumber: 'd-01' }, key(other))).status).toBe(201);
  });

  it('hold under a race: two parallel creates of "f-01" and "F-01" leave one unit, the other answers 409', async () => {
    const op = await marinaOperator(50);
    const rs = await Promise.all(['f-01', 'F-01', 'f-01', 'F-01'].map((unitNumber) => post('/slips', { locationId: op.locationId, unitNumber }, key(op))));
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    for (const r of rs.filter((x) => x.status === 409)) expectError(r, 409, 'already_exists');
    expect((await get(`/slips?locationId=${op.locationId}`, key(op))).body.total).toBe(1);
  });
});

describe('waitlist adds', () => {
  it('answer 201 the first time and 200 with the open entry on every later add, staff and public alike', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const who = renter('again');
    const body = { locationId: op.locationId, renter: who, boat: boat(), rateType: 'nightly', arrivalDate: day(op, 20), departureDate: day(op, 23) };
    const first = await post('/slips/waitlist', body, key(op));
    expect(first.status, first.text).toBe(201);
    const again = await post('/slips/waitlist', body, key(op));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(first.body);
    const pub = await post(`/public/slips/${slip.id}/waitlist`, {
      renter: who,
      boat: boat(),
      rateType: 'nightly',
      arrivalDate: day(op, 20),
      departureDate: day(op, 23),
    });
    expect(pub.status, pub.text).toBe(200);
    expect(pub.body.entryId).toBe(first.body.id);
    expect((await get(`/slips/waitlist?locationId=${op.locationId}`, key(op))).body.total).toBe(1);
  });
});

describe('deposit policies', () => {
  it('first_night asks one night of the stay, first_month its first month, each capped at the total', async () => {
    const op = await marinaOperator();
    // 40 ft billable at the default $3.50 per ft per night: one night is 14000 cents; no fees or tax.
    const slip = await makeSlip(op, { lengthFt: 40 });
    const depositOf = async (policy: string, o: Record<string, unknown>) => {
      expect((await put(`/slip-settings/${op.locationId}`, { deposit: { policy } }, key(op))).status).toBe(200);
      const r = await reserve(op, slip.id, o);
      expect(r.status, r.text).toBe(201);
      return r.body as { depositCents: number; totalCents: number };
    };
    const at = (n: number) => ({ arrivalDate: day(op, n), departureDate: day(op, n + 3) });
    const night = await depositOf('first_night', at(10));
    expect(night).toMatchObject({ totalCents: 42000, depositCents: 14000 });
    // Three nights are less than a month: the first month is the whole stay.
    const month = await depositOf('first_month', at(40));
    expect(month).toMatchObject({ totalCents: 42000, depositCents: 42000 });
    // Forty nights: the first month is its nights up to the same day next month.
    const long = await depositOf('first_month', { arrivalDate: day(op, 300), departureDate: day(op, 340) });
    expect(long).toMatchObject({ totalCents: 40 * 14000, depositCents: 14000 * nightsBetween(day(op, 300), addCalendarMonths(day(op, 300), 1)) });
    // A monthly stay: one month at the default $25.00 per ft per month (100000) against one night of that month.
    const monthly = (n: number) => ({ rateType: 'monthly', arrivalDate: day(op, n), departureDate: addCalendarMonths(day(op, n), 2) });
    expect((await depositOf('first_month', monthly(70))).depositCents).toBe(100000);
    const firstNight = await depositOf('first_night', monthly(140));
    expect(firstNight.depositCents).toBe(Math.round(100000 / nightsBetween(day(op, 140), addCalendarMonths(day(op, 140), 1))));
  });
});

describe('bills', () => {
  it('name rates in dollars per foot, never cents per foot', async () => {
    const op = await marinaOperator();
    const fees = [{ name: 'Pump-out', amountCents: 1250, per: 'stay', taxable: false }];
    expect((await put(`/slip-settings/${op.locationId}`, { fees, rates: { nightlyPerFootCents: 350 } }, key(op))).status).toBe(200);
    const slip = await makeSlip(op, { lengthFt: 40 });
    const r = await reserve(op, slip.id, { arrivalDate: day(op, 10), departureDate: day(op, 13) });
    expect(r.status, r.text).toBe(201);
    const lines = (await get(`/slip-reservations/${r.body.id}`, key(op))).body.pricing.lines as { description: string }[];
    expect(lines.map((l) => l.description)).toEqual(['3 night(s) × 40 ft × $3.50 per ft per night', 'Pump-out ($12.50 per stay)']);
    for (const l of lines) expect(l.description).not.toMatch(/cents/);
  });
});
