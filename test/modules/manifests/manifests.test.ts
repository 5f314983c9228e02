/**
 * The daily manifest of a location: the day's bookings (the location's local date) in start order,
 * people and waivers, check-in state, staff and the balance due from the money view, as JSON, CSV
 * (RFC 4180) and PDF. The operator runs on a test clock (2030-05-01), bookings on fixed dates.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { createOperator, db, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { newId } from '../../../src/lib/ids';
import { wallTimeToUtc } from '../../../src/lib/time';
import { bookingParticipants } from '../../../src/db/schema/renter-self-service';
import { CSV_FIELDS } from '../../../src/modules/manifests/print';
import { bookBody, book, rentalItem } from '../bookings/factories';
import { makeBooking } from '../schedule/factories';

const TZ = 'America/New_York';
const DATE = '2030-05-03';
const iso = (time: string, date = DATE) => new Date(wallTimeToUtc(date, time, TZ)).toISOString();

let op: Operator;
let paid: string;
let later: string;
let late: string;
let captain: string;
let balanceOfLater: number;

beforeAll(async () => {
  op = await createOperator({ clockAt: '2030-05-01T12:00:00Z', timezone: TZ });
  const item = await rentalItem(op, { assets: 3 });
  const a = await book(op, {
    ...bookBody({ inventoryId: item.id, startTime: iso('10:00'), endTime: iso('12:00') }),
    customerInfo: { firstName: 'Ann', lastName: 'Smith, Jr', email: 'ann@renter.test', phone: '+15555550123' },
  });
  expect(a.status, a.text).toBe(201);
  paid = a.body.rentalId;
  const b = await book(op, { ...bookBody({ inventoryId: item.id, startTime: iso('08:00'), endTime: iso('09:00'), paymentMethodId: null }) });
  expect(b.status, b.text).toBe(201);
  later = b.body.rentalId;
  balanceOfLater = Math.round((await get(`/coreBooking/${later}`, { key: op.adminKey })).body.money.balanceDue * 100);
  // 23:00 local on DATE is the next day in UTC: still DATE's manifest. A cancelled booking and another day's are left out.
  const lateRow = await makeBooking(op, {
    item: { id: item.id, locationId: op.locationId, assetIds: item.assetIds },
    start: Date.parse(iso('23:00')),
    hours: 1,
    extendedData: { signedWaivers: [{ signatureId: 'wsg_test_1', signerName: 'Sam Signer' }] },
    customerInfo: { firstName: 'Sam', lastName: 'Signer', email: 'sam@renter.test' },
  });
  late = lateRow.id;
  await makeBooking(op, { item: { id: item.id, locationId: op.locationId, assetIds: item.assetIds }, start: Date.parse(iso('13:00')), status: 'cancelled' });
  await makeBooking(op, { item: { id: item.id, locationId: op.locationId, assetIds: item.assetIds }, start: Date.parse(iso('10:00', '2030-05-04')) });
  const now = '2030-05-01T12:00:00.000Z';
  await db()
    .insert(bookingParticipants)
    .values([
      {
        id: newId('bpt'),
        customerId: op.customerId,
        rentalId: paid,
        firstName: 'Ann',
        lastName: 'Smith',
        waiverSignatureId: 'wsg_ann',
        waiverSignedAt: now,
        createdAt: '2030-05-01T10:00:00.000Z',
      },
      { id: newId('bpt'), customerId: op.customerId, rentalId: paid, firstName: 'Bob', lastName: 'Smith', createdAt: '2030-05-01T11:00:00.000Z' },
    ]);
  captain = (await op.addUser({ role: 'staff', skills: ['captain'] })).userId;
  const shift = await post(
    '/staffSchedule',
    { customerId: op.customerId, locationId: op.locationId, staffId: captain, startTime: iso('07:00'), endTime: iso('18:00') },
    { key: op.adminKey },
  );
  expect(shift.status, shift.text).toBe(201);
  const assigned = await post(`/coreBooking/${paid}/staff`, { staffId: captain, role: 'captain' }, { key: op.adminKey });
  expect(assigned.status, assigned.text).toBe(201);
});

describe('GET /manifests/{locationId}', () => {
  it('answers the day in start order with people, waivers, check-in, staff and the balance due from the ledger', async () => {
    const r = await get(`/manifests/${op.locationId}?date=${DATE}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ locationId: op.locationId, timezone: TZ, date: DATE, generatedAt: '2030-05-01T12:00:00.000Z' });
    expect(r.body.bookings.map((b: any) => b.rentalId)).toEqual([later, paid, late]);
    const [first, second, third] = r.body.bookings;
    expect(first).toMatchObject({ localStart: '08:00', localEnd: '09:00', status: 'pending', balanceDueCents: balanceOfLater, staff: [] });
    expect(balanceOfLater).toBeGreaterThan(0);
    expect(second).toMatchObject({
      localStart: '10:00',
      localEnd: '12:00',
      item: { name: 'Pontoon 22' },
      renter: { name: 'Ann Smith, Jr', email: 'ann@renter.test', phone: '+15555550123' },
      participants: [
        { name: 'Ann Smith', waiver: 'signed' },
        { name: 'Bob Smith', waiver: 'missing' },
      ],
      checkIn: { state: 'not_checked_in', checkedInAt: null },
      staff: [{ staffId: captain, role: 'captain' }],
      balanceDueCents: 0,
      balanceDue: '$0.00',
    });
    expect(second.waivers).toEqual({ signed: 1, missing: second.people - 1 });
    expect(third).toMatchObject({ localStart: '23:00', participants: [{ name: 'Sam Signer', waiver: 'signed' }], waivers: { signed: 1, missing: 0 } });
    expect(r.body.totals).toMatchObject({ bookings: 3, balanceDueCents: balanceOfLater });
    expect(r.body.totals.waiversMissing).toBe(second.waivers.missing + first.waivers.missing);
  });

  it('exports RFC 4180 CSV (by format or Accept) with the same rows, and a printable PDF', async () => {
    const r = await get(`/manifests/${op.locationId}?date=${DATE}&format=csv`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.text.split('\r\n')[0]).toBe(CSV_FIELDS.join(','));
    expect(r.text).toContain('"Ann Smith, Jr"');
    const rows = Papa.parse<Record<string, string>>(r.text.trim(), { header: true }).data;
    expect(rows.map((x) => x.rentalId)).toEqual([later, paid, late]);
    expect(rows[0].balanceDueCents).toBe(String(balanceOfLater));
    expect(rows[1]).toMatchObject({ start: '10:00', waiversSigned: '1', checkIn: 'not checked in', phone: '+15555550123' });
    expect(rows[1].staff).toContain('(captain)');
    const byAccept = await get(`/manifests/${op.locationId}?date=${DATE}`, { key: op.adminKey, headers: { accept: 'text/csv' } });
    expect(byAccept.text).toBe(r.text);
    const pdf = await get(`/manifests/${op.locationId}?date=${DATE}&format=pdf`, { key: op.adminKey });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('cache-control')).toBe('no-store');
    const bytes = pdf.body as Uint8Array;
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(2000);
  });

  it('shows the check-in state, defaults to the location’s today, and checks its inputs and permission', async () => {
    expect((await post(`/coreBooking/${paid}/check-in`, {}, { key: op.adminKey })).status).toBe(200);
    const r = await get(`/manifests/${op.locationId}?date=${DATE}`, { key: op.adminKey });
    expect(r.body.bookings[1].checkIn.state).toBe('checked_in');
    const today = await get(`/manifests/${op.locationId}`, { key: op.adminKey });
    expect(today.body).toMatchObject({ date: '2030-05-01', bookings: [] });
    expectError(await get(`/manifests/${op.locationId}?date=May-3`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/manifests/${op.locationId}?date=${DATE}&format=xls`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/manifests/loc_unknown_0000?date=${DATE}`, { key: op.adminKey }), 404, 'not_found');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await get(`/manifests/${op.locationId}?date=${DATE}`, { key: staff.key }), 403, 'forbidden');
    await checkSecurity(op, { method: 'GET', path: `/manifests/${op.locationId}?date=${DATE}`, otherStatus: 404 });
  });
});
