/**
 * Public staff availability by skill: the staff schedules (recurring shifts expanded, back-to-back
 * shifts joined) minus the bookings staff are assigned to, per window and per local day.
 */
import { beforeAll, describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, expectError, get, post, type Operator } from '../../harness';
import { users } from '../../../src/db/schema/accounts';
import { at, dateAhead } from '../bookings/factories';
import { makeBooking, makeItem, makeLocation } from '../schedule/factories';

const TZ = 'America/New_York';
let op: Operator;
let carl: string;
let tim: string;
let cora: string;
let una: string;

const shift = async (staffId: string, day: number, from: string, to: string, extra: Record<string, unknown> = {}, locationId = op.locationId) => {
  const r = await post(
    '/staffSchedule',
    { customerId: op.customerId, locationId, staffId, startTime: at(TZ, day, from), endTime: at(TZ, day, to), ...extra },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
};

const staffWith = async (profileName: string, skills: string[], locations: string[] = []) => {
  const u = await op.addUser({ role: 'staff', skills });
  await db().update(users).set({ profileName, locations }).where(eq(users.id, u.userId));
  return u.userId;
};

const available = (skill: string, day: number, from: string, to: string, locationId = op.locationId) =>
  get(`/public/available-staff?${new URLSearchParams({ locationId, skill, startTime: at(TZ, day, from), endTime: at(TZ, day, to) })}`);

beforeAll(async () => {
  op = await createOperator({ timezone: TZ });
  const elsewhere = await makeLocation(op, { name: 'North dock' });
  carl = await staffWith('Carl', ['captain']);
  tim = await staffWith('Tim', ['coach', 'trainer']);
  cora = await staffWith('Cora', ['captain'], [elsewhere]);
  una = await staffWith('Una', ['captain']);
  // Carl: 09:00-17:00 and 17:00-19:00 in two days (back to back); assigned to a 10:00-12:00 charter; a cancelled one at 14:00 does not count.
  await shift(carl, 2, '09:00', '17:00');
  await shift(carl, 2, '17:00', '19:00');
  // Tim: 08:00-12:00 every day for a week, from tomorrow.
  await shift(tim, 1, '08:00', '12:00', { recurring: true, recurrencePattern: { frequency: 'daily', count: 7 } });
  // Cora works at another location only; Una has no shift.
  await shift(cora, 2, '09:00', '17:00', {}, elsewhere);
  const item = await makeItem(op);
  await makeBooking(op, { item, start: Date.parse(at(TZ, 2, '10:00')), hours: 2, extendedData: { assignedStaffIds: [carl] } });
  await makeBooking(op, { item, start: Date.parse(at(TZ, 2, '14:00')), hours: 1, status: 'cancelled', extendedData: { assignedStaffIds: [carl] } });
});

describe('GET /public/available-staff', () => {
  it('lists staff with the skill whose shifts cover the whole window and who are not assigned to a booking in it', async () => {
    const r = await available('captain', 2, '13:00', '15:00');
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({
      locationId: op.locationId,
      timezone: TZ,
      skill: 'captain',
      available: true,
      count: 1,
      staff: [{ staffId: carl, displayName: 'Carl' }],
    });
    expect(r.body.startTime).toBe(at(TZ, 2, '13:00'));
    // The assigned charter makes Carl busy; the shift starts at 09:00; back-to-back shifts join.
    expect((await available('captain', 2, '11:00', '12:30')).body).toMatchObject({ available: false, count: 0, staff: [] });
    expect((await available('captain', 2, '08:00', '10:00')).body.count).toBe(0);
    expect((await available('captain', 2, '16:00', '18:30')).body.staff.map((s: any) => s.staffId)).toEqual([carl]);
    // Another skill; recurring shifts count on every day of the rule.
    expect((await available('coach', 4, '09:00', '11:00')).body.staff).toEqual([{ staffId: tim, displayName: 'Tim' }]);
    expect((await available('trainer', 7, '08:00', '12:00')).body.count).toBe(1);
    expect((await available('coach', 9, '09:00', '11:00')).body.count).toBe(0);
    expect((await available('operations', 2, '09:00', '11:00')).body.count).toBe(0);
  });

  it('answers only names and ids, never shifts or bookings', async () => {
    const r = await available('captain', 2, '13:00', '15:00');
    expect(Object.keys(r.body.staff[0]).sort()).toEqual(['displayName', 'staffId']);
    expect(r.text).not.toContain('@example.test');
  });

  it('checks its inputs: skill, window order and length, location', async () => {
    expectError(await available('pirate', 2, '09:00', '10:00'), 400, 'validation_failed');
    expectError(await available('captain', 2, '10:00', '09:00'), 400);
    expectError(
      await get(
        `/public/available-staff?${new URLSearchParams({ locationId: op.locationId, skill: 'captain', startTime: at(TZ, 2, '09:00'), endTime: at(TZ, 3, '10:00') })}`,
      ),
      400,
    );
    expectError(
      await get(`/public/available-staff?${new URLSearchParams({ locationId: op.locationId, skill: 'captain', startTime: 'tomorrow', endTime: 'later' })}`),
      400,
    );
    expectError(await get('/public/available-staff'), 400, 'validation_failed');
    expectError(await available('captain', 2, '09:00', '10:00', 'loc_unknown_0000'), 404, 'not_found');
  });
});

describe('GET /public/available-staff-range', () => {
  it("answers each local day and skill with the staff's free intervals (scheduled time minus assigned bookings)", async () => {
    const start = at(TZ, 1, '00:00');
    const end = at(TZ, 3, '00:00');
    const r = await get(`/public/available-staff-range?${new URLSearchParams({ locationId: op.locationId, start, end })}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.days.map((d: any) => d.date)).toEqual([dateAhead(TZ, 1), dateAhead(TZ, 2)]);
    const day2 = r.body.days[1];
    expect(day2.skills.map((s: any) => s.skill)).toEqual(['coach', 'captain', 'trainer', 'operations']);
    const captains = day2.skills.find((s: any) => s.skill === 'captain');
    expect(captains.availableCount).toBe(1);
    expect(captains.staff[0]).toEqual({
      staffId: carl,
      displayName: 'Carl',
      free: [
        { startTime: at(TZ, 2, '09:00'), endTime: at(TZ, 2, '10:00') },
        { startTime: at(TZ, 2, '12:00'), endTime: at(TZ, 2, '19:00') },
      ],
    });
    const coaches = day2.skills.find((s: any) => s.skill === 'coach');
    expect(coaches.staff).toEqual([{ staffId: tim, displayName: 'Tim', free: [{ startTime: at(TZ, 2, '08:00'), endTime: at(TZ, 2, '12:00') }] }]);
    expect(day2.skills.find((s: any) => s.skill === 'trainer').availableCount).toBe(1);
    expect(day2.skills.find((s: any) => s.skill === 'operations').availableCount).toBe(0);
    // Day 1: only Tim works.
    expect(r.body.days[0].skills.find((s: any) => s.skill === 'captain').availableCount).toBe(0);
    expect(r.text).not.toContain(cora);
    expect(r.text).not.toContain(una);
  });

  it('checks its inputs (order, at most 62 days, location)', async () => {
    const q = (start: string, end: string, locationId = op.locationId) => `/public/available-staff-range?${new URLSearchParams({ locationId, start, end })}`;
    expectError(await get(q(at(TZ, 3, '00:00'), at(TZ, 1, '00:00'))), 400);
    expectError(await get(q(at(TZ, 1, '00:00'), at(TZ, 70, '00:00'))), 400);
    expectError(await get('/public/available-staff-range'), 400, 'validation_failed');
    expectError(await get(q(at(TZ, 1, '00:00'), at(TZ, 2, '00:00'), 'loc_unknown_0000')), 404, 'not_found');
  });
});
