/**
 * Haul services through HTTP: the states requested → scheduled (pricing) → confirmed → in progress →
 * completed with the charge posted once to the reservation (hand-computed cents), cancel and delete
 * only before the work starts, the daily lift capacity under parallel scheduling, photos in R2, the
 * day plan, lists and stats, and the shared security checks on every route.
 */
import { describe, it, expect } from 'vitest';
import { api, del, expectError, get, post, put } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { formatCalendarDate, formatLocalDateTime, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { wallTimeToUtc } from '../../../src/lib/time';
import { checkSecurity } from '../../security';
import { day, makeSlip, marinaOperator, reserve, today } from '../marina/helpers';
import { key, mailsTo } from '../marina/marina2-helpers';
import { form, pngBytes } from '../inventory/helpers';

const upload = (path: string, fd: FormData, k: string) => api('POST', path, { key: k, rawBody: fd });

describe('haul services', () => {
  it('runs requested → scheduled → confirmed → in progress → completed and posts the price to the reservation once', async () => {
    const op = await marinaOperator();
    expect((await put(`/slip-settings/${op.locationId}`, { taxRatePercent: 10, haulRates: { haul_out: 1500 } }, key(op))).status).toBe(200);
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: day(op, 1), departureDate: day(op, 20) })).body;
    const before = (await get(`/slip-reservations/${r.id}`, key(op))).body.totalCents;
    const h = await post('/haul-services', { reservationId: r.id, serviceType: 'haul_out', requestedDate: day(op, 5), boat: { weightLbs: 9000 } }, key(op));
    expect(h.status, h.text).toBe(201);
    expect(h.body).toMatchObject({
      status: 'requested',
      renterId: r.renterId,
      slipId: slip.id,
      boat: { vesselName: 'Sea Breeze', loaFt: 30, weightLbs: 9000 },
    });
    // Wrong states answer 409.
    expectError(await post(`/haul-services/${h.body.id}/confirm`, {}, key(op)), 409, 'invalid_state');
    expectError(await post(`/haul-services/${h.body.id}/start`, {}, key(op)), 409, 'invalid_state');
    expectError(await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: day(op, -1) }, key(op)), 400, 'in_the_past');
    const s = await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: day(op, 5), scheduledTime: '08:00' }, key(op));
    expect(s.status, s.text).toBe(200);
    // 1500 cents per foot × 30 ft = 45000; tax 10% (the reservation's rate) = 4500.
    expect(s.body.pricing).toMatchObject({ subtotalCents: 45000, taxRatePercent: 10, taxCents: 4500, totalCents: 49500 });
    expect(s.body.pricing.lines.map((l: any) => l.description)).toEqual(['Haul out: 30 ft × $15.00 per ft']);
    expect(s.body.lifts).toEqual([{ date: day(op, 5), kind: 'haul_out' }]);
    expect((await mailsTo(r.renter.email, 'haul_service.scheduled'))[0].body).toContain('$495.00');
    expectError(await post(`/haul-services/${h.body.id}/complete`, {}, key(op)), 409, 'invalid_state');
    expect((await post(`/haul-services/${h.body.id}/confirm`, { note: 'ok' }, key(op))).body.status).toBe('confirmed');
    // Scheduled five days ahead: starting today needs the staff's explicit `early`.
    const notDue = await post(`/haul-services/${h.body.id}/start`, {}, key(op));
    expectError(notDue, 409, 'haul_not_due');
    expect(notDue.body).toMatchObject({ scheduledDate: day(op, 5), today: today(op) });
    expectError(await post(`/haul-services/${h.body.id}/start`, { early: 'yes' }, key(op)), 400, 'validation_failed');
    expect((await get(`/haul-services/${h.body.id}`, key(op))).body.status).toBe('confirmed');
    expect((await post(`/haul-services/${h.body.id}/start`, { early: true }, key(op))).body.status).toBe('in_progress');
    // Started: no edit, cancel or delete.
    expectError(await put(`/haul-services/${h.body.id}`, { notes: 'x' }, key(op)), 409, 'invalid_state');
    expectError(await post(`/haul-services/${h.body.id}/cancel`, {}, key(op)), 409, 'invalid_state');
    expectError(await del(`/haul-services/${h.body.id}`, undefined, key(op)), 409, 'invalid_state');
    const done = await post(`/haul-services/${h.body.id}/complete`, {}, key(op));
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', chargedCents: 49500 });
    const after = (await get(`/slip-reservations/${r.id}`, key(op))).body;
    expect(after.totalCents - before).toBe(49500);
    expect(after.pricing.fees.some((f: any) => f.name.startsWith(h.body.serviceNumber) && f.amountCents === 45000)).toBe(true);
    // Completing again changes nothing.
    expectError(await post(`/haul-services/${h.body.id}/complete`, {}, key(op)), 409, 'invalid_state');
    expect((await get(`/slip-reservations/${r.id}`, key(op))).body.totalCents).toBe(after.totalCents);

    // Lists, day plan, stats.
    expect((await get(`/haul-services/reservation/${r.id}`, key(op))).body).toMatchObject({ total: 1, data: [{ id: h.body.id }] });
    expect((await get(`/haul-services/renter/${r.renterId}`, key(op))).body.total).toBe(1);
    const listed = await get(`/haul-services?locationId=${op.locationId}&status=completed&startDate=${day(op, 5)}&endDate=${day(op, 5)}`, key(op));
    expect(listed.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect((await get(`/haul-services?locationId=${op.locationId}&startDate=${day(op, 6)}`, key(op))).body.total).toBe(0);
    const plan = await get(`/haul-services/scheduled/${day(op, 5)}?locationId=${op.locationId}`, key(op));
    expect(plan.body).toMatchObject({ capacity: 6, liftsBooked: 1, liftsLeft: 5, total: 1 });
    const stats = await get(`/haul-services/stats?locationId=${op.locationId}`, key(op));
    expect(stats.body).toMatchObject({ total: 1, byStatus: { completed: 1 }, byType: { haul_out: 1 }, completedRevenueCents: 49500 });
  });

  it('takes custom pricing, keeps a service without reservation for separate billing, cancels and deletes before the start', async () => {
    const op = await marinaOperator();
    const h = await post(
      '/haul-services',
      {
        locationId: op.locationId,
        renter: { firstName: 'Walk', lastName: 'In', email: `walk-${Date.now()}@example.test` },
        boat: { vesselName: 'Trailer Queen', loaFt: 22 },
        serviceType: 'round_trip',
        requestedDate: day(op, 3),
        requestedReturnDate: day(op, 4),
      },
      key(op),
    );
    expect(h.status, h.text).toBe(201);
    expectError(
      await post(
        '/haul-services',
        {
          locationId: op.locationId,
          renter: { firstName: 'A', lastName: 'B', email: 'ab@example.test' },
          boat: { vesselName: 'X', loaFt: 20 },
          serviceType: 'launch',
          requestedDate: day(op, 3),
          requestedReturnDate: day(op, 4),
        },
        key(op),
      ),
      400,
      'validation_failed',
    );
    const s = await post(
      `/haul-services/${h.body.id}/schedule`,
      {
        scheduledDate: day(op, 3),
        returnDate: day(op, 4),
        pricing: {
          lines: [
            { description: 'Lift and pressure wash', amountCents: 32000 },
            { description: 'Storage', amountCents: 5000, taxable: false },
          ],
          taxRatePercent: 5,
        },
      },
      key(op),
    );
    expect(s.body.pricing).toMatchObject({ subtotalCents: 37000, taxCents: 1600, totalCents: 38600 });
    expect(s.body.lifts).toEqual([
      { date: day(op, 3), kind: 'haul_out' },
      { date: day(op, 4), kind: 'launch' },
    ]);
    // Re-scheduling moves the lifts and needs a new confirmation.
    await post(`/haul-services/${h.body.id}/confirm`, {}, key(op));
    const moved = await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: day(op, 6) }, key(op));
    expect(moved.body).toMatchObject({ status: 'scheduled', scheduledDate: day(op, 6), returnDate: day(op, 6) });
    expect((await get(`/haul-services/scheduled/${day(op, 3)}?locationId=${op.locationId}`, key(op))).body.liftsBooked).toBe(0);
    const upd = await put(`/haul-services/${h.body.id}`, { notes: 'Bring the trailer', boat: { weightLbs: 4000 } }, key(op));
    expect(upd.body).toMatchObject({ notes: 'Bring the trailer', boat: { weightLbs: 4000, loaFt: 22 } });
    expectError(await put(`/haul-services/${h.body.id}`, { serviceType: 'launch' }, key(op)), 409, 'invalid_state');
    expectError(await put(`/haul-services/${h.body.id}`, {}, key(op)), 400, 'no_changes');
    const c = await post(`/haul-services/${h.body.id}/cancel`, { reason: 'Weather' }, key(op));
    expect(c.body).toMatchObject({ status: 'cancelled', cancelReason: 'Weather', lifts: [] });
    expect((await post(`/haul-services/${h.body.id}/cancel`, {}, key(op))).body.status).toBe('cancelled');
    expect((await del(`/haul-services/${h.body.id}`, undefined, key(op))).body).toEqual({ id: h.body.id, deleted: true });
    expectError(await get(`/haul-services/${h.body.id}`, key(op)), 404, 'not_found');
  });

  it('never books more lifts than the daily capacity, even when schedules race', async () => {
    const op = await marinaOperator();
    await put(`/slip-settings/${op.locationId}`, { dailyLiftCapacity: 3 }, key(op));
    const date = day(op, 8);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const h = await post(
        '/haul-services',
        {
          locationId: op.locationId,
          renter: { firstName: 'R', lastName: `${i}`, email: `lift${i}-${Date.now()}@example.test` },
          boat: { vesselName: `B${i}`, loaFt: 25 },
          serviceType: 'haul_out',
          requestedDate: date,
        },
        key(op),
      );
      ids.push(h.body.id);
    }
    const results = await Promise.all(ids.map((id) => post(`/haul-services/${id}/schedule`, { scheduledDate: date }, key(op))));
    const ok = results.filter((r) => r.status === 200);
    const full = results.filter((r) => r.status === 409);
    expect(ok.length).toBe(3);
    expect(full.length).toBe(3);
    for (const f of full) expectError(f, 409, 'lift_capacity_full');
    const plan = (await get(`/haul-services/scheduled/${date}?locationId=${op.locationId}`, key(op))).body;
    expect(plan).toMatchObject({ capacity: 3, liftsBooked: 3, liftsLeft: 0, total: 3 });
    // A cancelled service gives its lift back.
    await post(`/haul-services/${ok[0].body.id}/cancel`, {}, key(op));
    const refused = ids.filter((id) => !ok.some((o) => o.body.id === id));
    expect((await post(`/haul-services/${refused[0]}/schedule`, { scheduledDate: date }, key(op))).status).toBe(200);
    // Capacity 0: the lift is out of service.
    await put(`/slip-settings/${op.locationId}`, { dailyLiftCapacity: 0 }, key(op));
    expectError(await post(`/haul-services/${refused[1]}/schedule`, { scheduledDate: day(op, 9) }, key(op)), 409, 'lift_capacity_full');
  });

  it('stores photos checked by content and serves them', async () => {
    const op = await marinaOperator();
    const h = (
      await post(
        '/haul-services',
        {
          locationId: op.locationId,
          renter: { firstName: 'P', lastName: 'H', email: `ph-${Date.now()}@example.test` },
          boat: { vesselName: 'Snap', loaFt: 20 },
          serviceType: 'relocation',
          requestedDate: day(op, 2),
          destination: 'Yard row 4',
        },
        key(op),
      )
    ).body;
    const fd = form(pngBytes(4, 3), 'hull.png', 'image/png');
    fd.append('caption', 'Hull before');
    const up = await upload(`/haul-services/${h.id}/photos`, fd, op.adminKey);
    expect(up.status, up.text).toBe(201);
    expect(up.body.photos).toHaveLength(1);
    expect(up.body.photos[0]).toMatchObject({ contentType: 'image/png', caption: 'Hull before' });
    const file = await get(up.body.photos[0].url, key(op));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expectError(await upload(`/haul-services/${h.id}/photos`, form('not an image', 'x.png', 'image/png'), op.adminKey), 400, 'haul_photo_not_accepted');
    expectError(await post(`/haul-services/${h.id}/photos`, {}, key(op)), 400);
    expectError(await get(`/haul-services/${h.id}/photos/hph_nothing`, key(op)), 404, 'not_found');
  });

  it('gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const h = (
      await post(
        '/haul-services',
        {
          locationId: op.locationId,
          renter: { firstName: 'S', lastName: 'C', email: `sc-${Date.now()}@example.test` },
          boat: { vesselName: 'Sec', loaFt: 20 },
          serviceType: 'launch',
          requestedDate: day(op, 2),
        },
        key(op),
      )
    ).body;
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id)).body;
    const id = h.id;
    const reads = [
      `/haul-services?locationId=${op.locationId}`,
      `/haul-services/stats?locationId=${op.locationId}`,
      `/haul-services/scheduled/${day(op, 2)}?locationId=${op.locationId}`,
      `/haul-services/renter/${h.renterId}`,
      `/haul-services/reservation/${r.id}`,
      `/haul-services/${id}`,
      `/haul-services/${id}/photos/hph_x`,
    ];
    for (const path of reads) await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
    const writes: [string, string, unknown][] = [
      [
        'POST',
        '/haul-services',
        { locationId: op.locationId, renterId: h.renterId, boat: { vesselName: 'S', loaFt: 20 }, serviceType: 'launch', requestedDate: day(op, 3) },
      ],
      ['PUT', `/haul-services/${id}`, { notes: 'n' }],
      ['POST', `/haul-services/${id}/schedule`, { scheduledDate: day(op, 2) }],
      ['POST', `/haul-services/${id}/confirm`, {}],
      ['POST', `/haul-services/${id}/start`, {}],
      ['POST', `/haul-services/${id}/complete`, {}],
      ['POST', `/haul-services/${id}/cancel`, {}],
      ['POST', `/haul-services/${id}/photos`, {}],
      ['DELETE', `/haul-services/${id}`, undefined],
    ];
    for (const [method, path, body] of writes) await checkSecurity(op, { method, path, body, otherStatus: 404, adminOnly: true });
  });
});

