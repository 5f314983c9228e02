import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { api, createOperator, db, del, expectError, get, patch, post } from '../../harness';
import { checkSecurity } from '../../security';
import { coverageSecrets } from '../../../src/db/schema/coverage';
import { simAccounts } from '../../../src/db/schema/payments';
import {
  PLATFORM,
  bearer,
  installNetwork,
  offering,
  operator,
  quote,
  registerPartner,
  restoreNetwork,
  underwriterHost,
  window2h,
  world,
  type Partner,
} from './helpers';

beforeEach(installNetwork);
afterEach(restoreNetwork);

/** The partner-token checks of a partner route: none 401, an operator key 401, another partner's record 404. */
async function partnerSecurity(owner: Partner, method: string, path: string, body?: unknown) {
  expectError(await api(method, path, { body }), 401, 'unauthenticated');
  const op = await createOperator();
  expectError(await api(method, path, { body, key: op.adminKey }), 401, 'unauthenticated');
  expectError(await api(method, path, { body, token: 'bpt_' + 'x'.repeat(40) }), 401, 'unauthenticated');
  const other = await registerPartner('Intruder Cover');
  const r = await api(method, path, { body, token: other.token });
  expect([404, 403], `${method} ${path} by another partner: ${r.text}`).toContain(r.status);
  void owner;
}

/** Platform routes: none 401, a wrong key 401, an operator or a partner 403/401. */
async function platformSecurity(method: string, path: string, body?: unknown) {
  expectError(await api(method, path, { body }), 401, 'unauthenticated');
  expectError(await api(method, path, { body, headers: { 'x-platform-key': 'wrong-key-000000000000000000000000000' } }), 401, 'unauthenticated');
  const op = await createOperator();
  expectError(await api(method, path, { body, key: op.adminKey }), 403, 'forbidden');
}

