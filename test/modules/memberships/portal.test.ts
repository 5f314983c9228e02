/**
 * Public enrollment and the member portal (single-use e-mailed link, session, pause within the
 * policy, force refused, cancel at period end, new card paying a past-due renewal), and the shared
 * security checks on every route of the Memberships family.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, api, createOperator, expectError, get, post, runCron, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import {
  act,
  DAY,
  email,
  events,
  getM,
  invoices,
  lastPortalToken,
  makeMembership,
  makeRenter,
  makeTier,
  memberPortalSession,
  payments,
  setPeriod,
} from './factories';

let op: Operator;
let tierId: string;
beforeAll(async () => {
  op = await createOperator();
  tierId = (
    await makeTier(op, { name: 'Public Club', isPublic: true, pausePolicy: { enabled: true, maxPauseDays: 30 }, pricing: { monthly: 2500, yearly: 25000 } })
  ).tierId;
});

const portal = (session: string) => ({ headers: { authorization: `Bearer ${session}` } });

async function openSession(customerId: string, to: string) {
  const token = await lastPortalToken(customerId, to);
  const r = await post('/public/memberships/portal/session', { token });
  expect(r.status, r.text).toBe(200);
  return r.body.sessionToken as string;
}

describe('public enrollment', () => {
  it('lists public tiers and enrolls a new renter with a card; the welcome e-mail carries a single-use portal link', async () => {
    await makeTier(op, { name: 'Private' });
    const tiers = await get(`/public/memberships/tiers?customerId=${op.customerId}`);
    expect(tiers.status, tiers.text).toBe(200);
    expect(tiers.body.data.map((t: any) => t.name)).toEqual(['Public Club']);
    expectError(await get('/public/memberships/tiers?customerId=cus_nope'), 404);

    const mail = email('enroll');
    const body = { customerId: op.customerId, tierId, firstName: 'Eve', lastName: 'Enrolled', email: mail, paymentMethodId: 'pm_card_visa' };
    const r = await post('/public/memberships/enroll', body);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      portalLinkSent: true,
      customerCreated: true,
      membership: { status: 'active', price: 2500, tierName: 'Public Club', card: { last4: '4242' } },
    });
    expectError(await post('/public/memberships/enroll', body), 400, 'already_member');
    expect((await events(op.customerId, 'customer.created')).some((e) => e.data.email === mail)).toBe(true);
    expect((await events(op.customerId, 'payment.completed')).some((e) => e.data.membershipId === r.body.membership.membershipId)).toBe(true);

    const privateTier = (await get(`/memberships/tiers?customerId=${op.customerId}`, { key: op.adminKey })).body.data.find((t: any) => t.name === 'Private');
    expectError(await post('/public/memberships/enroll', { ...body, email: email(), tierId: privateTier.tierId }), 404);
    expectError(await post('/public/memberships/enroll', { ...body, email: email(), paymentMethodId: 'pm_card_chargeDeclined' }), 400, 'payment_declined');
    const intruder = await otherOperator();
    expectError(await post('/public/memberships/enroll', { ...body, email: email() }, { key: intruder.adminKey }), 403, 'forbidden');

    // The link opens one session, once.
    const token = await lastPortalToken(op.customerId, mail);
    const s1 = await post('/public/memberships/portal/session', { token });
    expect(s1.status, s1.text).toBe(200);
    expect(s1.body.membership.membershipId).toBe(r.body.membership.membershipId);
    expectError(await post('/public/memberships/portal/session', { token }), 410, 'expired');
    expectError(await post('/public/memberships/portal/session', { token: 'mpl_unknown_token_000000' }), 404);
    const me = await get('/public/memberships/portal', portal(s1.body.sessionToken));
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ memberEmail: mail, pausePolicy: { enabled: true, maxPauseDays: 30 } });
  });

  it('a link used twice at once opens one session', async () => {
    const m = await makeMembership(op, tierId);
    expect((await post('/public/memberships/portal/link', { customerId: op.customerId, email: m.memberEmail })).status).toBe(200);
    const token = await lastPortalToken(op.customerId, m.memberEmail);
    const both = await Promise.all([0, 1, 2].map(() => post('/public/memberships/portal/session', { token })));
    expect(both.map((x) => x.status).sort()).toEqual([200, 410, 410]);
  });
});

describe('member portal', () => {
  it('answers the same whether or not a membership exists; expired links are refused', async () => {
    const none = await post('/public/memberships/portal/link', { customerId: op.customerId, email: 'nobody@member.test' });
    const m = await makeMembership(op, tierId);
    const some = await post('/public/memberships/portal/link', { customerId: op.customerId, email: m.memberEmail });
    expect(none.status).toBe(200);
    expect(some.body).toEqual(none.body);
    const token = await lastPortalToken(op.customerId, m.memberEmail);
    await env.DB.prepare("UPDATE membership_portal_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE membership_id = ? AND kind = 'link'")
      .bind(m.membershipId)
      .run();
    expectError(await post('/public/memberships/portal/session', { token }), 410, 'expired');
  });

  it('pauses within the policy (force is 403), resumes, lists invoices and cancels at the period end', async () => {
    const m = await makeMembership(op, tierId);
    await post('/public/memberships/portal/link', { customerId: op.customerId, email: m.memberEmail });
    const s = await openSession(op.customerId, m.memberEmail);
    expectError(await post('/public/memberships/portal/pause', { force: true }, portal(s)), 403, 'forbidden');
    expectError(
      await post('/public/memberships/portal/pause', { resumeAt: new Date(Date.now() + 60 * DAY).toISOString() }, portal(s)),
      400,
      'pause_not_allowed',
    );
    const p = await post('/public/memberships/portal/pause', { resumeAt: new Date(Date.now() + 7 * DAY).toISOString() }, portal(s));
    expect(p.status, p.text).toBe(200);
    expect(p.body.status).toBe('paused');
    const r = await api('POST', '/public/memberships/portal/resume', portal(s));
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('active');
    const inv = await get('/public/memberships/portal/invoices?limit=5', portal(s));
    expect(inv.status, inv.text).toBe(200);
    expect(inv.body).toMatchObject({ total: 1, limit: 5, offset: 0 });
    expect(inv.body.data[0]).toMatchObject({ kind: 'initial', total: 2500 });
    const c = await post('/public/memberships/portal/cancel', { reason: 'moving away' }, portal(s));
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect((await getM(op, m.membershipId)).body.cancelAtPeriodEnd).toBe(true);
    // Sessions belong to one membership of one operator.
    const other = await makeMembership(op, tierId);
    expect((await get('/public/memberships/portal', portal(s))).body.membershipId).toBe(m.membershipId);
    expect(other.membershipId).not.toBe(m.membershipId);
    expectError(await get('/public/memberships/portal', portal('mps_not_a_session_token_0000000')), 401, 'unauthenticated');
    expectError(await get('/public/memberships/portal'), 401, 'unauthenticated');
  });

  it('a new card pays a past-due renewal at once and the membership is active again', async () => {
    const m = await makeMembership(op, tierId);
    const p = await setPeriod(m.membershipId, 30.05, 30);
    await env.DB.prepare('UPDATE memberships SET payment_method_id = ? WHERE id = ?').bind('pm_card_chargeDeclined', m.membershipId).run();
    const due = Date.parse(p.end);
    for (const at of [Date.now(), due + DAY + 60_000, due + 3 * DAY + 60_000, due + 5 * DAY + 60_000]) await runCron('*/5 * * * *', new Date(at));
    expect((await getM(op, m.membershipId)).body.status).toBe('past_due');
    // The dunning e-mails carry portal links.
    const s = await openSession(op.customerId, m.memberEmail);
    const bad = await post('/public/memberships/portal/card', { paymentMethodId: 'pm_card_chargeDeclined' }, portal(s));
    expect(bad.status, bad.text).toBe(200);
    expect(bad.body.payment.status).toBe('declined');
    expect(bad.body.membership.status).toBe('past_due');
    const good = await post('/public/memberships/portal/card', { paymentMethodId: 'pm_card_mastercard' }, portal(s));
    expect(good.status, good.text).toBe(200);
    expect(good.body).toMatchObject({
      card: { brand: 'mastercard', last4: '4444' },
      payment: { status: 'paid' },
      membership: { status: 'active', card: { last4: '4444' } },
    });
    const renewal = (await invoices(m.membershipId)).find((i: any) => i.kind === 'renewal');
    expect(renewal).toMatchObject({ status: 'paid', amount_paid: 2500 });
    expect((await payments(m.membershipId)).filter((x: any) => x.status === 'succeeded')).toHaveLength(2);
    // Renewals use the new card from now on.
    const r = (await getM(op, m.membershipId)).body;
    await runCron('*/5 * * * *', new Date(Date.parse(r.currentPeriodEnd) + 60_000));
    expect((await payments(m.membershipId)).filter((x: any) => x.status === 'succeeded')).toHaveLength(3);
  });
});

