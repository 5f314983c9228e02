/**
 * Guest passes through HTTP: codes of the unambiguous alphabet, unique among active passes, windows
 * within the stay, verification answered distinctly (valid, not yet valid, expired, revoked), passes
 * dying with their reservation (cancel, check-out), the guessing throttle, check-in and ID rules, the
 * expiry sweep, and the passes on the reservation's detail.
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { appHooks, expectError, get, post, put, del, runCron } from '../../harness';
import { fixedClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { formatLocalRange, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import guestAccessModule from '../../../src/modules/slip-guest-access/module';
import { day, makeSlip, marinaOperator, reserve, today } from '../marina/helpers';
import { key, mailsTo } from '../marina/marina2-helpers';
import { checkSecurity } from '../../security';

const CODE = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/;

describe('slip guest access', () => {
  it('creates passes with unambiguous codes and answers valid, not yet valid, expired and revoked distinctly', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 5) })).body;
    const p = await post(
      '/slips/guest-access',
      { reservationId: r.id, guestName: 'Gina Guest', guestEmail: 'gina@example.test', permissions: ['gate', 'pool'] },
      key(op),
    );
    expect(p.status, p.text).toBe(201);
    expect(p.body.accessCode).toMatch(CODE);
    expect(p.body).toMatchObject({ status: 'active', permissions: ['gate', 'pool'], createdVia: 'staff' });
    const codeMail = (await mailsTo('gina@example.test', 'slip_guest_pass.code'))[0].body;
    expect(codeMail).toContain(p.body.accessCode);
    // The window in the marina's time, never ISO.
    expect(codeMail).toContain(`Valid ${formatLocalRange(p.body.validFrom, p.body.validUntil, op.timezone)}.`);
    expect(codeMail).not.toMatch(ISO_TIMESTAMP);
    const v = await get(`/slips/guest-access/verify/${p.body.accessCode.toLowerCase()}`, key(op));
    expect(v.status, v.text).toBe(200);
    expect(v.body).toMatchObject({
      valid: true,
      result: 'valid',
      reason: null,
      reservation: { reservationNumber: r.reservationNumber, unitNumber: slip.unitNumber },
    });
    // A window outside the stay is refused; a later start is not yet valid.
    expectError(
      await post('/slips/guest-access', { reservationId: r.id, guestName: 'Late', validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString() }, key(op)),
      400,
      'validation_failed',
    );
    const later = await post(
      '/slips/guest-access',
      { reservationId: r.id, guestName: 'Tomorrow', validFrom: new Date(Date.now() + 86_400_000).toISOString() },
      key(op),
    );
    expect((await get(`/slips/guest-access/verify/${later.body.accessCode}`, key(op))).body).toMatchObject({ valid: false, result: 'not_yet_valid' });
    // A code of one's own: the alphabet is enforced, and it is unique among active passes.
    expectError(await post('/slips/guest-access', { reservationId: r.id, guestName: 'O', accessCode: 'BOAT1234' }, key(op)), 400, 'validation_failed');
    const own = await post('/slips/guest-access', { reservationId: r.id, guestName: 'Own', accessCode: 'deck7788' }, key(op));
    expect(own.body.accessCode).toBe('DECK7788');
    expectError(await post('/slips/guest-access', { reservationId: r.id, guestName: 'Dup', accessCode: 'DECK7788' }, key(op)), 409, 'already_exists');
    // Revoked: distinct answer; the code is free again for a new active pass.
    await post(`/slips/guest-access/${own.body.id}/revoke`, { reason: 'lost phone' }, key(op));
    expect((await get('/slips/guest-access/verify/DECK7788', key(op))).body).toMatchObject({ result: 'revoked', reason: 'revoked_by_staff: lost phone' });
    expect((await post('/slips/guest-access', { reservationId: r.id, guestName: 'Again', accessCode: 'DECK7788' }, key(op))).status).toBe(201);
    // Expired: a window that ended (moved into the past in the database).
    await env.DB.prepare('UPDATE slip_guest_passes SET valid_until = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), p.body.id)
      .run();
    expect((await get(`/slips/guest-access/verify/${p.body.accessCode}`, key(op))).body).toMatchObject({
      valid: false,
      result: 'expired',
      reason: 'window_ended',
    });
    expect((await get(`/slips/guest-access?locationId=${op.locationId}&status=expired`, key(op))).body.data.map((x: any) => x.id)).toEqual([p.body.id]);
    expect((await runCron('*/5 * * * *'))['slip-guest-access.expire_passes']).toMatchObject({ expired: 1 });
    // Regenerating a code: the old one is unknown afterwards.
    const old = later.body.accessCode;
    const regen = await put(`/slips/guest-access/${later.body.id}`, { regenerateCode: true, guestName: 'Tomorrow Tom' }, key(op));
    expect(regen.body.accessCode).not.toBe(old);
    expectError(await get(`/slips/guest-access/verify/${old}`, key(op)), 404, 'not_found');
    // The reservation's detail lists its passes.
    const detail = await get(`/slip-reservations/${r.id}`, key(op));
    expect(detail.body.guestPasses.map((g: any) => g.guestName).sort()).toEqual(['Again', 'Gina Guest', 'Own', 'Tomorrow Tom']);
    const stats = await get(`/slips/guest-access/stats?locationId=${op.locationId}`, key(op));
    expect(stats.body).toMatchObject({ byStatus: { active: 2, expired: 1, revoked: 1 }, total: 4 });
    expect((await del(`/slips/guest-access/${own.body.id}`, undefined, key(op))).body).toEqual({ id: own.body.id, deleted: true });
  });

  it('passes stop working at once when their reservation is cancelled or checked out', async () => {
    const op = await marinaOperator();
    const s1 = await makeSlip(op);
    const s2 = await makeSlip(op);
    const r1 = (await reserve(op, s1.id, { arrivalDate: today(op), departureDate: day(op, 3) })).body;
    const r2 = (await reserve(op, s2.id, { arrivalDate: today(op), departureDate: day(op, 3) })).body;
    const p1 = (await post('/slips/guest-access', { reservationId: r1.id, guestName: 'A' }, key(op))).body;
    const p2 = (await post('/slips/guest-access', { reservationId: r2.id, guestName: 'B' }, key(op))).body;
    await post(`/slip-reservations/${r1.id}/cancel`, { reason: 'plans changed' }, key(op));
    const v1 = await get(`/slips/guest-access/verify/${p1.accessCode}`, key(op));
    expect(v1.body).toMatchObject({ valid: false, result: 'revoked', reason: 'reservation_cancelled' });
    expect((await get(`/slips/guest-access/${p1.id}`, key(op))).body.status).toBe('revoked');
    expectError(await post(`/slips/guest-access/${p1.id}/check-in`, {}, key(op)), 409, 'guest_pass_not_valid');
    expect((await post(`/slip-reservations/${r2.id}/check-in`, {}, key(op))).status).toBe(200);
    expect((await post(`/slips/guest-access/${p2.id}/check-in`, {}, key(op))).body.checkInCount).toBe(1);
    await post(`/slip-reservations/${r2.id}/check-out`, {}, key(op));
    expect((await get(`/slips/guest-access/verify/${p2.accessCode}`, key(op))).body).toMatchObject({ result: 'revoked', reason: 'reservation_checked_out' });
    // Even a pass whose stored status was not updated dies with the reservation (the verification reads it live).
    const r3 = (await reserve(op, s1.id, { arrivalDate: day(op, 10), departureDate: day(op, 12) })).body;
    const p3 = (await post('/slips/guest-access', { reservationId: r3.id, guestName: 'C' }, key(op))).body;
    await env.DB.prepare("UPDATE slip_reservations SET status = 'cancelled' WHERE id = ?").bind(r3.id).run();
    expect((await get(`/slips/guest-access/verify/${p3.accessCode}`, key(op))).body).toMatchObject({ result: 'revoked', reason: 'reservation_cancelled' });
    expectError(await post('/slips/guest-access', { reservationId: r1.id, guestName: 'D' }, key(op)), 409, 'invalid_state');
  });

  it('checks the ID before check-in when asked, and throttles guessing of codes', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 2) })).body;
    const p = (await post('/slips/guest-access', { reservationId: r.id, guestName: 'Ida', idRequired: true }, key(op))).body;
    expectError(await post(`/slips/guest-access/${p.id}/check-in`, {}, key(op)), 409, 'guest_id_not_verified');
    const idv = await post(`/slips/guest-access/${p.id}/verify-id`, { idType: 'passport' }, key(op));
    expect(idv.body).toMatchObject({ idVerified: true, idType: 'passport', idVerifiedBy: op.adminId });
    expect((await post(`/slips/guest-access/${p.id}/check-in`, {}, key(op))).status).toBe(200);
    // A dock hand (no marina permission) verifies with an own key: 10 unknown codes, then 429 even for a good code.
    const hand = await op.addUser({ role: 'staff' });
    expect((await get(`/slips/guest-access/verify/${p.accessCode}`, { key: hand.key })).body.result).toBe('valid');
    for (let i = 0; i < 10; i++) expectError(await get(`/slips/guest-access/verify/ZZZZ${String(2222 + i)}`, { key: hand.key }), 404, 'not_found');
    const locked = await get(`/slips/guest-access/verify/${p.accessCode}`, { key: hand.key });
    expectError(locked, 429, 'rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other credentials are not affected.
    expect((await get(`/slips/guest-access/verify/${p.accessCode}`, key(op))).status).toBe(200);
    expectError(await post('/slips/guest-access', { reservationId: r.id, guestName: 'X' }, { key: hand.key }), 403, 'forbidden');
  });

  it('expires passes past their window for a location and gets the shared security checks on every route', async () => {
    const op = await marinaOperator();
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 3) })).body;
    const p = (await post('/slips/guest-access', { reservationId: r.id, guestName: 'Old' }, key(op))).body;
    const q = (await post('/slips/guest-access', { reservationId: r.id, guestName: 'New' }, key(op))).body;
    await env.DB.prepare('UPDATE slip_guest_passes SET valid_until = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), p.id)
      .run();
    const ex = await post('/slips/guest-access/expire', { locationId: op.locationId }, key(op));
    expect(ex.body).toEqual({ locationId: op.locationId, expired: 1 });
    expect((await get(`/slips/guest-access/${p.id}`, key(op))).body.status).toBe('expired');
    expect((await get(`/slips/guest-access?locationId=${op.locationId}&reservationId=${r.id}&status=active`, key(op))).body.data.map((x: any) => x.id)).toEqual(
      [q.id],
    );
    const reads = [`/slips/guest-access?locationId=${op.locationId}`, `/slips/guest-access/stats?locationId=${op.locationId}`, `/slips/guest-access/${q.id}`];
    for (const path of reads) await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
    // Verification by code: another operator does not know the code.
    await checkSecurity(op, { method: 'GET', path: `/slips/guest-access/verify/${q.accessCode}`, otherStatus: 404 });
    const writes: [string, string, unknown][] = [
      ['POST', '/slips/guest-access', { reservationId: r.id, guestName: 'S' }],
      ['POST', '/slips/guest-access/expire', { locationId: op.locationId }],
      ['PUT', `/slips/guest-access/${q.id}`, { guestName: 'Renamed' }],
      ['POST', `/slips/guest-access/${q.id}/revoke`, {}],
      ['DELETE', `/slips/guest-access/${p.id}`, undefined],
    ];
    for (const [method, path, body] of writes) await checkSecurity(op, { method, path, body, otherStatus: 404, adminOnly: true });
    // The dock's own operations: any user of the operator (no marina permission needed).
    await checkSecurity(op, { method: 'POST', path: `/slips/guest-access/${q.id}/check-in`, body: {}, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: `/slips/guest-access/${q.id}/verify-id`, body: { idType: 'passport' }, otherStatus: 404 });
  });
});