describe.each(pinnedClocks())('haul services at $label', ({ timezone, at }) => {
  it('takes today and refuses yesterday in the location calendar, and tells the renter the local time', async () => {
    const op = await marinaOperator(20, { clockAt: at, timezone });
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 5) })).body;
    const ask = (requestedDate: string) =>
      post('/haul-services', { reservationId: r.id, serviceType: 'round_trip', requestedDate, requestedReturnDate: day(op, 1) }, key(op));
    const past = await ask(day(op, -1));
    expectError(past, 400, 'in_the_past');
    expect(past.body.details).toEqual([{ field: 'requestedDate', message: `must be today (${today(op)}) or later` }]);
    const h = await ask(today(op));
    expect(h.status, h.text).toBe(201);
    expectError(await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: day(op, -1) }, key(op)), 400, 'in_the_past');
    const s = await post(`/haul-services/${h.body.id}/schedule`, { scheduledDate: today(op), scheduledTime: '16:30' }, key(op));
    expect(s.status, s.text).toBe(200);
    expect(s.body.lifts).toEqual([
      { date: today(op), kind: 'haul_out' },
      { date: day(op, 1), kind: 'launch' },
    ]);
    const [mail] = await mailsTo(r.renter.email, 'haul_service.scheduled');
    expect(mail.body).toContain(
      `${formatLocalDateTime(wallTimeToUtc(today(op), '16:30', timezone), timezone)}, back in the water on ${formatCalendarDate(day(op, 1))}`,
    );
    expect(mail.body).not.toMatch(ISO_TIMESTAMP);
    // The scheduled day is the location's today: the work may start without `early`; a service of tomorrow may not.
    expect((await post(`/haul-services/${h.body.id}/confirm`, {}, key(op))).body.status).toBe('confirmed');
    const started = await post(`/haul-services/${h.body.id}/start`, {}, key(op));
    expect(started.status, started.text).toBe(200);
    expect(started.body.status).toBe('in_progress');
    const next = await post('/haul-services', { reservationId: r.id, serviceType: 'launch', requestedDate: day(op, 1) }, key(op));
    expect((await post(`/haul-services/${next.body.id}/schedule`, { scheduledDate: day(op, 1) }, key(op))).status).toBe(200);
    expect((await post(`/haul-services/${next.body.id}/confirm`, {}, key(op))).status).toBe(200);
    expectError(await post(`/haul-services/${next.body.id}/start`, {}, key(op)), 409, 'haul_not_due');
  });
});