describe('security', () => {
  it('every route of the family: 401 without credentials, 403 for another operator, 403 for staff without the permission', async () => {
    const m = await makeMembership(op, tierId);
    const inv = (await invoices(m.membershipId))[0];
    const renter = await makeRenter(op);
    const org = (
      await post(
        '/memberships/organizations',
        { customerId: op.customerId, name: 'Sec Org', contactEmail: 'sec@org.test', contactName: 'Sec' },
        { key: op.adminKey },
      )
    ).body;
    const cid = op.customerId;
    const q = `?customerId=${cid}`;
    const M = `/memberships/${m.membershipId}`;
    const reads = [
      `/memberships${q}`,
      `${M}${q}`,
      `${M}/invoices${q}`,
      `${M}/credits${q}`,
      `/memberships/organizations${q}`,
      `/memberships/organizations/${org.orgId}${q}`,
      `/memberships/organizations/${org.orgId}/members${q}`,
      `/memberships/tiers${q}`,
      `/memberships/tiers/${tierId}${q}`,
    ];
    for (const path of reads) await checkSecurity(op, { method: 'GET', path, otherStatus: 403 });
    const writes: [string, string, unknown][] = [
      ['POST', '/memberships', { customerId: cid, tierId, memberEmail: renter.email, paymentMethodId: 'pm_card_visa' }],
      ['POST', `${M}/cancel`, { customerId: cid }],
      ['POST', `${M}/reactivate`, { customerId: cid }],
      ['POST', `${M}/pause`, { customerId: cid }],
      ['POST', `${M}/resume`, { customerId: cid }],
      ['POST', `${M}/billing/add-free-month`, { customerId: cid }],
      ['POST', `${M}/billing/change-date`, { customerId: cid, newBillingDate: new Date(Date.now() + 40 * DAY).toISOString() }],
      ['POST', `${M}/billing/switch-cycle`, { customerId: cid, newBillingCycle: 'yearly' }],
      ['POST', `${M}/billing/change-price`, { customerId: cid, newPrice: 100 }],
      ['POST', `${M}/refund`, { customerId: cid, invoiceId: inv.id, amount: 1 }],
      ['POST', `${M}/invoices/${inv.id}/resend`, { customerId: cid }],
      ['POST', `${M}/credits/adjust`, { customerId: cid, amount: 1, description: 'x' }],
      ['POST', `${M}/family`, { customerId: cid, renterId: renter.id, email: renter.email }],
      ['DELETE', `${M}/family/${renter.id}${q}`, undefined],
      ['POST', '/memberships/organizations', { customerId: cid, name: 'X', contactEmail: 'x@x.test', contactName: 'X' }],
      ['PATCH', `/memberships/organizations/${org.orgId}`, { customerId: cid, name: 'Y' }],
      ['DELETE', `/memberships/organizations/${org.orgId}${q}`, undefined],
      ['POST', `/memberships/organizations/${org.orgId}/members`, { customerId: cid, renterId: renter.id }],
      ['DELETE', `/memberships/organizations/${org.orgId}/members/${renter.id}${q}`, undefined],
      ['POST', `/memberships/organizations/${org.orgId}/membership`, { customerId: cid, tierId, billingCycle: 'monthly' }],
      ['POST', '/memberships/tiers', { customerId: cid, name: 'T' }],
      ['PATCH', `/memberships/tiers/${tierId}`, { customerId: cid, name: 'T2' }],
      ['DELETE', `/memberships/tiers/${tierId}${q}`, undefined],
    ];
    for (const [method, path, body] of writes) await checkSecurity(op, { method, path, body, otherStatus: 403, adminOnly: true });
    // Another operator's ids with its own customerId: 404.
    const intruder = await otherOperator();
    for (const path of [`${M}?customerId=${intruder.customerId}`, `/memberships/tiers/${tierId}?customerId=${intruder.customerId}`]) {
      expectError(await get(path, { key: intruder.adminKey }), 404, 'not_found');
    }
    expectError(await act(intruder, m.membershipId, 'cancel', { cancelImmediately: true }), 404, 'not_found');
    expect((await getM(op, m.membershipId)).body.status).toBe('active');
    // Portal routes: a session, nothing else.
    for (const [method, path] of [
      ['GET', '/public/memberships/portal'],
      ['GET', '/public/memberships/portal/invoices'],
      ['POST', '/public/memberships/portal/pause'],
      ['POST', '/public/memberships/portal/resume'],
      ['POST', '/public/memberships/portal/cancel'],
      ['POST', '/public/memberships/portal/card'],
    ]) {
      await checkSecurity(op, { method, path, body: method === 'POST' ? {} : undefined });
      expectError(await api(method, path, { key: op.adminKey, body: method === 'POST' ? {} : undefined }), 401, 'unauthenticated');
    }
  });
});

describe('on a test clock', () => {
  it("enrollment, the link and the session run on the operator's clock: the session expires two hours later on that clock", async () => {
    // A clock in the past of the wall clock: a session that expired on the wall clock is live on the operator's.
    const T0 = '2025-03-10T14:00:00.000Z';
    const clocked = await createOperator({ clockAt: T0 });
    const session = await memberPortalSession(clocked);
    const me = await get('/public/memberships/portal', portal(session));
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ status: 'active', currentPeriodStart: T0 });
    await advanceClock(clocked.clockId!, Date.parse(T0) + 2 * 3_600_000 + 60_000, clocked.adminKey);
    expectError(await get('/public/memberships/portal', portal(session)), 401, 'unauthenticated');
  });
});
