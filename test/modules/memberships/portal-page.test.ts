/**
 * The member portal's page and what it reads: GET /member-portal (HTML shell, CSP), the membership's operator and benefits
 * (the page's look and the card), and sign-out (DELETE /public/memberships/portal/session ends the session at once).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createOperator, del, expectError, get, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { expectPortalPage } from '../../renter-pages';
import { memberPortalSession } from './factories';

let op: Operator;
beforeAll(async () => {
  op = await createOperator();
});
const portal = (session: string) => ({ headers: { authorization: `Bearer ${session}` } });

describe('GET /member-portal', () => {
  it("serves the page with Berth's own scripts only, never framed", async () => {
    expectPortalPage(await get(`/member-portal?customer=${op.customerId}&token=mpl_x`), '/static/portal/member.js');
  });
});

describe('the member portal session', () => {
  it("answers the operator and the tier's benefits, and signing out ends the session at once", async () => {
    const session = await memberPortalSession(op);
    const me = await get('/public/memberships/portal', portal(session));
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ customerId: op.customerId, benefits: { discountPercentage: expect.any(Number), perks: expect.any(Array) } });
    const out = await del('/public/memberships/portal/session', undefined, portal(session));
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    expectError(await get('/public/memberships/portal', portal(session)), 401, 'unauthenticated');
    expectError(await del('/public/memberships/portal/session', undefined, portal(session)), 401, 'unauthenticated');
    await checkSecurity(op, { method: 'DELETE', path: '/public/memberships/portal/session' });
    expectError(await del('/public/memberships/portal/session', undefined, { key: op.adminKey }), 401, 'unauthenticated');
  });
});
