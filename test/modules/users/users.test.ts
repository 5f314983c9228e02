import { describe, it, expect } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { createOperator, del, expectError, get, patch, post, db } from '../../harness';
import { checkSecurity } from '../../security';
import { messageOutbox } from '../../../src/db/schema/events';
import { and, eq } from 'drizzle-orm';

const newEmail = () => `u-${crypto.randomUUID().slice(0, 8)}@example.test`;

describe('Users', () => {
  it('GET /user returns the user with locations, permissions and settings', async () => {
    const op = await createOperator();
    const r = await get('/user', { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: op.adminId, customerId: op.customerId, role: 'admin', permissions: ['admin'], settings: {} });
    expect(r.body.locations[0].locationId).toBe(op.locationId);
    await checkSecurity(op, { method: 'GET', path: '/user' });
  });

  it('POST /user creates in the identity provider and store, sends an invitation; 409 on a taken e-mail', async () => {
    const op = await createOperator();
    const email = newEmail();
    const r = await post(
      '/user',
      { email, customerId: op.customerId, name: 'Sam Skipper', role: 'staff', userSkills: ['captain'], locations: [op.locationId] },
      { key: op.adminKey },
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email, role: 'staff', userSkills: ['captain'], locations: [op.locationId] });
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.to, email), eq(messageOutbox.template, 'user.invitation')))
      .all();
    expect(mail).toHaveLength(1);
    expectError(await post('/user', { email, customerId: op.customerId, name: 'Again' }, { key: op.adminKey }), 409, 'already_exists');
    expectError(
      await post('/user', { email: newEmail(), customerId: op.customerId, name: 'X', locations: ['loc_foreign'] }, { key: op.adminKey }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/user', { email: newEmail(), customerId: op.customerId, name: 'X', userSkills: ['juggler'] }, { key: op.adminKey }),
      400,
      'validation_failed',
    );
    const other = await createOperator();
    expectError(await post('/user', { email: newEmail(), customerId: other.customerId, name: 'X' }, { key: op.adminKey }), 403, 'forbidden');
    await checkSecurity(op, { method: 'POST', path: '/user', body: { email: newEmail(), customerId: op.customerId, name: 'X' }, adminOnly: true });
  });

  it('PATCH /user updates the own profile; only admins change permissions', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    const r = await patch('/user', { profileName: 'Skip', userSkills: ['coach'] }, { key: staff.key });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ profileName: 'Skip', userSkills: ['coach'] });
    expectError(await patch('/user', { userPermissions: ['admin'] }, { key: staff.key }), 403, 'forbidden');
    expectError(await patch('/user', {}, { key: staff.key }), 400, 'no_changes');
    const a = await patch('/user', { userPermissions: ['admin', 'reports'] }, { key: op.adminKey });
    expect(a.body.permissions).toEqual(['admin', 'reports']);
    await checkSecurity(op, { method: 'PATCH', path: '/user', body: { profileName: 'x' } });
  });

  it('DELETE /user removes the user and its keys; not self; 404 for other operators', async () => {
    const op = await createOperator();
    const staff = await op.addUser();
    expectError(await del('/user', { id: op.adminId }, { key: op.adminKey }), 409);
    const r = await del('/user', { id: staff.userId }, { key: op.adminKey });
    expect(r.status).toBe(200);
    expectError(await get('/user', { key: staff.key }), 401);
    expectError(await del('/user', { id: staff.userId }, { key: op.adminKey }), 404);
    const victim = await op.addUser();
    await checkSecurity(op, { method: 'DELETE', path: '/user', body: { id: victim.userId }, otherStatus: 404, adminOnly: true });
  });

  it('records and reports terms acceptance', async () => {
    const op = await createOperator();
    expect((await get('/user/terms-status', { key: op.adminKey })).body.accepted).toBe(false);
    const a = await post('/user/accept-terms', {}, { key: op.adminKey });
    expect(a.body).toMatchObject({ accepted: true, documents: ['terms_of_service', 'provider_terms', 'privacy_policy'] });
    const s = await get('/user/terms-status', { key: op.adminKey });
    expect(s.body).toMatchObject({ accepted: true, acceptedVersion: a.body.version });
    await checkSecurity(op, { method: 'POST', path: '/user/accept-terms' });
    await checkSecurity(op, { method: 'GET', path: '/user/terms-status' });
  });

  it('exports personal data as a real PDF', async () => {
    const op = await createOperator();
    const r = await get('/user/export/my-data', { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(r.body as Uint8Array);
    expect(pdf.getPageCount()).toBeGreaterThan(0);
    expect(pdf.getTitle()).toBe('Berth personal data export');
    await checkSecurity(op, { method: 'GET', path: '/user/export/my-data' });
  });

  it('audit logs: every write is recorded; admin only; paginated; 404 for foreign users', async () => {
    const op = await createOperator();
    await patch('/user', { profileName: 'One' }, { key: op.adminKey });
    await patch('/user', { profileName: 'Two' }, { key: op.adminKey });
    await post('/user/accept-terms', {}, { key: op.adminKey });
    const r = await get(`/user/${op.adminId}/audit-logs?limit=2&offset=0`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.total).toBe(3);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0].action).toBe('user.accept_terms');
    const page2 = await get(`/user/${op.adminId}/audit-logs?limit=2&offset=2`, { key: op.adminKey });
    expect(page2.body.data.map((e: any) => e.action)).toEqual(['user.update_self']);
    expectError(await get(`/user/${op.adminId}/audit-logs?limit=0`, { key: op.adminKey }), 400, 'validation_failed');
    await checkSecurity(op, { method: 'GET', path: `/user/${op.adminId}/audit-logs`, otherStatus: 404, adminOnly: true });
  });

  it('adds and removes push tokens', async () => {
    const op = await createOperator();
    expect((await post('/user/push-token', { token: 'ExponentPushToken[abc123]' }, { key: op.adminKey })).status).toBe(200);
    expect((await post('/user/push-token', { token: 'ExponentPushToken[abc123]' }, { key: op.adminKey })).status).toBe(200);
    expect((await del('/user/push-token', { token: 'ExponentPushToken[abc123]' }, { key: op.adminKey })).status).toBe(200);
    expectError(await del('/user/push-token', { token: 'ExponentPushToken[abc123]' }, { key: op.adminKey }), 404);
    expectError(await post('/user/push-token', {}, { key: op.adminKey }), 400);
    await checkSecurity(op, { method: 'POST', path: '/user/push-token', body: { token: 'ExponentPushToken[x]' } });
    await checkSecurity(op, { method: 'DELETE', path: '/user/push-token', body: { token: 'ExponentPushToken[x]' } });
  });
});