describe('Coverage offerings (partner)', () => {
  it('creates an offering: the signing secret is answered once and stored encrypted; reads never show it', async () => {
    const p = await registerPartner();
    const host = underwriterHost();
    const body = { name: 'Harbor Boat Cover', supportEmail: 'Claims@Harbor.test', baseUrl: `${host.baseUrl}/v1/`, supportedCountries: ['us', 'CA'] };
    const r = await post('/partners/coverage/offerings', body, bearer(p.token));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      status: 'draft',
      baseUrl: `${host.baseUrl}/v1`,
      supportedCountries: ['US', 'CA'],
      currencies: [],
      quoteTimeoutMs: 2000,
      enabled: true,
      supportEmail: 'claims@harbor.test',
      payoutAccountId: null,
      rescheduleDelivery: 'hourly',
    });
    expect(r.body.signingSecret).toMatch(/^cvs_[A-Za-z0-9]{48}$/);
    expect(r.body.secret).toMatchObject({ present: true, prefix: r.body.signingSecret.slice(0, 8), previousValidUntil: null });
    const stored = await db().select().from(coverageSecrets).where(eq(coverageSecrets.offeringId, r.body.offeringId)).all();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(r.body.signingSecret);
    const one = await get(`/partners/coverage/offerings/${r.body.offeringId}`, bearer(p.token));
    expect(one.status).toBe(200);
    expect(one.body.signingSecret).toBeUndefined();
    expect(JSON.stringify(one.body)).not.toContain(r.body.signingSecret);
    const list = await get('/partners/coverage/offerings', bearer(p.token));
    expect(list.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(JSON.stringify(list.body)).not.toContain(r.body.signingSecret);

    await partnerSecurity(p, 'GET', `/partners/coverage/offerings/${r.body.offeringId}`);
    await partnerSecurity(p, 'PATCH', `/partners/coverage/offerings/${r.body.offeringId}`, { name: 'X' });
    await partnerSecurity(p, 'POST', `/partners/coverage/offerings/${r.body.offeringId}/secret`);
    await partnerSecurity(p, 'GET', `/partners/coverage/offerings/${r.body.offeringId}/status`);
    await partnerSecurity(p, 'POST', `/partners/coverage/offerings/${r.body.offeringId}/submit`);
    await partnerSecurity(p, 'GET', `/partners/coverage/offerings/${r.body.offeringId}/calls`);
    await partnerSecurity(p, 'DELETE', `/partners/coverage/offerings/${r.body.offeringId}`);
    expectError(await api('GET', '/partners/coverage/offerings'), 401, 'unauthenticated');
    expectError(await api('POST', '/partners/coverage/offerings', { body }), 401, 'unauthenticated');
    expectError(await api('GET', '/partners/payout-account'), 401, 'unauthenticated');
    expectError(await api('POST', '/partners/payout-account', { body: { country: 'US' } }), 401, 'unauthenticated');
  });

  it('refuses a baseUrl that is not https, has a query or credentials; quoteTimeoutMs at most 5000; countries and currencies checked', async () => {
    const p = await registerPartner();
    const base = { name: 'X', supportEmail: 'x@x.test', supportedCountries: ['US'] };
    for (const baseUrl of ['http://uw.example.test', 'ftp://uw.example.test', 'https://uw.example.test/?mode=a', 'https://u:p@uw.example.test', 'not a url']) {
      const r = await post('/partners/coverage/offerings', { ...base, baseUrl }, bearer(p.token));
      expectError(r, 400, 'validation_failed');
      expect(r.body.details[0].field).toBe('baseUrl');
    }
    expectError(
      await post('/partners/coverage/offerings', { ...base, baseUrl: 'https://uw.test', quoteTimeoutMs: 5001 }, bearer(p.token)),
      400,
      'validation_failed',
    );
    expectError(
      await post('/partners/coverage/offerings', { ...base, baseUrl: 'https://uw.test', quoteTimeoutMs: 1.5 }, bearer(p.token)),
      400,
      'validation_failed',
    );
    expectError(await post('/partners/coverage/offerings', { ...base, baseUrl: 'https://uw.test', supportedCountries: ['USA'] }, bearer(p.token)), 400);
    expectError(await post('/partners/coverage/offerings', { ...base, baseUrl: 'https://uw.test', supportedCountries: ['US', 'us'] }, bearer(p.token)), 400);
    expectError(await post('/partners/coverage/offerings', { ...base, baseUrl: 'https://uw.test', currencies: ['dollars'] }, bearer(p.token)), 400);
    // A self-registered partner's URL never points at this machine or a private network, not even in development and tests (adapters/http.ts).
    for (const baseUrl of ['https://127.0.0.1:8443', 'https://localhost', 'https://10.0.0.8', 'https://[::7f00:1]', 'https://169.254.169.254'])
      expectError(await post('/partners/coverage/offerings', { ...base, baseUrl }, bearer(p.token)), 400, 'validation_failed');
  });

  it('payout accounts: US, UK, EEA, Canada and Switzerland only; the simulator completes onboarding; attached to every offering', async () => {
    const p = await registerPartner();
    const before = await offering({ partner: p, payout: false });
    expectError(await get('/partners/payout-account', bearer(p.token)), 404, 'not_found');
    for (const country of ['BR', 'AU', 'MX']) {
      const r = await post('/partners/payout-account', { country }, bearer(p.token));
      expectError(r, 422, 'payout_country_unsupported');
    }
    const s = await get(`/partners/coverage/offerings/${before.offeringId}/status`, bearer(p.token));
    expect(s.body).toMatchObject({ ready: false, payoutAccount: null });
    expect(s.body.missing.map((m: any) => m.item)).toEqual(['payout_account']);
    expect(s.body.missing[0].message).toMatch(/US, the UK, the EEA, Canada or Switzerland/);
    expectError(await post(`/partners/coverage/offerings/${before.offeringId}/submit`, {}, bearer(p.token)), 409, 'offering_not_ready');

    const c = await post('/partners/payout-account', { country: 'de' }, bearer(p.token));
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ country: 'DE', status: 'active', payoutsEnabled: true, attachedOfferingIds: [before.offeringId] });
    expect(c.body.onboardingUrl).toMatch(/^https:\/\//);
    const acct = await db().select().from(simAccounts).where(eq(simAccounts.id, c.body.accountId)).get();
    expect(acct).toMatchObject({ type: 'express', country: 'DE', detailsSubmitted: true });
    expect((await get('/partners/payout-account', bearer(p.token))).body).toMatchObject({ accountId: c.body.accountId, status: 'active', onboardingUrl: null });
    const after = await offering({ partner: p, payout: false });
    expect(after.offering.payoutAccountId).toBe(c.body.accountId);
    for (const country of ['US', 'GB', 'CA', 'CH', 'NO', 'FR']) {
      const other = await registerPartner();
      expect((await post('/partners/payout-account', { country }, bearer(other.token))).status).toBe(200);
    }
  });

  it('moves draft -> in review -> approved by platform staff; a change of baseUrl, countries, currencies or payout account goes back to review', async () => {
    const p = await registerPartner();
    const o = await offering({ partner: p, body: { supportedCountries: [] } });
    const st = await get(`/partners/coverage/offerings/${o.offeringId}/status`, bearer(p.token));
    expect(st.body.missing.map((m: any) => m.item)).toEqual(['licensed_country']);
    const refused = await post(`/partners/coverage/offerings/${o.offeringId}/submit`, {}, bearer(p.token));
    expectError(refused, 409, 'offering_not_ready');
    expect(refused.body.details).toEqual([{ field: 'licensed_country', message: expect.stringMatching(/licensed country/) }]);
    expect((await patch(`/partners/coverage/offerings/${o.offeringId}`, { supportedCountries: ['US'] }, bearer(p.token))).body.status).toBe('draft');
    expect((await get(`/partners/coverage/offerings/${o.offeringId}/status`, bearer(p.token))).body).toMatchObject({ ready: true, missing: [] });
    const sub = await post(`/partners/coverage/offerings/${o.offeringId}/submit`, {}, bearer(p.token));
    expect(sub.status, sub.text).toBe(200);
    expect(sub.body.status).toBe('in_review');
    expectError(await post(`/partners/coverage/offerings/${o.offeringId}/submit`, {}, bearer(p.token)), 409, 'invalid_state');

    // Review: only platform staff; a reject carries reasons; approve fixes the reschedule delivery.
    await platformSecurity('GET', '/platform/coverage/offerings');
    await platformSecurity('GET', `/platform/coverage/offerings/${o.offeringId}`);
    await platformSecurity('POST', `/platform/coverage/offerings/${o.offeringId}/approve`, {});
    await platformSecurity('POST', `/platform/coverage/offerings/${o.offeringId}/reject`, { reasons: ['x'] });
    expectError(await post(`/platform/coverage/offerings/${o.offeringId}/approve`, {}, bearer(p.token)), 401);
    const queue = await get('/platform/coverage/offerings', PLATFORM);
    expect(queue.body.data.map((x: any) => x.offeringId)).toContain(o.offeringId);
    expect(queue.body.data.find((x: any) => x.offeringId === o.offeringId).partner.email).toBe(p.email);
    expectError(await post(`/platform/coverage/offerings/${o.offeringId}/reject`, { reasons: [] }, PLATFORM), 400, 'validation_failed');
    const rej = await post(`/platform/coverage/offerings/${o.offeringId}/reject`, { reasons: ['Add Canada to your licence list or remove CAD'] }, PLATFORM);
    expect(rej.body).toMatchObject({ status: 'draft', review: { reasons: ['Add Canada to your licence list or remove CAD'] } });
    expect((await get(`/partners/coverage/offerings/${o.offeringId}`, bearer(p.token))).body.review.reasons).toHaveLength(1);
    await post(`/partners/coverage/offerings/${o.offeringId}/submit`, {}, bearer(p.token));
    expectError(await post(`/platform/coverage/offerings/${o.offeringId}/approve`, { rescheduleDelivery: 'weekly' }, PLATFORM), 400);
    const ok = await post(`/platform/coverage/offerings/${o.offeringId}/approve`, { rescheduleDelivery: 'immediate', note: 'Fine' }, PLATFORM);
    expect(ok.body).toMatchObject({ status: 'approved', rescheduleDelivery: 'immediate', review: { note: 'Fine', reasons: null } });
    expectError(await post(`/platform/coverage/offerings/${o.offeringId}/approve`, {}, PLATFORM), 409, 'invalid_state');

    // Free changes keep it approved.
    const free = await patch(
      `/partners/coverage/offerings/${o.offeringId}`,
      { name: 'Renamed', supportEmail: 'help@x.test', quoteTimeoutMs: 900, enabled: false },
      bearer(p.token),
    );
    expect(free.body).toMatchObject({ status: 'approved', name: 'Renamed', quoteTimeoutMs: 900, enabled: false });
    expectError(await patch(`/partners/coverage/offerings/${o.offeringId}`, {}, bearer(p.token)), 400, 'no_changes');
    // Same lists in another order: no change.
    expect(
      (await patch(`/partners/coverage/offerings/${o.offeringId}`, { supportedCountries: ['US'], currencies: ['usd'] }, bearer(p.token))).body.status,
    ).toBe('approved');
    for (const change of [{ currencies: ['usd', 'cad'] }, { supportedCountries: ['US', 'CA'] }, { baseUrl: `${o.host.baseUrl}/v2` }]) {
      const back = await patch(`/partners/coverage/offerings/${o.offeringId}`, change, bearer(p.token));
      expect(back.body.status, JSON.stringify(change)).toBe('in_review');
      await post(`/platform/coverage/offerings/${o.offeringId}/approve`, {}, PLATFORM);
    }
    // A new payout account (another country) sends it back too.
    expect((await post('/partners/payout-account', { country: 'CA' }, bearer(p.token))).body.status).toBe('active');
    expect((await get(`/partners/coverage/offerings/${o.offeringId}`, bearer(p.token))).body.status).toBe('in_review');
  });

  it('rotates the secret: the new one is shown once, the previous one keeps working 24 hours', async () => {
    const w = await offering();
    const r = await post(`/partners/coverage/offerings/${w.offeringId}/secret`, {}, bearer(w.partner.token));
    expect(r.status, r.text).toBe(200);
    expect(r.body.signingSecret).toMatch(/^cvs_/);
    expect(r.body.signingSecret).not.toBe(w.secret);
    const hours = (Date.parse(r.body.previousValidUntil) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const o = await get(`/partners/coverage/offerings/${w.offeringId}`, bearer(w.partner.token));
    expect(o.body.secret).toMatchObject({ present: true, prefix: r.body.signingSecret.slice(0, 8), previousValidUntil: r.body.previousValidUntil });
  });

  it('deletes an offering: offered nowhere after that', async () => {
    const w = await world();
    const d = await del(`/partners/coverage/offerings/${w.offeringId}`, undefined, bearer(w.partner.token));
    expect(d.status).toBe(200);
    expectError(await get(`/partners/coverage/offerings/${w.offeringId}`, bearer(w.partner.token)), 404);
    const q = await quote(w, window2h());
    expect(q.body.data).toEqual([]);
    expect((await get('/coverage/offerings', { key: w.op.adminKey })).body.data.map((x: any) => x.offeringId)).not.toContain(w.offeringId);
  });
});

