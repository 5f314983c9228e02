/**
 * Slip waitlist through HTTP: queue order and matching by fit, offers that hold the unit through the
 * slip lock, acceptance, decline to the bottom, offer expiry by the sweep and the next match, and an
 * accept racing a second offer of the same unit.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { appHooks, del, expectError, get, post, put, runCron } from '../../harness';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import waitlistModule from '../../../src/modules/slip-waitlist/module';
import { checkSecurity } from '../../security';
import { formatCalendarRange, formatLocalDateTime, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { boat, day, makeSlip, marinaOperator, renter, reserve } from '../marina/helpers';
import { joinWaitlist, key, mailsTo } from '../marina/marina2-helpers';

describe('slip waitlist', () => {
  it('keeps the queue, matches entries that fit a unit and answers one open entry per renter', async () => {
    const op = await marinaOperator();
    const small = await makeSlip(op, { lengthFt: 30, widthFt: 12, depthFt: 6 });
    const a = await joinWaitlist(op, { boat: boat({ loaFt: 28, beamFt: 9, draftFt: 4 }) });
    const big = await joinWaitlist(op, { boat: boat({ loaFt: 44, beamFt: 14, draftFt: 6 }) });
    const c = await joinWaitlist(op, { boat: boat({ loaFt: 29, beamFt: 9, draftFt: 4 }), unitType: 'mooring' });
    const d = await joinWaitlist(op, { boat: boat({ loaFt: 25, beamFt: 8, draftFt: 3 }) });
    const list = await get(`/slips/waitlist?locationId=${op.locationId}`, key(op));
    expect(list.body.data.map((e: any) => [e.id, e.queuePosition])).toEqual([
      [a.id, 1],
      [big.id, 2],
      [c.id, 3],
      [d.id, 4],
    ]);
    // The big boat does not fit, the mooring entry wants another unit type.
    const m = await get(`/slips/waitlist/match/${small.id}`, key(op));
    expect(m.status, m.text).toBe(200);
    expect(m.body.data.map((x: any) => x.entry.id)).toEqual([a.id, d.id]);
    expect(m.body.data[0]).toMatchObject({ available: true, arrivalDate: day(op, 20) });
    // Joining again with the same renter and rate type answers the open entry.
    const again = await post('/slips/waitlist', { locationId: op.locationId, renterId: a.renterId, boat: boat(), rateType: 'nightly' }, key(op));
    expect(again.body.id).toBe(a.id);
    const moved = await put(`/slips/waitlist/${d.id}`, { moveTo: 'top' }, key(op));
    expect(moved.body.queuePosition).toBe(1);
    expectError(
      await post(
        '/slips/waitlist',
        {
          locationId: op.locationId,
          renter: { firstName: 'X', lastName: 'Y', email: 'x@example.test' },
          boat: boat(),
          rateType: 'nightly',
          arrivalDate: day(op, 3),
        },
        key(op),
      ),
      400,
      'validation_failed',
    );
    const stats = await get(`/slips/waitlist/stats?locationId=${op.locationId}`, key(op));
    expect(stats.body.byStatus.waiting).toBe(4);
  });

  it('holds the unit for an offer, expires it by the sweep, and the unit goes to the next match', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op, { lengthFt: 40, widthFt: 14, depthFt: 8 });
    const a = await joinWaitlist(op);
    const b = await joinWaitlist(op);
    const offer = await post(`/slips/waitlist/${a.id}/offer`, { slipId: slip.id }, key(op));
    expect(offer.status, offer.text).toBe(201);
    expect(offer.body.entry.status).toBe('offered');
    expect(offer.body.reservation).toMatchObject({ status: 'awaiting_payment', source: 'waitlist', slipId: slip.id });
    const expires = Date.parse(offer.body.offer.expiresAt);
    expect(Math.abs(expires - Date.now() - 72 * 3_600_000)).toBeLessThan(60_000);
    expect(Date.parse(offer.body.reservation.hold.expiresAt)).toBe(expires);
    expect((await mailsTo(a.renter.email, 'slip_waitlist.offer'))[0].body).toContain(slip.unitNumber);
    // The hold blocks the unit for everyone: a staff reservation of the same nights is refused.
    expectError(await reserve(op, slip.id, { arrivalDate: day(op, 21), departureDate: day(op, 22) }), 409, 'unavailable');
    // The sweep before the expiry leaves it; after the expiry it releases the unit.
    expect((await runCron('*/5 * * * *'))['slip-waitlist.sweep_offers']).toMatchObject({ expired: 0 });
    const later = new Date(expires + 60_000);
    expect((await runCron('*/5 * * * *', later))['slip-waitlist.sweep_offers']).toMatchObject({ expired: 1 });
    const ea = await get(`/slips/waitlist/${a.id}`, key(op));
    expect(ea.body).toMatchObject({ status: 'waiting', queuePosition: 2, currentOffer: null });
    expect(ea.body.offers[0].status).toBe('expired');
    expect((await get(`/slip-reservations/${offer.body.reservation.id}`, key(op))).body.status).toBe('expired');
    expect(await mailsTo(a.renter.email, 'slip_waitlist.offer_expired')).toHaveLength(1);
    // Next match: b, and a is not matched to this unit again.
    const m = await get(`/slips/waitlist/match/${slip.id}`, key(op));
    expect(m.body.data.map((x: any) => x.entry.id)).toEqual([b.id]);
    const next = await post(`/slips/waitlist/${b.id}/offer`, { slipId: slip.id }, key(op));
    expect(next.status, next.text).toBe(201);
    // Accepting the lapsed offer is refused: the offer is closed.
    expectError(await post(`/slips/waitlist/${a.id}/accept`, {}, key(op)), 409, 'invalid_state');
  });

  it('accept confirms the hold; decline releases it and moves the entry to the bottom', async () => {
    const op = await marinaOperator();
    const s1 = await makeSlip(op);
    const s2 = await makeSlip(op);
    const a = await joinWaitlist(op);
    const b = await joinWaitlist(op);
    const c = await joinWaitlist(op);
    const oa = await post(`/slips/waitlist/${a.id}/offer`, { slipId: s1.id, holdHours: 24 }, key(op));
    expectError(await post(`/slips/waitlist/${a.id}/offer`, { slipId: s2.id }, key(op)), 409, 'waitlist_offer_open');
    const acc = await post(`/slips/waitlist/${a.id}/accept`, { note: 'called back' }, key(op));
    expect(acc.status, acc.text).toBe(200);
    expect(acc.body.entry).toMatchObject({ status: 'accepted', acceptedReservationId: oa.body.reservation.id });
    expect(acc.body.reservation).toMatchObject({ status: 'confirmed', hold: null });
    expect(acc.body.offer.status).toBe('accepted');
    expect((await mailsTo(a.renter.email, 'slip_reservation.confirmed')).length).toBe(1);
    const ob = await post(`/slips/waitlist/${b.id}/offer`, { slipId: s2.id }, key(op));
    const dec = await post(`/slips/waitlist/${b.id}/decline`, { note: 'too far from the gate' }, key(op));
    expect(dec.status, dec.text).toBe(200);
    expect(dec.body.entry).toMatchObject({ status: 'waiting', declineCount: 1, queuePosition: 2 });
    expect(dec.body.reservation.status).toBe('cancelled');
    const list = await get(`/slips/waitlist?locationId=${op.locationId}&status=waiting`, key(op));
    expect(list.body.data.map((e: any) => e.id)).toEqual([c.id, b.id]);
    // The unit is free again for another entry.
    expect((await post(`/slips/waitlist/${c.id}/offer`, { slipId: s2.id }, key(op))).status).toBe(201);
    expect(ob.body.reservation.id).not.toBe(undefined);
    // Cancel with an open offer withdraws it and releases the hold.
    const can = await post(`/slips/waitlist/${c.id}/cancel`, { reason: 'bought a mooring' }, key(op));
    expect(can.body).toMatchObject({ status: 'cancelled', cancelReason: 'bought a mooring', currentOffer: null });
    const detail = await get(`/slips/waitlist/${c.id}`, key(op));
    expect(detail.body.offers[0].status).toBe('withdrawn');
    expect((await get(`/slip-reservations/${detail.body.offers[0].reservationId}`, key(op))).body.status).toBe('cancelled');
    expectError(await post(`/slips/waitlist/${b.id}/accept`, {}, key(op)), 409, 'invalid_state');
    const gone = await del(`/slips/waitlist/${c.id}`, undefined, key(op));
    expect(gone.body).toEqual({ id: c.id, deleted: true });
  });

  it('an accept racing a second offer of the same unit: the accepted hold keeps the unit, exactly one reservation holds it', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const a = await joinWaitlist(op);
    const b = await joinWaitlist(op);
    const c = await joinWaitlist(op);
    await post(`/slips/waitlist/${a.id}/offer`, { slipId: slip.id }, key(op));
    const [acc, offerB, offerC] = await Promise.all([
      post(`/slips/waitlist/${a.id}/accept`, {}, key(op)),
      post(`/slips/waitlist/${b.id}/offer`, { slipId: slip.id }, key(op)),
      post(`/slips/waitlist/${c.id}/offer`, { slipId: slip.id }, key(op)),
    ]);
    expect(acc.status, acc.text).toBe(200);
    expectError(offerB, 409, 'unavailable');
    expectError(offerC, 409, 'unavailable');
    const holding = await env.DB.prepare(
      "SELECT count(*) AS n FROM slip_reservations WHERE slip_id = ? AND status IN ('pending','confirmed','checked_in','awaiting_payment')",
    )
      .bind(slip.id)
      .first<{ n: number }>();
    expect(holding!.n).toBe(1);
    // Two offers of one free unit to two entries at once: exactly one holds it.
    const slip2 = await makeSlip(op);
    const [x, y] = await Promise.all([
      post(`/slips/waitlist/${b.id}/offer`, { slipId: slip2.id }, key(op)),
      post(`/slips/waitlist/${c.id}/offer`, { slipId: slip2.id }, key(op)),
    ]);
    expect([x.status, y.status].sort()).toEqual([201, 409]);
    // Accept and decline of one offer at once: exactly one lands.
    const holder = x.status === 201 ? b : c;
    const [p, q] = await Promise.all([post(`/slips/waitlist/${holder.id}/accept`, {}, key(op)), post(`/slips/waitlist/${holder.id}/decline`, {}, key(op))]);
    expect([p.status, q.status].filter((s) => s === 200)).toHaveLength(1);
    const final = await get(`/slips/waitlist/${holder.id}`, key(op));
    expect(['accepted', 'waiting']).toContain(final.body.status);
  });

  it('lists the entries of a renter and gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const e = await joinWaitlist(op);
    const other = await joinWaitlist(op);
    const mine = await get(`/slips/waitlist/renter/${e.renterId}`, key(op));
    expect(mine.body).toMatchObject({ total: 1, data: [{ id: e.id }] });
    const reads = [
      `/slips/waitlist?locationId=${op.locationId}`,
      `/slips/waitlist/stats?locationId=${op.locationId}`,
      `/slips/waitlist/renter/${e.renterId}`,
      `/slips/waitlist/${e.id}`,
      `/slips/waitlist/match/${slip.id}`,
    ];
    for (const path of reads) await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
    const writes: [string, string, unknown][] = [
      ['POST', '/slips/waitlist', { locationId: op.locationId, renterId: e.renterId, boat: boat(), rateType: 'monthly' }],
      ['PUT', `/slips/waitlist/${e.id}`, { notes: 'n' }],
      ['POST', `/slips/waitlist/${e.id}/offer`, { slipId: slip.id }],
      ['POST', `/slips/waitlist/${e.id}/accept`, {}],
      ['POST', `/slips/waitlist/${e.id}/decline`, {}],
      ['POST', `/slips/waitlist/${e.id}/cancel`, {}],
      ['DELETE', `/slips/waitlist/${other.id}`, undefined],
    ];
    for (const [method, path, body] of writes) await checkSecurity(op, { method, path, body, otherStatus: 404, adminOnly: true });
  });
});

