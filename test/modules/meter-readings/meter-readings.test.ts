/**
 * Meter readings through HTTP: usage from the previous reading, rollover from the digit count, flags
 * (below the previous reading, above 3× the usual usage) and their review, corrections and deletes
 * that recompute the next reading, billing all-or-nothing, charges to a reservation at the location's
 * rates exactly once (also when two requests race), billed readings frozen, reads and stats, and the
 * shared security checks on every route.
 */
import { describe, it, expect } from 'vitest';
import { del, expectError, get, post, put } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { wallTimeToUtc } from '../../../src/lib/time';
import { checkSecurity } from '../../security';
import { ago, day, makeSlip, marinaOperator, reserve, setClock, today } from '../marina/helpers';
import { key } from '../marina/marina2-helpers';

async function read(
  op: { adminKey: string },
  slipId: string,
  utility: 'electricity' | 'water',
  reading: number,
  readAt: string,
  extra: Record<string, unknown> = {},
) {
  const r = await post('/meter-readings', { slipId, utility, reading, readAt, ...extra }, { key: op.adminKey });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('meter readings', () => {
  it('counts usage from the previous reading, across a rollover, and flags what needs a review', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const first = await read(op, slip.id, 'electricity', 99000, ago(op, 20), { digits: 5, meterId: 'E-1' });
    expect(first).toMatchObject({ usage: null, previousReadingId: null, unit: 'kWh', digits: 5, flagged: false });
    const second = await read(op, slip.id, 'electricity', 99500, ago(op, 18));
    expect(second).toMatchObject({ usage: 500, previousReadingId: first.id, previousValue: 99000, digits: 5, meterId: 'E-1' });
    const third = await read(op, slip.id, 'electricity', 99950, ago(op, 16));
    expect(third.usage).toBe(450);
    // 99950 → 200 on a 5-digit meter: 200 + 100000 − 99950 = 250.
    const wrapped = await read(op, slip.id, 'electricity', 200, ago(op, 14));
    expect(wrapped).toMatchObject({ usage: 250, rollover: true, flagged: false });
    // Below the previous reading without a rollover: flagged, no usage.
    const lower = await read(op, slip.id, 'electricity', 100, ago(op, 12));
    expect(lower).toMatchObject({ usage: null, rollover: false, flagged: true, flagReasons: ['reading_below_previous'] });
    // Refusals: out of order, too many digits, a rollover that is not one, the future.
    expectError(
      await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 150, readAt: ago(op, 13) }, key(op)),
      409,
      'meter_reading_out_of_order',
    );
    expectError(
      await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 100000, readAt: ago(op, 11) }, key(op)),
      400,
      'validation_failed',
    );
    expectError(
      await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 300, readAt: ago(op, 11), rollover: true }, key(op)),
      400,
      'validation_failed',
    );
    expectError(
      await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 300, readAt: ago(op, -1) }, key(op)),
      400,
      'validation_failed',
    );

    // Water: 50 gallons a day as usual, then 350 a day: above 3× the usual usage.
    const w = [await read(op, slip.id, 'water', 1000, ago(op, 10))];
    for (const [v, d] of [
      [1100, 8],
      [1200, 6],
      [1300, 4],
    ])
      w.push(await read(op, slip.id, 'water', v, ago(op, d)));
    expect(w.map((x) => x.flagged)).toEqual([false, false, false, false]);
    const spike = await read(op, slip.id, 'water', 2000, ago(op, 2));
    expect(spike).toMatchObject({ usage: 700, unit: 'gal', flagged: true, flagReasons: ['usage_above_3x_usual'], reviewedAt: null });
    const reviewed = await put(`/meter-readings/${spike.id}`, { reviewed: true }, key(op));
    expect(reviewed.body.reviewedAt).not.toBeNull();
    expect(reviewed.body.flagged).toBe(true);

    // Latest, history, list filters.
    const latest = await get(`/meter-readings/unit/${slip.id}/latest`, key(op));
    expect(latest.body).toMatchObject({ slipId: slip.id, electricity: { id: lower.id }, water: { id: spike.id } });
    expect((await get(`/meter-readings/unit/${slip.id}/latest?utility=water`, key(op))).body.electricity).toBeNull();
    const history = await get(`/meter-readings/unit/${slip.id}/history?utility=electricity&limit=2`, key(op));
    expect(history.body).toMatchObject({ total: 5, limit: 2, usage: { electricity: 1200, water: 0 } });
    expect(history.body.data.map((x: any) => x.id)).toEqual([lower.id, wrapped.id]);
    expect((await get(`/meter-readings?slipId=${slip.id}&flagged=true`, key(op))).body.total).toBe(2);
    expect((await get(`/meter-readings?locationId=${op.locationId}&utility=water`, key(op))).body.total).toBe(5);
    expectError(await get('/meter-readings', key(op)), 400, 'validation_failed');
  });

  it('recomputes the next reading on a correction or a delete', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const a = await read(op, slip.id, 'electricity', 1000, ago(op, 6));
    const b = await read(op, slip.id, 'electricity', 1100, ago(op, 4));
    const c = await read(op, slip.id, 'electricity', 1250, ago(op, 2));
    expect([b.usage, c.usage]).toEqual([100, 150]);
    const fixed = await put(`/meter-readings/${b.id}`, { reading: 1050, notes: 'Misread' }, key(op));
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body).toMatchObject({ reading: 1050, usage: 50, notes: 'Misread' });
    expect((await get(`/meter-readings/${c.id}`, key(op))).body).toMatchObject({ previousValue: 1050, usage: 200 });
    expectError(await put(`/meter-readings/${b.id}`, { readAt: ago(op, 1) }, key(op)), 409, 'meter_reading_out_of_order');
    expect((await del(`/meter-readings/${b.id}`, undefined, key(op))).body).toEqual({ id: b.id, deleted: true });
    expect((await get(`/meter-readings/${c.id}`, key(op))).body).toMatchObject({ previousReadingId: a.id, previousValue: 1000, usage: 250 });
  });

  it('turns unbilled usage into reservation charges at the location rates exactly once', async () => {
    // The stay begins today on a pinned clock; five days later the readings of the stay are charged.
    const op = await marinaOperator(20, { clockAt: '2027-03-01T17:00:00Z' });
    await put(`/slip-settings/${op.locationId}`, { utilityRates: { electricityPerKwhCents: 32.5, waterPerGallonCents: 1.5, taxable: false } }, key(op));
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 10) })).body;
    await setClock(op, '2027-03-06T17:00:00Z');
    const ids = [
      await read(op, slip.id, 'electricity', 5000, ago(op, 4)),
      await read(op, slip.id, 'electricity', 5100, ago(op, 3)),
      await read(op, slip.id, 'electricity', 5180, ago(op, 2)),
      await read(op, slip.id, 'water', 2000, ago(op, 4)),
      await read(op, slip.id, 'water', 2300, ago(op, 1)),
    ].map((x) => x.id);
    const unbilled = await get(`/meter-readings/unbilled?locationId=${op.locationId}`, key(op));
    // 100 kWh × 32.5 = 3250, 80 kWh × 32.5 = 2600, 300 gal × 1.5 = 450.
    expect(unbilled.body.totals).toEqual({
      electricity: { usage: 180, amountCents: 5850, readings: 2 },
      water: { usage: 300, amountCents: 450, readings: 1 },
    });
    expect(unbilled.body.data.map((x: any) => x.amountCents).sort((p: number, q: number) => p - q)).toEqual([450, 2600, 3250]);
    const before = (await get(`/slip-reservations/${r.id}`, key(op))).body.totalCents;
    // Two requests racing for the same usage: one charges it, the other is refused; nothing twice.
    const [x, y] = await Promise.all([
      post('/meter-readings/add-to-reservation', { reservationId: r.id }, key(op)),
      post('/meter-readings/add-to-reservation', { reservationId: r.id }, key(op)),
    ]);
    const won = [x, y].filter((res) => res.status === 201);
    const lost = [x, y].filter((res) => res.status !== 201);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].status).toBe(409);
    expect(['meter_already_billed', 'no_unbilled_usage', 'version_conflict']).toContain(lost[0].body.error);
    expect(won[0].body).toMatchObject({ reservationId: r.id, chargedCents: 6300, previousTotalCents: before, reservationTotalCents: before + 6300 });
    expect(won[0].body.lines.map((l: any) => [l.utility, l.usage, l.amountCents, l.readings])).toEqual([
      ['electricity', 180, 5850, 2],
      ['water', 300, 450, 1],
    ]);
    // The bill names each rate as a renter reads it, a fraction of a cent kept.
    expect(won[0].body.lines.map((l: any) => l.description)).toEqual([
      'Electricity 180 kWh × $0.325 per kWh (2 readings)',
      'Water 300 gal × $0.015 per gal (1 reading)',
    ]);
    const after = (await get(`/slip-reservations/${r.id}`, key(op))).body;
    expect(after.totalCents).toBe(before + 6300);
    expect(after.utilitiesCents).toBeGreaterThanOrEqual(6300);
    expectError(await post('/meter-readings/add-to-reservation', { reservationId: r.id }, key(op)), 409, 'no_unbilled_usage');
    expectError(await post('/meter-readings/add-to-reservation', { reservationId: r.id, readingIds: [ids[1]] }, key(op)), 409, 'meter_already_billed');
    expect((await get(`/slip-reservations/${r.id}`, key(op))).body.totalCents).toBe(before + 6300);
    // Billed readings are frozen, and so is the reading a billed one counts from.
    const billed = (await get(`/meter-readings/${ids[1]}`, key(op))).body;
    expect(billed).toMatchObject({ billed: true, reservationId: r.id, chargedCents: 3250 });
    expectError(await put(`/meter-readings/${ids[1]}`, { reading: 5101 }, key(op)), 409, 'meter_reading_billed');
    expectError(await del(`/meter-readings/${ids[1]}`, undefined, key(op)), 409, 'meter_reading_billed');
    expectError(await del(`/meter-readings/${ids[0]}`, undefined, key(op)), 409, 'meter_reading_billed');
    expect((await get(`/meter-readings?reservationId=${r.id}`, key(op))).body.total).toBe(3);
    const stats = await get(`/meter-readings/stats?locationId=${op.locationId}`, key(op));
    expect(stats.body).toMatchObject({ readings: 5, unitsRead: 1, billed: 3, unbilled: 2, byUtility: { electricity: { billedUsage: 180, unbilledCents: 0 } } });
  });

  it('marks several readings billed atomically', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const a = await read(op, slip.id, 'water', 10, ago(op, 3));
    const b = await read(op, slip.id, 'water', 20, ago(op, 2));
    const c = await read(op, slip.id, 'water', 35, ago(op, 1));
    const first = await post('/meter-readings/mark-billed', { ids: [c.id], billingReference: 'INV-1' }, key(op));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ billed: 1, data: [{ id: c.id, billed: true, billingReference: 'INV-1' }] });
    expectError(await post('/meter-readings/mark-billed', { ids: [b.id, c.id] }, key(op)), 409, 'meter_already_billed');
    expect((await get(`/meter-readings/${b.id}`, key(op))).body.billed).toBe(false);
    expectError(await post('/meter-readings/mark-billed', { ids: [b.id, 'mtr_unknown'] }, key(op)), 404, 'not_found');
    const race = await Promise.all([
      post('/meter-readings/mark-billed', { ids: [a.id, b.id] }, key(op)),
      post('/meter-readings/mark-billed', { ids: [b.id, a.id] }, key(op)),
    ]);
    expect(race.map((x) => x.status).sort()).toEqual([200, 409]);
    const rows = (await get(`/meter-readings?slipId=${slip.id}&billed=true`, key(op))).body;
    expect(rows.total).toBe(3);
    expect(new Set(rows.data.filter((x: any) => x.id !== c.id).map((x: any) => x.billingId)).size).toBe(1);
  });

  it('gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const m = await read(op, slip.id, 'electricity', 10, ago(op, 1));
    const r = (await reserve(op, slip.id)).body;
    const reads = [
      `/meter-readings?locationId=${op.locationId}`,
      `/meter-readings/stats?locationId=${op.locationId}`,
      `/meter-readings/unbilled?locationId=${op.locationId}`,
      `/meter-readings/unit/${slip.id}/latest`,
      `/meter-readings/unit/${slip.id}/history`,
      `/meter-readings/${m.id}`,
    ];
    for (const path of reads) await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
    const writes: [string, string, unknown][] = [
      ['POST', '/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 20 }],
      ['PUT', `/meter-readings/${m.id}`, { notes: 'x' }],
      ['DELETE', `/meter-readings/${m.id}`, undefined],
      ['POST', '/meter-readings/mark-billed', { ids: [m.id] }],
      ['POST', '/meter-readings/add-to-reservation', { reservationId: r.id }],
    ];
    for (const [method, path, body] of writes) await checkSecurity(op, { method, path, body, otherStatus: 404, adminOnly: true });
  });
});

