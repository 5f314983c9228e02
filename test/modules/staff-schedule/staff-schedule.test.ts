import { describe, it, expect } from 'vitest';
import { createOperator, db, del, expectError, get, post, put, type Operator } from '../../harness';
import { staffSchedules } from '../../../src/db/schema/locations';
import { checkSecurity } from '../../security';

describe('Staff schedule', () => {
  it('creates one-off and recurring shifts and expands occurrences with rrule', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ skills: ['captain'] });
    const one = await post(
      '/staffSchedule',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        staffId: staff.userId,
        startTime: '2026-12-01T09:00:00-05:00',
        endTime: '2026-12-01T17:00:00-05:00',
      },
      { key: op.adminKey },
    );
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ recurring: false, startTime: '2026-12-01T14:00:00.000Z' });
    const rec = await post(
      '/staffSchedule',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        staffId: staff.userId,
        startTime: '2026-12-07T08:00:00-05:00',
        endTime: '2026-12-07T12:00:00-05:00',
        recurring: true,
        recurrencePattern: { frequency: 'weekly', byWeekday: ['MO', 'WE'], count: 6 },
      },
      { key: op.adminKey },
    );
    expect(rec.status).toBe(201);
    expect(rec.body.rrule).toContain('FREQ=WEEKLY');
    const list = await get(`/staffSchedule?locationId=${op.locationId}&from=2026-12-07T00:00:00Z&to=2026-12-14T00:00:00Z`, { key: op.adminKey });
    expect(list.status).toBe(200);
    const r = list.body.data.find((s: any) => s.id === rec.body.id);
    expect(r.occurrences.map((o: any) => o.startTime)).toEqual(['2026-12-07T13:00:00.000Z', '2026-12-09T13:00:00.000Z']);
    expect(list.body.data.find((s: any) => s.id === one.body.id)).toBeUndefined();
    const all = await get(`/staffSchedule?customerId=${op.customerId}`, { key: op.adminKey });
    expect(all.body.data).toHaveLength(2);
  });

  it('validates input', async () => {
    const op = await createOperator();
    const staff = await op.addUser();
    const base = {
      customerId: op.customerId,
      locationId: op.locationId,
      staffId: staff.userId,
      startTime: '2026-12-01T09:00:00Z',
      endTime: '2026-12-01T17:00:00Z',
    };
    expectError(await post('/staffSchedule', { ...base, endTime: '2026-12-01T08:00:00Z' }, { key: op.adminKey }), 400);
    expectError(await post('/staffSchedule', { ...base, recurring: true }, { key: op.adminKey }), 400);
    expectError(await post('/staffSchedule', { ...base, startTime: 'tomorrow' }, { key: op.adminKey }), 400);
    expectError(await post('/staffSchedule', { ...base, staffId: 'usr_missing' }, { key: op.adminKey }), 404);
    const other = await createOperator();
    expectError(await post('/staffSchedule', { ...base, customerId: other.customerId }, { key: op.adminKey }), 403);
    expectError(await get('/staffSchedule', { key: op.adminKey }), 400);
    expectError(await get(`/staffSchedule?customerId=${other.customerId}`, { key: op.adminKey }), 403);
    await checkSecurity(op, { method: 'POST', path: '/staffSchedule', body: base, otherStatus: 403 });
    await checkSecurity(op, { method: 'GET', path: `/staffSchedule?locationId=${op.locationId}`, otherStatus: 404 });
  });

  it('updates times and recurrence; 400 with no fields', async () => {
    const op = await createOperator();
    const staff = await op.addUser();
    const c = await post(
      '/staffSchedule',
      { customerId: op.customerId, locationId: op.locationId, staffId: staff.userId, startTime: '2026-12-01T09:00:00Z', endTime: '2026-12-01T17:00:00Z' },
      { key: op.adminKey },
    );
    expectError(await put(`/staffSchedule/${c.body.id}`, {}, { key: op.adminKey }), 400, 'no_changes');
    const u = await put(
      `/staffSchedule/${c.body.id}`,
      { endTime: '2026-12-01T18:00:00Z', recurrencePattern: { frequency: 'daily', count: 3 } },
      { key: op.adminKey },
    );
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ endTime: '2026-12-01T18:00:00.000Z', recurring: true });
    expect(u.body.rrule).toContain('FREQ=DAILY');
    expectError(await put('/staffSchedule/shf_missing', { endTime: '2026-12-01T18:00:00Z' }, { key: op.adminKey }), 404);
    await checkSecurity(op, { method: 'PUT', path: `/staffSchedule/${c.body.id}`, body: { endTime: '2026-12-01T18:00:00Z' }, otherStatus: 404 });
  });

  it('deletes only by the owner operator (403 otherwise, 404 unknown)', async () => {
    const op = await createOperator();
    const staff = await op.addUser();
    const c = await post(
      '/staffSchedule',
      { customerId: op.customerId, locationId: op.locationId, staffId: staff.userId, startTime: '2026-12-01T09:00:00Z', endTime: '2026-12-01T17:00:00Z' },
      { key: op.adminKey },
    );
    await checkSecurity(op, { method: 'DELETE', path: `/staffSchedule/${c.body.id}`, otherStatus: 403 });
    expect((await del(`/staffSchedule/${c.body.id}`, undefined, { key: op.adminKey })).status).toBe(200);
    expectError(await del(`/staffSchedule/${c.body.id}`, undefined, { key: op.adminKey }), 404);
  });
});