describe('guest pass expiry on the clock', () => {
  it('the sweep reads its clock and scope: nextDue is the next pass to end; a wall-clock run leaves a test-clock operator alone', async () => {
    const t0 = Date.parse('2027-02-01T15:00:00Z');
    const op = await marinaOperator(20, { clockAt: t0 });
    const slip = await makeSlip(op);
    const r = (await reserve(op, slip.id, { arrivalDate: today(op), departureDate: day(op, 3) })).body;
    const until = new Date(t0 + 2 * 3_600_000).toISOString();
    const p = await post('/slips/guest-access', { reservationId: r.id, guestName: 'Two Hours', validUntil: until }, key(op));
    expect(p.status, p.text).toBe(201);
    expect(p.body).toMatchObject({ validFrom: new Date(t0).toISOString(), validUntil: until, status: 'active' });
    const job = guestAccessModule.jobs!.find((j) => j.name === 'slip-guest-access.expire_passes')!;
    const on = (ms: number) => systemCtx(env, { customerId: op.customerId, hooks: appHooks, clock: fixedClock(ms, op.clockId) });
    expect(await job.nextDue!(on(t0))).toBe(Date.parse(until));
    await job.run(systemCtx(env, { hooks: appHooks, clock: fixedClock(Date.parse('2030-01-01T00:00:00Z')) }));
    expect((await get(`/slips/guest-access/${p.body.id}`, key(op))).body.status).toBe('active');
    expect(await job.run(on(Date.parse(until)))).toEqual({ expired: 1 });
    expect(await job.nextDue!(on(Date.parse(until)))).toBeNull();
  });
});