describe('slip waitlist on the marina clock', () => {
  it('refuses joins, changes and offers for dates already past at the location; the offer e-mail reads local time', async () => {
    // 15 June 2027 in New York: 14 June is past on this clock, though still ahead in real time.
    const op = await marinaOperator(20, { clockAt: '2027-06-15T15:00:00Z' });
    const slip = await makeSlip(op);
    const join = (arrivalDate: string, departureDate: string) =>
      post('/slips/waitlist', { locationId: op.locationId, renter: renter('wlp'), boat: boat(), rateType: 'nightly', arrivalDate, departureDate }, key(op));
    const past = await join('2027-06-14', '2027-06-20');
    expectError(past, 400, 'in_the_past');
    expect(past.body).toMatchObject({ today: '2027-06-15', details: [{ field: 'arrivalDate' }] });
    expectError(
      await post(`/public/slips/${slip.id}/waitlist`, {
        renter: renter('wlpub'),
        boat: boat(),
        rateType: 'nightly',
        arrivalDate: '2027-06-14',
        departureDate: '2027-06-16',
      }),
      400,
      'in_the_past',
    );
    const e = await join('2027-06-15', '2027-06-20');
    expect(e.status, e.text).toBe(201);
    expectError(await put(`/slips/waitlist/${e.body.id}`, { arrivalDate: '2027-06-10' }, key(op)), 400, 'in_the_past');
    // An offer for past nights holds nothing.
    expectError(
      await post(`/slips/waitlist/${e.body.id}/offer`, { slipId: slip.id, arrivalDate: '2027-06-14', departureDate: '2027-06-16' }, key(op)),
      400,
      'in_the_past',
    );
    expect((await get(`/slip-reservations?slipId=${slip.id}`, key(op))).body.total).toBe(0);
    const offer = await post(`/slips/waitlist/${e.body.id}/offer`, { slipId: slip.id, holdHours: 24 }, key(op));
    expect(offer.status, offer.text).toBe(201);
    const expires = Date.parse('2027-06-16T15:00:00Z');
    expect(offer.body.offer.expiresAt).toBe(new Date(expires).toISOString());
    const [mail] = await mailsTo(e.body.renter.email, 'slip_waitlist.offer');
    expect(mail.body).toContain(formatLocalDateTime(expires, op.timezone));
    expect(mail.body).toContain(formatCalendarRange('2027-06-15', '2027-06-20'));
    expect(mail.body).not.toMatch(ISO_TIMESTAMP);
    // The sweep is due at the offer's expiry on this clock; a wall-clock run leaves it alone.
    const job = waitlistModule.jobs!.find((j) => j.name === 'slip-waitlist.sweep_offers')!;
    const on = (ms: number) => systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(ms, op.clockId) });
    expect(await job.nextDue!(on(Date.parse('2027-06-15T15:00:00Z')))).toBe(expires);
    await job.run(systemCtx(env, { hooks: appHooks, clock: fixedClock(Date.parse('2030-01-01T00:00:00Z')) }));
    expect((await get(`/slips/waitlist/${e.body.id}`, key(op))).body.status).toBe('offered');
    expect(await job.run(on(expires - 1))).toMatchObject({ expired: 0 });
    expect(await job.run(on(expires))).toMatchObject({ expired: 1 });
    const [gone] = await mailsTo(e.body.renter.email, 'slip_waitlist.offer_expired');
    expect(gone.body).toContain(formatCalendarRange('2027-06-15', '2027-06-20'));
    expect(gone.body).not.toMatch(ISO_TIMESTAMP);
  });
});