describe('User management', () => {
  it('lists, creates, updates and deletes staff', async () => {
    const op = await createOperator();
    const email = newEmail();
    const c = await post('/userManagement', { email, customerId: op.customerId, name: 'Cora', userRole: 'manager', isSetup: true }, { key: op.adminKey });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ role: 'manager', isSetup: true });
    expectError(await post('/userManagement', { email, customerId: op.customerId, name: 'Dup' }, { key: op.adminKey }), 409, 'already_exists');
    const list = await get('/userManagement', { key: op.adminKey });
    expect(list.body.data.map((u: any) => u.email)).toContain(email);
    expectError(await get(`/userManagement?customerId=cus_someone_else`, { key: op.adminKey }), 403);
    const u = await patch('/userManagement', { id: c.body.id, userRole: 'staff', userSkills: ['trainer'] }, { key: op.adminKey });
    expect(u.body).toMatchObject({ role: 'staff', userSkills: ['trainer'] });
    expectError(await patch('/userManagement', { id: c.body.id }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await patch('/userManagement', { id: 'usr_missing', name: 'x' }, { key: op.adminKey }), 404);
    expect((await del('/userManagement', { id: c.body.id }, { key: op.adminKey })).status).toBe(200);
    await checkSecurity(op, { method: 'GET', path: '/userManagement' });
    await checkSecurity(op, { method: 'POST', path: '/userManagement', body: { email: newEmail(), customerId: op.customerId, name: 'x' }, adminOnly: true });
    const victim = await op.addUser();
    await checkSecurity(op, { method: 'PATCH', path: '/userManagement', body: { id: victim.userId, name: 'x' }, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'DELETE', path: '/userManagement', body: { id: victim.userId }, otherStatus: 404, adminOnly: true });
  });

  it('finds and buys phone numbers; the location gets a default voice menu', async () => {
    const op = await createOperator();
    const f = await post('/userManagement/find-phone-numbers', { country: 'US', areaCode: '305' }, { key: op.adminKey });
    expect(f.status).toBe(200);
    expect(f.body.data.length).toBeGreaterThan(0);
    const number = f.body.data[0].phoneNumber;
    expect(number).toMatch(/^\+1305/);
    const p = await post('/userManagement/purchase-phone-number', { phoneNumber: number, locationId: op.locationId }, { key: op.adminKey });
    expect(p.status).toBe(200);
    expect(p.body.ivrConfig).toMatchObject({ enabled: true, phoneNumber: number });
    expect(p.body.ivrConfig.menu.length).toBeGreaterThan(0);
    const loc = await get('/location', { key: op.adminKey });
    expect(loc.body.data[0].ivrConfig.phoneNumber).toBe(number);
    const again = await post('/userManagement/find-phone-numbers', { country: 'US', areaCode: '305' }, { key: op.adminKey });
    expect(again.body.data.map((n: any) => n.phoneNumber)).not.toContain(number);
    expectError(await post('/userManagement/purchase-phone-number', { phoneNumber: number, locationId: op.locationId }, { key: op.adminKey }), 409);
    expectError(await post('/userManagement/find-phone-numbers', { country: 'USA', areaCode: 'x' }, { key: op.adminKey }), 400);
    await checkSecurity(op, { method: 'POST', path: '/userManagement/find-phone-numbers', body: { country: 'US', areaCode: '212' } });
    await checkSecurity(op, {
      method: 'POST',
      path: '/userManagement/purchase-phone-number',
      body: { phoneNumber: '+12125550999', locationId: op.locationId },
      otherStatus: 404,
      adminOnly: true,
    });
  });

  it('resends an invitation as a password e-mail', async () => {
    const op = await createOperator();
    const u = await op.addUser();
    const r = await post(`/userManagement/${u.userId}/resend-invitation`, {}, { key: op.adminKey });
    expect(r.status).toBe(200);
    const mail = await db()
      .select()
      .from(messageOutbox)
      .where(and(eq(messageOutbox.to, u.email), eq(messageOutbox.template, 'user.password_change')))
      .all();
    expect(mail).toHaveLength(1);
    expect(mail[0].body).toContain('set-password');
    expectError(await post('/userManagement/usr_nope/resend-invitation', {}, { key: op.adminKey }), 404);
    await checkSecurity(op, { method: 'POST', path: `/userManagement/${u.userId}/resend-invitation`, otherStatus: 404, adminOnly: true });
  });
});