describe('Coverage for operators: offerings and enablements', () => {
  it('live operators see and enable approved offerings only; the sandbox uses drafts at once', async () => {
    const o = await offering();
    const live = await operator({ sandbox: false });
    const sandbox = await operator();
    const k = { key: live.op.adminKey };
    expect((await get('/coverage/offerings', k)).body.data.map((x: any) => x.offeringId)).not.toContain(o.offeringId);
    expectError(await post('/coverage/enablements', { locationId: live.op.locationId, offeringId: o.offeringId }, k), 404, 'not_found');
    const sb = await get('/coverage/offerings', { key: sandbox.op.adminKey });
    expect(sb.body.data.find((x: any) => x.offeringId === o.offeringId)).toMatchObject({ status: 'draft', live: false, enabledLocationIds: [] });
    const e = await post('/coverage/enablements', { locationId: sandbox.op.locationId, offeringId: o.offeringId }, { key: sandbox.op.adminKey });
    expect(e.status, e.text).toBe(201);

    await post(`/partners/coverage/offerings/${o.offeringId}/submit`, {}, bearer(o.partner.token));
    await post(`/platform/coverage/offerings/${o.offeringId}/approve`, {}, PLATFORM);
    const en = await post('/coverage/enablements', { locationId: live.op.locationId, offeringId: o.offeringId }, k);
    expect(en.status, en.text).toBe(201);
    expect(en.body).toMatchObject({ locationId: live.op.locationId, offeringId: o.offeringId, offeringName: 'Harbor Boat Cover' });
    expectError(await post('/coverage/enablements', { locationId: live.op.locationId, offeringId: o.offeringId }, k), 409, 'already_exists');
    expect((await get('/coverage/offerings', k)).body.data.find((x: any) => x.offeringId === o.offeringId)).toMatchObject({
      live: true,
      enabledLocationIds: [live.op.locationId],
    });
    expect((await get(`/coverage/enablements?locationId=${live.op.locationId}`, k)).body.data).toHaveLength(1);
    // Live quotes work once approved; back in review they stop (the sandbox keeps quoting).
    expect((await quote({ ...live, offeringId: o.offeringId } as any)).body.data).toHaveLength(1);
    await patch(`/partners/coverage/offerings/${o.offeringId}`, { currencies: ['usd', 'eur'] }, bearer(o.partner.token));
    const paused = await quote({ ...live } as any);
    expect(paused.body.data).toEqual([]);
    expect(paused.body.unavailable[0].reason).toBe('offering_unavailable');
    expect((await quote({ ...sandbox } as any)).body.data).toHaveLength(1);

    await checkSecurity(live.op, { method: 'GET', path: '/coverage/offerings' });
    await checkSecurity(live.op, { method: 'GET', path: '/coverage/enablements' });
    await checkSecurity(live.op, {
      method: 'POST',
      path: '/coverage/enablements',
      body: { locationId: live.op.locationId, offeringId: o.offeringId },
      otherStatus: 404,
      adminOnly: true,
    });
    await checkSecurity(live.op, { method: 'DELETE', path: `/coverage/enablements/${en.body.enablementId}`, otherStatus: 404, adminOnly: true });
    expect((await del(`/coverage/enablements/${en.body.enablementId}`, undefined, k)).status).toBe(200);
    expectError(await del(`/coverage/enablements/${en.body.enablementId}`, undefined, k), 404);
    expect((await quote({ ...live } as any)).body).toEqual({ data: [], unavailable: [] });
  });
});
