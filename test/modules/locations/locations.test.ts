import { describe, it, expect } from 'vitest';
import { createOperator, db, del, expectError, get, patch, post, runCron } from '../../harness';
import { checkSecurity } from '../../security';
import { messageOutbox } from '../../../src/db/schema/events';
import { locations } from '../../../src/db/schema/locations';
import { inventoryItems } from '../../../src/db/schema/inventory';
import { eq } from 'drizzle-orm';

const body = {
  name: 'North Dock',
  address: '12 Pier Road, Portland, ME',
  phoneNumber: '+12075550100',
  timezone: 'America/New_York',
  details: { parking: true },
};

describe('Locations', () => {
  it('creates with geocoding (offline: no coordinates) and a chat notification; lists', async () => {
    const op = await createOperator();
    const r = await post('/location', body, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'North Dock',
      address: body.address,
      timezone: 'America/New_York',
      coordinates: null,
      status: 'active',
      details: { parking: true },
    });
    const chat = await db().select().from(messageOutbox).where(eq(messageOutbox.customerId, op.customerId)).all();
    expect(chat.some((m) => m.channel === 'chat' && m.body.includes('North Dock'))).toBe(true);
    const list = await get('/location', { key: op.adminKey });
    expect(list.body.data.map((l: any) => l.locationId)).toContain(r.body.locationId);
    expectError(await post('/location', { ...body, timezone: 'Mars/Olympus' }, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'POST', path: '/location', body });
    await checkSecurity(op, { method: 'GET', path: '/location' });
  });

  it("returns an inventory item's location, 404 for unknown or foreign items", async () => {
    const op = await createOperator();
    await db()
      .insert(inventoryItems)
      .values({ id: `inv_loc_${op.customerId}`, customerId: op.customerId, locationId: op.locationId, name: 'Kayak' });
    const r = await get(`/location?inventoryId=inv_loc_${op.customerId}`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.locationId).toBe(op.locationId);
    expectError(await get('/location?inventoryId=inv_missing', { key: op.adminKey }), 404);
    const other = await createOperator();
    expectError(await get(`/location?inventoryId=inv_loc_${op.customerId}`, { key: other.adminKey }), 404);
  });

  it('updates and re-geocodes; another operator gets 404', async () => {
    const op = await createOperator();
    const r = await patch('/location', { locationId: op.locationId, address: '99 New Street', name: 'Renamed' }, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Renamed', address: '99 New Street' });
    expectError(await patch('/location', { locationId: op.locationId }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch('/location', { locationId: 'loc_unknown', name: 'x' }, { key: op.adminKey }), 404);
    await checkSecurity(op, { method: 'PATCH', path: '/location', body: { locationId: op.locationId, name: 'x' }, otherStatus: 404 });
  });

  it('schedules deletion, restores, and the purge removes it only after 60 days', async () => {
    const op = await createOperator();
    expectError(await patch('/location/restore', { locationId: op.locationId }, { key: op.adminKey }), 400);
    const d = await del('/location', { locationId: op.locationId }, { key: op.adminKey });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('pending_deletion');
    const days = (Date.parse(d.body.purgeAfter) - Date.parse(d.body.deletionScheduledAt)) / 86_400_000;
    expect(days).toBe(60);
    expectError(await del('/location', { locationId: op.locationId }, { key: op.adminKey }), 409);
    const restored = await patch('/location/restore', { locationId: op.locationId }, { key: op.adminKey });
    expect(restored.body).toMatchObject({ status: 'active', purgeAfter: null });
    expectError(await patch('/location/restore', { locationId: 'loc_nope' }, { key: op.adminKey }), 404);

    await del('/location', { locationId: op.locationId, customerId: op.customerId }, { key: op.adminKey });
    await runCron('0 3 * * *', new Date(Date.now() + 59 * 86_400_000));
    expect(await db().select().from(locations).where(eq(locations.id, op.locationId)).get()).toBeDefined();
    await runCron('0 3 * * *', new Date(Date.now() + 61 * 86_400_000));
    expect(await db().select().from(locations).where(eq(locations.id, op.locationId)).get()).toBeUndefined();
  });

  it('refuses a foreign customerId on delete with 403', async () => {
    const op = await createOperator();
    const other = await createOperator();
    expectError(await del('/location', { locationId: op.locationId, customerId: other.customerId }, { key: op.adminKey }), 403, 'forbidden');
    await checkSecurity(op, { method: 'DELETE', path: '/location', body: { locationId: op.locationId }, otherStatus: 404 });
    await checkSecurity(op, { method: 'PATCH', path: '/location/restore', body: { locationId: op.locationId }, otherStatus: 404 });
  });

  it('sets the voice menu', async () => {
    const op = await createOperator();
    const r = await patch(
      '/location/ivr',
      { locationId: op.locationId, ivrConfig: { greeting: 'Ahoy', menu: [{ key: '1', action: 'voicemail' }] } },
      { key: op.adminKey },
    );
    expect(r.status).toBe(200);
    expect(r.body.ivrConfig).toMatchObject({ greeting: 'Ahoy' });
    expectError(
      await patch('/location/ivr', { locationId: op.locationId, ivrConfig: { menu: [{ key: 'x', action: 'dance' }] } }, { key: op.adminKey }),
      400,
      'validation_failed',
    );
    await checkSecurity(op, { method: 'PATCH', path: '/location/ivr', body: { locationId: op.locationId, ivrConfig: {} }, otherStatus: 404 });
  });

  it('lets staff without the locations permission read but not write', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    expect((await get('/location', { key: staff.key })).status).toBe(200);
    expectError(await post('/location', body, { key: staff.key }), 403, 'forbidden');
    const allowed = await op.addUser({ role: 'staff', permissions: ['locations'] });
    expect((await post('/location', body, { key: allowed.key })).status).toBe(200);
  });
});
