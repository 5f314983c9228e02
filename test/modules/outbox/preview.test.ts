/**
 * GET /outbox/messages/{id}/preview (issue 32): a message as its recipient sees it, as text/html under
 * a sandboxing Content-Security-Policy; for every operator (not only sandbox ones), its own messages only.
 */
import { describe, it, expect } from 'vitest';
import { api, createOperator, expectError, get, post } from '../../harness';
import { checkSecurity } from '../../security';
import { approve, createApp, installAndToken, registerPartner } from '../partners/helpers';
import { SCOPE_NAMES } from '../../../src/modules/partners/types';
import { at, book, bookBody, rentalItem } from '../bookings/factories';

describe('message preview', () => {
  it("answers an e-mail's HTML part as text/html, sandboxed, to a (non-sandbox) operator", async () => {
    const op = await createOperator();
    const item = await rentalItem(op);
    const b = await book(op, bookBody({ inventoryId: item.id, startTime: at(op.timezone, 5, '10:00'), endTime: at(op.timezone, 5, '12:00') }));
    expect(b.status, b.text).toBe(201);
    const list = await get(`/outbox/messages?rentalId=${b.body.rentalId}&template=booking.confirmation`, { key: op.adminKey });
    const m = list.body.data[0];
    const r = await get(`/outbox/messages/${m.id}/preview`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.text).toBe(m.html);
    expect(r.text).toContain(`/widget?manage=${b.body.rentalId}&amp;customer=${op.customerId}`);

    await checkSecurity(op, { method: 'GET', path: `/outbox/messages/${m.id}/preview`, otherStatus: 404 });
    const staff = await op.addUser({ role: 'staff' });
    expect((await get(`/outbox/messages/${m.id}/preview`, { key: staff.key })).status).toBe(200);
  });

  it('shows a message without an HTML part as its escaped text', async () => {
    const op = await createOperator();
    const u = await op.addUser({ email: `inv-<b>${crypto.randomUUID().slice(0, 6)}@example.test` });
    await post(`/userManagement/${u.userId}/resend-invitation`, {}, { key: op.adminKey });
    const m = (await get('/outbox/messages?channel=email', { key: op.adminKey })).body.data.find((x: any) => x.to === u.email && !x.html);
    expect(m, 'an invitation without an HTML part').toBeTruthy();
    const r = await get(`/outbox/messages/${m.id}/preview`, { key: op.adminKey });
    expect(r.status).toBe(200);
    expect(r.text).toContain('<pre');
    expect(r.text).not.toContain('inv-<b>');
  });

  it('answers 404 for an unknown id, and the partner gateway does not expose it (403)', async () => {
    const op = await createOperator();
    expectError(await get('/outbox/messages/msg_unknown/preview', { key: op.adminKey }), 404, 'not_found');
    const partner = await registerPartner('Preview Co');
    const app = await createApp(partner, { scopes: [...SCOPE_NAMES] });
    await approve(partner, app.appId);
    const token = (await installAndToken(op, app, SCOPE_NAMES.join(' '))).access_token;
    expectError(await api('GET', '/api/v1/outbox/messages/msg_unknown/preview', { token }), 403, 'route_not_exposed');
  });
});