describe.each(pinnedClocks())('meter readings at $label', ({ timezone, at }) => {
  it('reads "now" and "the future" from the clock, and charges the stay from local midnight', async () => {
    const op = await marinaOperator(20, { clockAt: at, timezone });
    await put(`/slip-settings/${op.locationId}`, { utilityRates: { electricityPerKwhCents: 20, waterPerGallonCents: 1, taxable: false } }, key(op));
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 2) })).body;
    // Local midnight of today has passed at every instant; ten past midnight tomorrow has not.
    const midnight = new Date(wallTimeToUtc(today(op), '00:00', timezone)).toISOString();
    const first = await read(op, slip.id, 'electricity', 100, midnight);
    expect(first.readAt).toBe(midnight);
    const tomorrow = new Date(wallTimeToUtc(day(op, 1), '00:10', timezone)).toISOString();
    expectError(await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 120, readAt: tomorrow }, key(op)), 400, 'validation_failed');
    // Without readAt the reading is taken at the clock's now.
    const second = await post('/meter-readings', { slipId: slip.id, utility: 'electricity', reading: 150 }, key(op));
    expect(second.status, second.text).toBe(201);
    expect(second.body).toMatchObject({ readAt: new Date(at).toISOString(), usage: 50, previousReadingId: first.id });
    // 50 kWh × 20¢ within the stay (from the arrival day's local midnight).
    const billed = await post('/meter-readings/add-to-reservation', { reservationId: r.id }, key(op));
    expect(billed.status, billed.text).toBe(201);
    expect(billed.body).toMatchObject({ chargedCents: 1000, lines: [{ utility: 'electricity', usage: 50, amountCents: 1000, readings: 1 }] });
  });
});
