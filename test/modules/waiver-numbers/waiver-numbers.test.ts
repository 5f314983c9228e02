import { describe, it, expect } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { waiverNumbers } from '../../../src/db/schema/waivers';
import { auditLogs } from '../../../src/db/schema/accounts';
import { env } from 'cloudflare:test';
import { systemCtx } from '../../../src/lib/context';
import { patchWaiverNumber, PIN_TTL_DAYS } from '../../../src/modules/waiver-numbers/service';

async function newRenter(op: Operator, email = 'signer@example.test') {
  const r = await post('/renters', { customerId: op.customerId, firstName: 'Sam', lastName: 'Signer', email, address: '1 Pier Rd' }, { key: op.adminKey });
  expect([200, 201]).toContain(r.status);
  return r.body;
}

async function newWaiverNumber(op: Operator, extra: Record<string, unknown> = {}) {
  const r = await post(
    '/pending-renters',
    {
      customerId: op.customerId,
      locationId: op.locationId,
      firstName: 'Pat',
      lastName: 'Pending',
      email: 'pat@example.test',
      phone: '+1 555 0100',
      dob: '1990-04-01',
      transactionId: 'txn_wn_1',
      ...extra,
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body;
}

describe('POST /pending-renters', () => {
  it('creates a pending waiver number with an unguessable PIN and version 1', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op, { address: { city: 'Miami' }, rawData: { note: 'x' }, assignTo: 'Captain', assetId: 'ast_1' });
    expect(wn.status).toBe('PENDING');
    expect(wn.waiverNumber).toMatch(/^WN-[0-9A-Z]{10}$/);
    expect(wn.pin).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(wn.version).toBe('1');
    expect(wn.expired).toBe(false);
    const ttl = Date.parse(wn.expiresAt) - Date.parse(wn.createdAt);
    expect(ttl).toBe(PIN_TTL_DAYS * 86_400_000);
    expect(wn).toMatchObject({
      customerId: op.customerId,
      locationId: op.locationId,
      address: { city: 'Miami' },
      rawData: { note: 'x' },
      assignTo: 'Captain',
      assetId: 'ast_1',
      transactionId: 'txn_wn_1',
    });
    const pins = new Set<string>();
    for (let i = 0; i < 5; i++) pins.add((await newWaiverNumber(op)).pin);
    expect(pins.size).toBe(5);
  });

  it('answers 409 when the waiver number exists; 404 for foreign refs; 403 for a foreign customer; 400 without customerId', async () => {
    const op = await createOperator();
    const other = await createOperator();
    await newWaiverNumber(op, { waiverNumber: 'PAPER-1001' });
    expectError(await post('/pending-renters', { customerId: op.customerId, waiverNumber: 'PAPER-1001' }, { key: op.adminKey }), 409, 'already_exists');
    // Another operator may use the same number.
    expect((await post('/pending-renters', { customerId: other.customerId, waiverNumber: 'PAPER-1001' }, { key: other.adminKey })).status).toBe(201);
    expectError(await post('/pending-renters', {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/pending-renters', { customerId: other.customerId }, { key: op.adminKey }), 403, 'forbidden');
    expectError(await post('/pending-renters', { customerId: op.customerId, locationId: other.locationId }, { key: op.adminKey }), 404, 'not_found');
    expectError(await post('/pending-renters', { customerId: op.customerId, renterId: 'rnt_nope' }, { key: op.adminKey }), 404, 'not_found');
    expectError(await post('/pending-renters', { customerId: op.customerId, email: 'nope' }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/pending-renters', { customerId: op.customerId, address: 'a string' }, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'POST', path: '/pending-renters', body: { customerId: op.customerId }, otherStatus: 403 });
  });
});

describe('GET /pending-renters', () => {
  it('lists by transaction, location or customer with a status filter; needs at least one', async () => {
    const op = await createOperator();
    const a = await newWaiverNumber(op, { transactionId: 'txn_A' });
    const b = await newWaiverNumber(op, { transactionId: 'txn_B' });
    const renter = await newRenter(op);
    await patch(`/pending-renters/${b.waiverNumber}/complete`, { renterId: renter.id, waiverUrl: 'https://w.test/b' }, { key: op.adminKey });
    const q = (s: string) => get(`/pending-renters?${s}`, { key: op.adminKey });
    expect((await q('transactionId=txn_A')).body.data.map((w: any) => w.waiverNumber)).toEqual([a.waiverNumber]);
    expect((await q(`locationId=${op.locationId}`)).body.total).toBe(2);
    expect((await q(`customerId=${op.customerId}&status=COMPLETED`)).body.data.map((w: any) => w.waiverNumber)).toEqual([b.waiverNumber]);
    expect((await q(`customerId=${op.customerId}&status=PENDING`)).body.data.map((w: any) => w.waiverNumber)).toEqual([a.waiverNumber]);
    expectError(await q(''), 400, 'validation_failed');
    expectError(await q('status=PENDING'), 400, 'validation_failed');
    expectError(await q(`customerId=${op.customerId}&status=DONE`), 400, 'validation_failed');
    const other = await createOperator();
    expectError(await get(`/pending-renters?customerId=${op.customerId}`, { key: other.adminKey }), 403, 'forbidden');
    expect((await get('/pending-renters?transactionId=txn_A', { key: other.adminKey })).body.data).toEqual([]);
  });

  it('security', async () => {
    const op = await createOperator();
    await checkSecurity(op, { method: 'GET', path: `/pending-renters?customerId=${op.customerId}`, otherStatus: 403 });
  });
});

describe('GET /pending-renters/validate (public)', () => {
  it('answers the waiver for a pending PIN without credentials; 404 unknown or completed; 410 expired', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op, { rawData: { internal: 'operator only' } });
    const r = await get(`/pending-renters/validate?pin=${wn.pin.toLowerCase()}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ waiverNumber: wn.waiverNumber, firstName: 'Pat', status: 'PENDING', locationId: op.locationId });
    expect(r.body.pin).toBeUndefined();
    expect(r.body.rawData).toBeUndefined();
    expectError(await get('/pending-renters/validate?pin=ZZZZZZZZ'), 404, 'not_found');
    expectError(await get('/pending-renters/validate'), 400, 'validation_failed');

    const renter = await newRenter(op);
    await patch(`/pending-renters/${wn.waiverNumber}/complete`, { renterId: renter.id, waiverUrl: 'https://w.test/1' }, { key: op.adminKey });
    expectError(await get(`/pending-renters/validate?pin=${wn.pin}`), 404, 'not_found');

    const old = await newWaiverNumber(op);
    await db()
      .update(waiverNumbers)
      .set({ pinExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(waiverNumbers.pin, old.pin));
    expectError(await get(`/pending-renters/validate?pin=${old.pin}`), 410, 'expired');
    const listed = await get(`/pending-renters?transactionId=txn_wn_1&status=PENDING`, { key: op.adminKey });
    expect(listed.body.data.find((w: any) => w.waiverNumber === old.waiverNumber).expired).toBe(true);
  });
});

describe('PATCH /pending-renters/{waiverNumber}', () => {
  it('updates fields, changes the version on every write, and refuses a stale expectedVersion with 409', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    const r1 = await patch(`/pending-renters/${wn.waiverNumber}`, { firstName: 'Patricia', expectedVersion: '1' }, { key: op.adminKey });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body).toMatchObject({ firstName: 'Patricia', version: '2' });
    const r2 = await patch(`/pending-renters/${wn.waiverNumber}`, { assignTo: 'Deckhand' }, { key: op.adminKey });
    expect(r2.body.version).toBe('3');
    const stale = await patch(`/pending-renters/${wn.waiverNumber}`, { lastName: 'Stale', expectedVersion: '2' }, { key: op.adminKey });
    expectError(stale, 409, 'version_conflict');
    expect(stale.body.currentVersion).toBe('3');
    const numeric = await patch(`/pending-renters/${wn.waiverNumber}`, { lastName: 'Fresh', expectedVersion: 3 }, { key: op.adminKey });
    expect(numeric.body).toMatchObject({ lastName: 'Fresh', version: '4' });
  });

  it('expectedVersion is opaque: any string that is not the current version is a 409 version_conflict', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    const ctx = systemCtx(env, { customerId: op.customerId });
    for (const expectedVersion of ['abc', 'v1', '01', '1.0', '2', '']) {
      await expect(patchWaiverNumber(ctx, wn.waiverNumber, { firstName: 'Nope', expectedVersion })).rejects.toMatchObject({
        code: 'version_conflict',
        status: 409,
      });
    }
    const ok = await patchWaiverNumber(ctx, wn.waiverNumber, { firstName: 'Opaque', expectedVersion: wn.version });
    expect(ok).toMatchObject({ firstName: 'Opaque', version: '2' });
  });

  it('racing writers with the same expectedVersion: exactly one wins', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => patch(`/pending-renters/${wn.waiverNumber}`, { firstName: `Racer${i}`, expectedVersion: '1' }, { key: op.adminKey })),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 409, 'version_conflict');
    const row = await db().select().from(waiverNumbers).where(eq(waiverNumbers.waiverNumber, wn.waiverNumber)).get();
    expect(row!.version).toBe(2);
  });

  it('writers without expectedVersion are serialized: none lost, version counts them', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    const rs = await Promise.all(
      Array.from({ length: 4 }, (_, i) => patch(`/pending-renters/${wn.waiverNumber}`, { assignTo: `Seat ${i}` }, { key: op.adminKey })),
    );
    for (const r of rs) expect(r.status, r.text).toBe(200);
    const row = await db().select().from(waiverNumbers).where(eq(waiverNumbers.waiverNumber, wn.waiverNumber)).get();
    expect(row!.version).toBe(5);
  });

  it('moves status only from PENDING; 400 with nothing to change; 404 unknown', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, {}, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { expectedVersion: '1' }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { status: 'SIGNED' }, { key: op.adminKey }), 400, 'validation_failed');
    // expectedVersion is opaque: a string that is not the current version is a conflict, not a format error.
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { expectedVersion: 'v1', firstName: 'x' }, { key: op.adminKey }), 409, 'version_conflict');
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { expectedVersion: '', firstName: 'x' }, { key: op.adminKey }), 400, 'validation_failed');
    const cancelled = await patch(`/pending-renters/${wn.waiverNumber}`, { status: 'CANCELLED' }, { key: op.adminKey });
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', pin: null });
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { status: 'PENDING' }, { key: op.adminKey }), 409, 'not_pending');
    expect((await patch(`/pending-renters/${wn.waiverNumber}`, { firstName: 'Still editable' }, { key: op.adminKey })).status).toBe(200);
    expectError(await patch('/pending-renters/WN-NOPE', { firstName: 'x' }, { key: op.adminKey }), 404, 'not_found');
  });

  it('security', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    await checkSecurity(op, { method: 'PATCH', path: `/pending-renters/${wn.waiverNumber}`, body: { firstName: 'x' }, otherStatus: 404 });
  });
});

describe('DELETE /pending-renters/{waiverNumber}', () => {
  it('deletes only while pending; the PIN stops working and the number can be reused', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op, { waiverNumber: 'DESK-7' });
    const r = await del(`/pending-renters/${wn.waiverNumber}`, undefined, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ success: true, waiverNumber: 'DESK-7' });
    expectError(await get(`/pending-renters/validate?pin=${wn.pin}`), 404);
    expectError(await del(`/pending-renters/${wn.waiverNumber}`, undefined, { key: op.adminKey }), 404);
    expectError(await patch(`/pending-renters/${wn.waiverNumber}`, { firstName: 'x' }, { key: op.adminKey }), 404);
    expect((await get(`/pending-renters?customerId=${op.customerId}`, { key: op.adminKey })).body.total).toBe(0);
    expect((await post('/pending-renters', { customerId: op.customerId, waiverNumber: 'DESK-7' }, { key: op.adminKey })).status).toBe(201);

    const done = await newWaiverNumber(op);
    const renter = await newRenter(op);
    await patch(`/pending-renters/${done.waiverNumber}/complete`, { renterId: renter.id, waiverUrl: 'https://w.test/x' }, { key: op.adminKey });
    expectError(await del(`/pending-renters/${done.waiverNumber}`, undefined, { key: op.adminKey }), 409, 'not_pending');
  });

  it('security', async () => {
    const op = await createOperator();
    const wn = await newWaiverNumber(op);
    await checkSecurity(op, { method: 'DELETE', path: `/pending-renters/${wn.waiverNumber}`, otherStatus: 404 });
  });
});

describe('PATCH /pending-renters/{waiverNumber}/complete', () => {
  it('completes: PIN removed, renter given the waiver URL and missing phone/dob, audit written', async () => {
    const op = await createOperator();
    const renter = await newRenter(op);
    const wn = await newWaiverNumber(op);
    const r = await patch(
      `/pending-renters/${wn.waiverNumber}/complete`,
      {
        renterId: renter.id,
        waiverUrl: 'https://waivers.test/abc.pdf',
        signatureId: 'sig_external_1',
        completionData: { provider: 'paper' },
        expectedVersion: '1',
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      status: 'COMPLETED',
      pin: null,
      renterId: renter.id,
      waiverUrl: 'https://waivers.test/abc.pdf',
      signatureId: 'sig_external_1',
      completionData: { provider: 'paper' },
      version: '2',
    });
    expect(r.body.completedAt).toBeTruthy();
    const after = await get(`/renters/${renter.id}`, { key: op.adminKey });
    expect(after.body.waivers_signed_urls).toEqual(['https://waivers.test/abc.pdf']);
    expect(after.body.phone).toBe('+1 555 0100');
    expect(after.body.dob).toBe('1990-04-01');
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, op.customerId), eq(auditLogs.action, 'waiver_number.complete')))
      .all();
    expect(audit).toHaveLength(1);
    expectError(
      await patch(`/pending-renters/${wn.waiverNumber}/complete`, { renterId: renter.id, waiverUrl: 'https://w.test/again' }, { key: op.adminKey }),
      409,
      'not_pending',
    );
  });

  it('can leave the renter alone', async () => {
    const op = await createOperator();
    const renter = await newRenter(op);
    const wn = await newWaiverNumber(op);
    await patch(
      `/pending-renters/${wn.waiverNumber}/complete`,
      { renterId: renter.id, waiverUrl: 'https://w.test/1', updateRenter: false },
      { key: op.adminKey },
    );
    expect((await get(`/renters/${renter.id}`, { key: op.adminKey })).body.waivers_signed_urls).toEqual([]);
  });

  it('eight racing completions: one 200, seven 409, one audit row, the winner recorded', async () => {
    const op = await createOperator();
    const renter = await newRenter(op);
    const wn = await newWaiverNumber(op);
    const rs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        patch(`/pending-renters/${wn.waiverNumber}/complete`, { renterId: renter.id, waiverUrl: `https://w.test/race/${i}` }, { key: op.adminKey }),
      ),
    );
    const ok = rs.filter((r) => r.status === 200);
    expect(ok, rs.map((r) => `${r.status} ${r.text}`).join('\n')).toHaveLength(1);
    const losers = rs.filter((r) => r.status !== 200);
    expect(losers).toHaveLength(7);
    for (const r of losers) {
      expect(r.status).toBe(409);
      expect(['not_pending', 'version_conflict']).toContain(r.body.error);
    }
    const row = await db().select().from(waiverNumbers).where(eq(waiverNumbers.waiverNumber, wn.waiverNumber)).get();
    expect(row!.status).toBe('COMPLETED');
    expect(row!.version).toBe(2);
    expect(row!.waiverUrl).toBe(ok[0].body.waiverUrl);
    const audit = await db()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.customerId, op.customerId), eq(auditLogs.action, 'waiver_number.complete')))
      .all();
    expect(audit).toHaveLength(1);
    const r = await get(`/renters/${renter.id}`, { key: op.adminKey });
    expect(r.body.waivers_signed_urls).toEqual([row!.waiverUrl]);
  });

  it('refuses a stale expectedVersion, missing fields, an unknown renter or waiver number', async () => {
    const op = await createOperator();
    const renter = await newRenter(op);
    const wn = await newWaiverNumber(op);
    await patch(`/pending-renters/${wn.waiverNumber}`, { firstName: 'Changed' }, { key: op.adminKey });
    expectError(
      await patch(
        `/pending-renters/${wn.waiverNumber}/complete`,
        { renterId: renter.id, waiverUrl: 'https://w.test/1', expectedVersion: '1' },
        { key: op.adminKey },
      ),
      409,
      'version_conflict',
    );
    expectError(await patch(`/pending-renters/${wn.waiverNumber}/complete`, {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await patch(`/pending-renters/${wn.waiverNumber}/complete`, { renterId: renter.id }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(
      await patch(`/pending-renters/${wn.waiverNumber}/complete`, { renterId: 'rnt_nope', waiverUrl: 'https://w.test/1' }, { key: op.adminKey }),
      404,
      'not_found',
    );
    expectError(
      await patch('/pending-renters/WN-NOPE/complete', { renterId: renter.id, waiverUrl: 'https://w.test/1' }, { key: op.adminKey }),
      404,
      'not_found',
    );
    const ok = await patch(
      `/pending-renters/${wn.waiverNumber}/complete`,
      { renterId: renter.id, waiverUrl: 'https://w.test/1', expectedVersion: '2' },
      { key: op.adminKey },
    );
    expect(ok.status).toBe(200);
  });

  it('security', async () => {
    const op = await createOperator();
    const renter = await newRenter(op);
    const wn = await newWaiverNumber(op);
    await checkSecurity(op, {
      method: 'PATCH',
      path: `/pending-renters/${wn.waiverNumber}/complete`,
      body: { renterId: renter.id, waiverUrl: 'https://w.test/1' },
      otherStatus: 404,
    });
    // Nothing changed by the intruder.
    expect((await api('GET', `/pending-renters/validate?pin=${wn.pin}`)).status).toBe(200);
  });
});
