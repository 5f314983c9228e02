/** The tenant portal's page: GET /slip-portal (HTML shell, CSP), and the e-mailed link that opens it with the operator and the marina. */
import { describe, it, expect } from 'vitest';
import { BASE, get, post } from '../../harness';
import { expectPortalPage } from '../../renter-pages';
import { makeSlip, marinaOperator, renter, reserve } from '../marina/helpers';
import { key, mailsTo } from '../marina/marina2-helpers';

describe('GET /slip-portal', () => {
  it("serves the page with Berth's own scripts only, never framed", async () => {
    expectPortalPage(await get('/slip-portal?customer=cus_x&location=loc_y&token=spl_x'), '/static/portal/tenant.js');
  });

  it('is what the e-mailed link opens, with the operator and the marina (a new link is asked there when this one expired)', async () => {
    const op = await marinaOperator();
    const who = renter('page');
    const r = (await reserve(op, (await makeSlip(op)).id, { renter: who })).body;
    expect((await post('/slip-portal/invite', { reservationId: r.id }, key(op))).status).toBe(200);
    const body = (await mailsTo(who.email, 'slip_portal.magic_link'))[0].body;
    const link = /https?:\/\/\S+/.exec(body)![0];
    const u = new URL(link);
    expect(`${u.origin}${u.pathname}`).toBe(`${BASE}/slip-portal`);
    expect(u.searchParams.get('token')).toMatch(/^spl_/);
    expect(u.searchParams.get('customer')).toBe(op.customerId);
    expect(u.searchParams.get('location')).toBe(r.locationId);
  });
});
