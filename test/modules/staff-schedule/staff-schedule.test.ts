import { describe, it, expect } from 'vitest';
import { createOperator, del, expectError, get, post, put } from '../../harness';
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