/**
 * A recurring shift keeps its wall-clock time across DST changes: the rule is stored in the
 * location's zone (DTSTART;TZID=...) and expanded per local date. New York's 2027 changes: clocks
 * spring forward on Sunday 14 March and fall back on Sunday 7 November.
 */
describe('Staff schedule across DST', () => {
  const TZ = 'America/New_York';
  const occurrences = async (op: Operator, id: string, from: string, to: string) => {
    const r = await get(`/staffSchedule?locationId=${op.locationId}&from=${from}&to=${to}`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    return r.body.data.find((s: any) => s.id === id)?.occurrences.map((o: any) => [o.startTime, o.endTime]);
  };

  it('a weekly 08:00–18:00 shift created in winter is 08:00–18:00 local on both sides of both 2027 changes', async () => {
    const op = await createOperator({ timezone: TZ, clockAt: '2027-01-02T15:00:00Z' });
    const staff = await op.addUser({ skills: ['captain'] });
    const c = await post(
      '/staffSchedule',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        staffId: staff.userId,
        startTime: '2027-01-04T08:00:00-05:00',
        endTime: '2027-01-04T18:00:00-05:00',
        recurrencePattern: { frequency: 'weekly', byWeekday: ['SA', 'SU', 'MO'] },
      },
      { key: op.adminKey },
    );
    expect(c.status, c.text).toBe(201);
    expect(c.body.rrule).toContain('DTSTART;TZID=America/New_York:20270104T080000');
    expect(c.body.rrule).toContain('FREQ=WEEKLY');
    // Spring: Saturday in EST (UTC−5), the change day and Monday in EDT (UTC−4).
    expect(await occurrences(op, c.body.id, '2027-03-13T00:00:00Z', '2027-03-16T00:00:00Z')).toEqual([
      ['2027-03-13T13:00:00.000Z', '2027-03-13T23:00:00.000Z'],
      ['2027-03-14T12:00:00.000Z', '2027-03-14T22:00:00.000Z'],
      ['2027-03-15T12:00:00.000Z', '2027-03-15T22:00:00.000Z'],
    ]);
    // Fall: Saturday in EDT, the change day and Monday in EST.
    expect(await occurrences(op, c.body.id, '2027-11-06T00:00:00Z', '2027-11-09T00:00:00Z')).toEqual([
      ['2027-11-06T12:00:00.000Z', '2027-11-06T22:00:00.000Z'],
      ['2027-11-07T13:00:00.000Z', '2027-11-07T23:00:00.000Z'],
      ['2027-11-08T13:00:00.000Z', '2027-11-08T23:00:00.000Z'],
    ]);
    // Public staff availability reads the same occurrences: in summer the shift covers 08:00–18:00 EDT, not 09:00–19:00.
    const available = async (startTime: string, endTime: string) => {
      const r = await get(`/public/available-staff?${new URLSearchParams({ locationId: op.locationId, skill: 'captain', startTime, endTime })}`);
      expect(r.status, r.text).toBe(200);
      return r.body.available;
    };
    expect(await available('2027-07-12T08:00:00-04:00', '2027-07-12T18:00:00-04:00')).toBe(true);
    expect(await available('2027-07-12T09:00:00-04:00', '2027-07-12T19:00:00-04:00')).toBe(false);
    expect(await available('2027-03-14T08:00:00-04:00', '2027-03-14T18:00:00-04:00')).toBe(true);
    expect(await available('2027-11-07T08:00:00-05:00', '2027-11-07T18:00:00-05:00')).toBe(true);
  });

  it('an overnight shift across a change keeps its local start and end (one hour shorter in spring, longer in autumn)', async () => {
    const op = await createOperator({ timezone: TZ, clockAt: '2027-01-02T15:00:00Z' });
    const staff = await op.addUser();
    const c = await post(
      '/staffSchedule',
      {
        customerId: op.customerId,
        locationId: op.locationId,
        staffId: staff.userId,
        startTime: '2027-01-02T22:00:00-05:00',
        endTime: '2027-01-03T06:00:00-05:00',
        recurrencePattern: { frequency: 'weekly', byWeekday: ['SA'], until: '2027-12-31T00:00:00Z' },
      },
      { key: op.adminKey },
    );
    expect(c.status, c.text).toBe(201);
    expect(c.body.rrule).toMatch(/UNTIL=20271231T000000Z/);
    expect(await occurrences(op, c.body.id, '2027-03-13T12:00:00Z', '2027-03-15T00:00:00Z')).toEqual([
      ['2027-03-14T03:00:00.000Z', '2027-03-14T10:00:00.000Z'],
    ]);
    expect(await occurrences(op, c.body.id, '2027-11-06T12:00:00Z', '2027-11-08T00:00:00Z')).toEqual([
      ['2027-11-07T02:00:00.000Z', '2027-11-07T11:00:00.000Z'],
    ]);
  });

  it('shifts stored before rules carried a zone are read in their location zone', async () => {
    const op = await createOperator({ timezone: TZ, clockAt: '2027-01-02T15:00:00Z' });
    const staff = await op.addUser();
    const id = `shf_legacy_${op.customerId.slice(-8)}`;
    await db()
      .insert(staffSchedules)
      .values({
        id,
        customerId: op.customerId,
        locationId: op.locationId,
        staffId: staff.userId,
        startTime: '2027-01-04T13:00:00.000Z',
        endTime: '2027-01-04T23:00:00.000Z',
        recurring: true,
        recurrencePattern: { frequency: 'daily', interval: 1 },
        rrule: 'DTSTART:20270104T130000Z\nRRULE:FREQ=DAILY;INTERVAL=1',
      });
    expect(await occurrences(op, id, '2027-07-12T00:00:00Z', '2027-07-13T00:00:00Z')).toEqual([['2027-07-12T12:00:00.000Z', '2027-07-12T22:00:00.000Z']]);
    const all = await get(`/staffSchedule?customerId=${op.customerId}&from=2027-07-12T00:00:00Z&to=2027-07-13T00:00:00Z`, { key: op.adminKey });
    expect(all.body.data[0].occurrences).toEqual([{ startTime: '2027-07-12T12:00:00.000Z', endTime: '2027-07-12T22:00:00.000Z' }]);
    // Changing it writes its rule in the location's zone.
    const u = await put(`/staffSchedule/${id}`, { recurrencePattern: { frequency: 'daily' } }, { key: op.adminKey });
    expect(u.status, u.text).toBe(200);
    expect(u.body.rrule).toContain('DTSTART;TZID=America/New_York:20270104T080000');
    expect(u.body.updatedAt).toBe('2027-01-02T15:00:00.000Z');
  });
});
