/**
 * Staff on bookings: assignment against shifts, time off, skills and other assignments (409s with
 * their codes), manager force, automatic fair assignment, races (one person, overlapping bookings,
 * parallel requests: exactly one wins), time off CRUD and availability. Fixed dates (2031), never
 * the wall clock: assignments do not depend on "now".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { users } from '../../../src/db/schema/accounts';
import { staffAssignments } from '../../../src/db/schema/staff';
import { wallTimeToUtc } from '../../../src/lib/time';
import { makeBooking, makeItem } from '../schedule/factories';
import { at as bookedAt, book, bookBody, rentalItem } from '../bookings/factories';

const TZ = 'America/New_York';
const DAY = '2031-06-10';
const NEXT = '2031-06-11';
const at = (time: string, date = DAY) => wallTimeToUtc(date, time, TZ);
const iso = (time: string, date = DAY) => new Date(at(time, date)).toISOString();

let op: Operator;
let item: Awaited<ReturnType<typeof makeItem>>;
let carl: string;
let cora: string;
let tim: string;

const staffWith = async (profileName: string, skills: string[]) => {
  const u = await op.addUser({ role: 'staff', skills });
  await db().update(users).set({ profileName }).where(eq(users.id, u.userId));
  return u.userId;
};
const shift = async (staffId: string, date: string, from: string, to: string) => {
  const r = await post(
    '/staffSchedule',
    { customerId: op.customerId, locationId: op.locationId, staffId, startTime: iso(from, date), endTime: iso(to, date) },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
};
const booking = async (from: string, to: string, o: { date?: string; status?: string } = {}) =>
  (await makeBooking(op, { item, start: at(from, o.date), hours: (at(to, o.date) - at(from, o.date)) / 3_600_000, status: o.status, extendedData: null })).id;
const assign = (rentalId: string, body: Record<string, unknown>, key = op.adminKey) => post(`/coreBooking/${rentalId}/staff`, body, { key });

beforeAll(async () => {
  op = await createOperator({ timezone: TZ });
  item = await makeItem(op);
  carl = await staffWith('Carl', ['captain']);
  cora = await staffWith('Cora', ['captain']);
  tim = await staffWith('Tim', ['coach']);
  for (const s of [carl, cora, tim]) await shift(s, DAY, '08:00', '18:00');
  await shift(carl, NEXT, '08:00', '18:00');
  await shift(cora, NEXT, '08:00', '18:00');
});

describe('POST /coreBooking/{rentalId}/staff', () => {
  it('assigns, answers the same assignment again, and refuses an overlapping booking with staff_conflict naming it', async () => {
    const a = await booking('10:00', '12:00');
    const b = await booking('11:00', '13:00');
    const c = await booking('12:00', '13:00');
    const r = await assign(a, { staffId: carl, role: 'captain' });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      rentalId: a,
      staffId: carl,
      displayName: 'Carl',
      role: 'captain',
      method: 'manual',
      forced: false,
      startTime: iso('10:00'),
    });
    const again = await assign(a, { staffId: carl });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r.body.id);
    const clash = await assign(b, { staffId: carl });
    expectError(clash, 409, 'staff_conflict');
    expect(clash.body.conflict).toEqual({ rentalId: a, startTime: iso('10:00'), endTime: iso('12:00') });
    expect(clash.body.message).toContain(a);
    // Back to back is not an overlap.
    expect((await assign(c, { staffId: carl })).status).toBe(201);
    const list = await get(`/coreBooking/${a}/staff`, { key: op.adminKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ rentalId: a, data: [{ staffId: carl, role: 'captain' }] });
  });

  it('answers 404 for an unknown staff id or another operator’s user, and 409 off schedule, without the skill, or on a closed booking', async () => {
    const rental = await booking('15:00', '16:00');
    expectError(await assign(rental, { staffId: 'usr_does_not_exist' }), 404, 'not_found');
    const other = await createOperator();
    expectError(await assign(rental, { staffId: other.adminId }), 404, 'not_found');
    expectError(await assign(rental, { staffId: tim, role: 'captain' }), 409, 'staff_skill_missing');
    const evening = await booking('19:00', '21:00');
    expectError(await assign(evening, { staffId: cora }), 409, 'staff_off_schedule');
    const gone = await booking('09:00', '10:00', { status: 'cancelled' });
    expectError(await assign(gone, { staffId: cora }), 409, 'not_assignable');
    expectError(await assign(rental, { staffId: 'x'.repeat(200) }), 400, 'validation_failed');
    expectError(await assign(rental, { staffId: cora, role: 'pirate' }), 400, 'validation_failed');
  });

  it('lets a manager force past the schedule (never past a conflict); others get 403', async () => {
    const evening = await booking('19:00', '20:00', { date: NEXT });
    const scheduler = await op.addUser({ role: 'staff', permissions: ['staff_schedule'] });
    expectError(await assign(evening, { staffId: cora, force: true }, scheduler.key), 403, 'forbidden');
    const plain = await op.addUser({ role: 'staff' });
    expectError(await assign(evening, { staffId: cora }, plain.key), 403, 'forbidden');
    const manager = await op.addUser({ role: 'manager' });
    const r = await assign(evening, { staffId: cora, force: true }, manager.key);
    expect(r.status, r.text).toBe(201);
    expect(r.body.forced).toBe(true);
    const late = await booking('19:30', '21:00', { date: NEXT });
    expectError(await assign(late, { staffId: cora, force: true }), 409, 'staff_conflict');
  });

  it('race: parallel assignments of one person to overlapping bookings, exactly one wins', async () => {
    const rentals = await Promise.all(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15'].map((t) => booking(t, '11:00', { date: NEXT })));
    const results = await Promise.all(rentals.map((id) => assign(id, { staffId: carl })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'staff_conflict');
    // The invariant: Carl has exactly one of these bookings.
    const rows = await db().select().from(staffAssignments).where(eq(staffAssignments.staffId, carl)).all();
    expect(rows.filter((a) => rentals.includes(a.rentalId))).toHaveLength(1);
  });
});

describe('POST /coreBooking/{rentalId}/staff/auto', () => {
  it('picks the free person with the skill who has the fewest assignments that day, then refuses when nobody is free', async () => {
    const x = await booking('13:00', '14:00', { date: NEXT });
    // Carl already works a booking on NEXT (the race above); Cora has the forced evening one too: one each, tie by name -> Carl.
    const first = await post(`/coreBooking/${x}/staff/auto`, { skill: 'captain' }, { key: op.adminKey });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ staffId: carl, role: 'captain', method: 'auto' });
    const y = await booking('13:00', '14:00', { date: NEXT });
    const second = await post(`/coreBooking/${y}/staff/auto`, { skill: 'captain' }, { key: op.adminKey });
    expect(second.body).toMatchObject({ staffId: cora, method: 'auto' });
    const z = await booking('13:30', '14:30', { date: NEXT });
    expectError(await post(`/coreBooking/${z}/staff/auto`, { skill: 'captain' }, { key: op.adminKey }), 409, 'no_staff_available');
    expectError(await post(`/coreBooking/${z}/staff/auto`, { skill: 'coach' }, { key: op.adminKey }), 409, 'no_staff_available');
  });

  it('race: three overlapping bookings auto-assigned in parallel with two captains free, two distinct winners and one no_staff_available', async () => {
    const day = '2031-06-12';
    await shift(carl, day, '08:00', '18:00');
    await shift(cora, day, '08:00', '18:00');
    const rentals = await Promise.all(['10:00', '10:30', '11:00'].map((t) => booking(t, '12:00', { date: day })));
    const results = await Promise.all(rentals.map((id) => post(`/coreBooking/${id}/staff/auto`, { skill: 'captain' }, { key: op.adminKey })));
    const won = results.filter((r) => r.status === 201);
    expect(won.map((r) => r.body.staffId).sort()).toEqual([carl, cora].sort());
    for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'no_staff_available');
  });
});

describe('DELETE /coreBooking/{rentalId}/staff/{staffId}', () => {
  it('unassigns, frees the person, and answers 404 when not assigned', async () => {
    const a = await booking('16:00', '17:00');
    const b = await booking('16:30', '17:30');
    expect((await assign(a, { staffId: tim })).status).toBe(201);
    expectError(await assign(b, { staffId: tim }), 409, 'staff_conflict');
    const r = await del(`/coreBooking/${a}/staff/${tim}`, undefined, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ success: true, rentalId: a, staffId: tim });
    expectError(await del(`/coreBooking/${a}/staff/${tim}`, undefined, { key: op.adminKey }), 404, 'not_found');
    expect((await assign(b, { staffId: tim })).status).toBe(201);
  });
});

describe('/staff/time-off', () => {
  it('records time off that availability and assignment respect, lists, changes and deletes it', async () => {
    const existing = await booking('08:00', '09:00');
    expect((await assign(existing, { staffId: cora })).status).toBe(201);
    const created = await post('/staff/time-off', { staffId: cora, startTime: iso('08:30'), endTime: iso('15:00'), reason: 'Dentist' }, { key: op.adminKey });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ staffId: cora, startTime: iso('08:30'), endTime: iso('15:00'), reason: 'Dentist' });
    expect(created.body.assignments).toEqual([{ rentalId: existing, startTime: iso('08:00'), endTime: iso('09:00') }]);
    const rental = await booking('14:00', '15:00');
    expectError(await assign(rental, { staffId: cora }), 409, 'staff_time_off');
    const avail = await get(
      `/public/available-staff?${new URLSearchParams({ locationId: op.locationId, skill: 'captain', startTime: iso('14:00'), endTime: iso('15:00') })}`,
    );
    expect(avail.body.staff.map((s: any) => s.staffId)).toEqual([carl]);
    const list = await get(`/staff/time-off?staffId=${cora}`, { key: op.adminKey });
    expect(list.body).toMatchObject({ total: 1, data: [{ id: created.body.id }] });
    const moved = await put(`/staff/time-off/${created.body.id}`, { startTime: iso('15:00'), endTime: iso('16:00') }, { key: op.adminKey });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.assignments).toEqual([]);
    expect((await assign(rental, { staffId: cora })).status).toBe(201);
    expectError(await put(`/staff/time-off/${created.body.id}`, {}, { key: op.adminKey }), 400, 'no_changes');
    expectError(await post('/staff/time-off', { staffId: cora, startTime: iso('10:00'), endTime: iso('09:00') }, { key: op.adminKey }), 400);
    expectError(await post('/staff/time-off', { staffId: 'usr_nobody', startTime: iso('10:00'), endTime: iso('11:00') }, { key: op.adminKey }), 404);
    expect((await del(`/staff/time-off/${created.body.id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await del(`/staff/time-off/${created.body.id}`, undefined, { key: op.adminKey }), 404, 'not_found');
  });

  it("lists the bookings the person is on, whether assigned in the table or in a booking's extendedData.assignedStaffIds", async () => {
    const d = '2031-06-14';
    await shift(tim, d, '08:00', '18:00');
    const inData = (await makeBooking(op, { item, start: at('09:00', d), hours: 1, extendedData: { assignedStaffIds: [tim] } })).id;
    const inTable = await booking('11:00', '12:00', { date: d });
    expect((await assign(inTable, { staffId: tim })).status).toBe(201);
    const off = await post('/staff/time-off', { staffId: tim, startTime: iso('08:00', d), endTime: iso('13:00', d) }, { key: op.adminKey });
    expect(off.status, off.text).toBe(201);
    expect(off.body.assignments).toEqual([
      { rentalId: inData, startTime: iso('09:00', d), endTime: iso('10:00', d) },
      { rentalId: inTable, startTime: iso('11:00', d), endTime: iso('12:00', d) },
    ]);
  });

  it('lets staff record their own time off but not anyone else’s', async () => {
    const self = await op.addUser({ role: 'staff' });
    const mine = await post('/staff/time-off', { staffId: self.userId, startTime: iso('10:00', NEXT), endTime: iso('11:00', NEXT) }, { key: self.key });
    expect(mine.status, mine.text).toBe(201);
    expectError(
      await post('/staff/time-off', { staffId: carl, startTime: iso('10:00', NEXT), endTime: iso('11:00', NEXT) }, { key: self.key }),
      403,
      'forbidden',
    );
  });
});

describe('security', () => {
  it('every route: 401 without credentials, 404 for another operator', async () => {
    const rental = await booking('17:00', '18:00');
    expect((await assign(rental, { staffId: carl })).status).toBe(201);
    const off = await post('/staff/time-off', { staffId: tim, startTime: iso('07:00', NEXT), endTime: iso('08:00', NEXT) }, { key: op.adminKey });
    await checkSecurity(op, { method: 'POST', path: `/coreBooking/${rental}/staff`, body: { staffId: cora }, otherStatus: 404 });
    await checkSecurity(op, { method: 'POST', path: `/coreBooking/${rental}/staff/auto`, body: { skill: 'captain' }, otherStatus: 404 });
    await checkSecurity(op, { method: 'GET', path: `/coreBooking/${rental}/staff`, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/coreBooking/${rental}/staff/${carl}`, otherStatus: 404 });
    await checkSecurity(op, {
      method: 'POST',
      path: '/staff/time-off',
      body: { staffId: tim, startTime: iso('07:00'), endTime: iso('07:30') },
      otherStatus: 404,
    });
    await checkSecurity(op, { method: 'GET', path: '/staff/time-off' });
    await checkSecurity(op, { method: 'PUT', path: `/staff/time-off/${off.body.id}`, body: { reason: 'x' }, otherStatus: 404 });
    await checkSecurity(op, { method: 'DELETE', path: `/staff/time-off/${off.body.id}`, otherStatus: 404 });
    // Another operator's list does not show this operator's time off.
    const intruder = await createOperator();
    expect((await api('GET', '/staff/time-off', { key: intruder.adminKey })).body.total).toBe(0);
  });
});

describe('moving a booking with staff on it', () => {
  it('a reschedule onto a time its captain is booked elsewhere: 409 staff_conflict, nothing moves; a free time moves the staff along', async () => {
    const own = await createOperator();
    const boat = await rentalItem(own, { assets: 2 });
    const skipper = (await own.addUser({ role: 'staff', skills: ['captain'] })).userId;
    const sell = async (from: string, to: string) => {
      const r = await book(own, bookBody({ inventoryId: boat.id, startTime: bookedAt(own.timezone, 5, from), endTime: bookedAt(own.timezone, 5, to) }));
      expect(r.status, r.text).toBe(201);
      const rentalId = r.body.rentalId as string;
      const a = await post(`/coreBooking/${rentalId}/staff`, { staffId: skipper, role: 'captain', force: true }, { key: own.adminKey });
      expect(a.status, a.text).toBe(201);
      return rentalId;
    };
    const morning = await sell('09:00', '11:00');
    const afternoon = await sell('14:00', '16:00');
    const move = (startTime: string, endTime: string) => post(`/coreBooking/${afternoon}/reschedule`, { startTime, endTime }, { key: own.adminKey });

    expectError(await move(bookedAt(own.timezone, 5, '10:00'), bookedAt(own.timezone, 5, '12:00')), 409, 'staff_conflict');
    const still = await get(`/coreBooking/${afternoon}`, { key: own.adminKey });
    expect(Date.parse(still.body.startTime)).toBe(Date.parse(bookedAt(own.timezone, 5, '14:00')));

    const moved = await move(bookedAt(own.timezone, 5, '12:00'), bookedAt(own.timezone, 5, '14:00'));
    expect(moved.status, moved.text).toBe(200);
    const staff = await get(`/coreBooking/${afternoon}/staff`, { key: own.adminKey });
    expect(staff.body.data.map((s: { staffId: string; startTime: string }) => [s.staffId, Date.parse(s.startTime)])).toEqual([
      [skipper, Date.parse(bookedAt(own.timezone, 5, '12:00'))],
    ]);
    expect(morning).not.toBe(afternoon);
  });
});
