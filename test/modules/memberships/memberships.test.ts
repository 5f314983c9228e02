/**
 * Memberships: selling (claim, first charge, decline, races), reads, tiers, and the state table
 * of the spec row by row (cancel now / at period end, reactivate, pause with policy and staff
 * force, resume moving the renewal, auto-resume).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { appHooks, createOperator, del, expectError, get, patch, post, runCron, type Operator } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { fixedClock, withClock } from '../../../src/lib/clock';
import { systemCtx } from '../../../src/lib/context';
import { formatLocalDay, ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { autoResume, nextBillingDue, runMembershipBilling } from '../../../src/modules/memberships/service';
import { act, DAY, email, events, getM, invoices, mails, makeMembership, makeRenter, makeTier, payments, row, setPeriod } from './factories';

let op: Operator;
beforeAll(async () => {
  op = await createOperator();
});

describe('tiers', () => {
  it('creates, lists, reads, updates and deletes a tier; a tier in use cannot be deleted', async () => {
    const t = await makeTier(op, { name: 'Silver', benefits: { discountPercentage: 10 }, displayOrder: 2, pausePolicy: { enabled: true } });
    expect(t).toMatchObject({
      name: 'Silver',
      scope: 'all_locations',
      pricing: { monthly: 3000, yearly: 30000, currency: 'usd' },
      benefits: { discountPercentage: 10, creditsPerPeriod: 0, perks: [] },
      pausePolicy: { enabled: true, maxPausesPerYear: 1, maxPauseDays: 90 },
      familyOptions: { enabled: false, maxMembers: 4 },
      allowedMemberTypes: ['individual'],
      isActive: true,
    });
    const list = await get(`/memberships/tiers?customerId=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data.map((x: any) => x.tierId)).toContain(t.tierId);
    const upd = await patch(
      `/memberships/tiers/${t.tierId}`,
      { customerId: op.customerId, isActive: false, benefits: { perks: ['Free coffee'] } },
      { key: op.adminKey },
    );
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.benefits).toMatchObject({ discountPercentage: 10, perks: ['Free coffee'] });
    const active = await get(`/memberships/tiers?customerId=${op.customerId}&activeOnly=true`, { key: op.adminKey });
    expect(active.body.data.map((x: any) => x.tierId)).not.toContain(t.tierId);
    expectError(await patch(`/memberships/tiers/${t.tierId}`, { customerId: op.customerId }, { key: op.adminKey }), 400, 'no_changes');
    expectError(await post('/memberships/tiers', { customerId: op.customerId, name: 'X', scope: 'selected_locations' }, { key: op.adminKey }), 400);

    const used = await makeTier(op, { name: 'Used' });
    const m = await makeMembership(op, used.tierId);
    expectError(await del(`/memberships/tiers/${used.tierId}?customerId=${op.customerId}`, undefined, { key: op.adminKey }), 400, 'tier_in_use');
    expect((await act(op, m.membershipId, 'cancel', { cancelImmediately: true })).status).toBe(200);
    const gone = await del(`/memberships/tiers/${used.tierId}?customerId=${op.customerId}`, undefined, { key: op.adminKey });
    expect(gone.status, gone.text).toBe(200);
    expectError(await get(`/memberships/tiers/${used.tierId}?customerId=${op.customerId}`, { key: op.adminKey }), 404, 'not_found');
    // The canceled membership keeps its tier in its history.
    expect((await getM(op, m.membershipId)).body.tier.tierId).toBe(used.tierId);
  });
});

describe('create', () => {
  it('charges the first period, writes the invoice and fires payment.completed and customer.created', async () => {
    const t = await makeTier(op, { benefits: { creditsPerPeriod: 500 } });
    const mail = email();
    const r = await post(
      '/memberships',
      {
        customerId: op.customerId,
        tierId: t.tierId,
        memberEmail: mail,
        createRenter: true,
        firstName: 'Nia',
        lastName: 'New',
        paymentMethodId: 'pm_card_visa',
        notes: 'front desk',
      },
      { key: op.adminKey },
    );
    expect(r.status, r.text).toBe(201);
    const m = r.body;
    expect(m).toMatchObject({
      status: 'active',
      billingCycle: 'monthly',
      price: 3000,
      memberEmail: mail,
      customerCreated: true,
      creditBalance: 500,
      cancelAtPeriodEnd: false,
    });
    expect(m.renterId).toMatch(/^rnt_/);
    expect(m.memberId).toBe(m.renterId);
    const start = Date.parse(m.currentPeriodStart);
    const end = Date.parse(m.currentPeriodEnd);
    expect(end - start).toBeGreaterThanOrEqual(28 * DAY);
    expect(end - start).toBeLessThanOrEqual(31 * DAY);
    expect(m.nextBillingDate).toBe(m.currentPeriodEnd);
    const inv = await invoices(m.membershipId);
    expect(inv).toHaveLength(1);
    expect(inv[0]).toMatchObject({ kind: 'initial', status: 'paid', total: 3000, amount_paid: 3000 });
    const pays = await payments(m.membershipId);
    expect(pays).toHaveLength(1);
    expect(pays[0]).toMatchObject({ kind: 'charge', status: 'succeeded', amount: 3000 });
    const completed = (await events(op.customerId, 'payment.completed')).filter((e) => e.data.membershipId === m.membershipId);
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ amount: 30, amountCents: 3000, kind: 'membership', paymentIntentId: pays[0].payment_intent_id });
    const created = (await events(op.customerId, 'customer.created')).filter((e) => e.data.email === mail);
    expect(created).toHaveLength(1);
    expect((await mails(op.customerId, 'membership.welcome')).some((x: any) => x.to === mail)).toBe(true);

    const detail = await getM(op, m.membershipId);
    expect(detail.status).toBe(200);
    expect(detail.body.tier).toMatchObject({ tierId: t.tierId, name: 'Gold' });
    expect(detail.body.renter).toMatchObject({ renterId: m.renterId, firstName: 'Nia', lastName: 'New', email: mail });
  });

  it('answers 404 for an unknown tier, 400 without customerId, 403 for another operator, 400 without a renter', async () => {
    const body = {
      customerId: op.customerId,
      tierId: 'mtr_nope',
      memberEmail: email(),
      createRenter: true,
      firstName: 'A',
      lastName: 'B',
      paymentMethodId: 'pm_card_visa',
    };
    expectError(await post('/memberships', body, { key: op.adminKey }), 404, 'not_found');
    const { customerId: _c, ...noCustomer } = body;
    expectError(await post('/memberships', noCustomer, { key: op.adminKey }), 400, 'validation_failed');
    const other = await createOperator();
    expectError(await post('/memberships', body, { key: other.adminKey }), 403, 'forbidden');
    const t = await makeTier(op);
    expectError(
      await post('/memberships', { customerId: op.customerId, tierId: t.tierId, memberEmail: email(), paymentMethodId: 'pm_card_visa' }, { key: op.adminKey }),
      400,
      'renter_required',
    );
    const noCard = await makeRenter(op);
    expectError(
      await post('/memberships', { customerId: op.customerId, tierId: t.tierId, memberEmail: noCard.email }, { key: op.adminKey }),
      400,
      'payment_method_required',
    );
    expectError(await post('/memberships', { ...body, tierId: t.tierId, billingCycle: 'yearly', memberType: 'family' }, { key: op.adminKey }), 400);
  });

  it('a declined first charge answers 400 payment_declined and writes nothing', async () => {
    const t = await makeTier(op);
    const mail = email('declined');
    const r = await post(
      '/memberships',
      {
        customerId: op.customerId,
        tierId: t.tierId,
        memberEmail: mail,
        createRenter: true,
        firstName: 'Dee',
        lastName: 'Clined',
        paymentMethodId: 'pm_card_chargeDeclined',
      },
      { key: op.adminKey },
    );
    expectError(r, 400, 'payment_declined');
    expect(r.body.declineCode).toBe('card_declined');
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM memberships WHERE member_email = ?').bind(mail).first<any>();
    expect(rows.n).toBe(0);
    const renters = await env.DB.prepare('SELECT count(*) AS n FROM renters WHERE email = ?').bind(mail).first<any>();
    expect(renters.n).toBe(0);
    expect((await events(op.customerId, 'customer.created')).some((e) => e.data.email === mail)).toBe(false);
  });

  it('one live membership per member: a second create is 400, two racing creates give one 201 and one 400 and one charge', async () => {
    const t = await makeTier(op);
    const renter = await makeRenter(op);
    const body = { customerId: op.customerId, tierId: t.tierId, memberEmail: renter.email, paymentMethodId: 'pm_card_visa' };
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => post('/memberships', body, { key: op.adminKey })));
    const statuses = [a, b, c].map((x) => x.status).sort();
    expect(statuses, [a, b, c].map((x) => x.text).join('\n')).toEqual([201, 400, 400]);
    for (const x of [a, b, c].filter((y) => y.status === 400)) expect(x.body.error).toBe('already_member');
    const live = await env.DB.prepare("SELECT id FROM memberships WHERE renter_id = ? AND status != 'canceled'").bind(renter.id).all<any>();
    expect(live.results).toHaveLength(1);
    const charges = await env.DB.prepare(
      "SELECT count(*) AS n FROM membership_payments p JOIN memberships m ON m.id = p.membership_id WHERE m.renter_id = ? AND p.kind = 'charge'",
    )
      .bind(renter.id)
      .first<any>();
    expect(charges.n).toBe(1);
    expectError(await post('/memberships', body, { key: op.adminKey }), 400, 'already_member');
  });

  it('lists with status and tier filters and page/limit', async () => {
    const t = await makeTier(op, { name: 'Listed' });
    const ms = [];
    for (let i = 0; i < 3; i++) ms.push(await makeMembership(op, t.tierId));
    await act(op, ms[0].membershipId, 'cancel', { cancelImmediately: true });
    const all = await get(`/memberships?customerId=${op.customerId}&tierId=${t.tierId}&limit=2&page=1`, { key: op.adminKey });
    expect(all.status, all.text).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(all.body.data).toHaveLength(2);
    const canceled = await get(`/memberships?customerId=${op.customerId}&tierId=${t.tierId}&status=canceled`, { key: op.adminKey });
    expect(canceled.body.data.map((x: any) => x.membershipId)).toEqual([ms[0].membershipId]);
    expectError(await get(`/memberships?customerId=${op.customerId}&status=weird`, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await get(`/memberships`, { key: op.adminKey }), 400, 'validation_failed');
  });
});

describe('state table', () => {
  it('cancel with cancelImmediately: canceled now; again: 400', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    const r = await act(op, m.membershipId, 'cancel', { cancelImmediately: true });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false, nextBillingDate: null });
    expect(r.body.canceledAt).toBeTruthy();
    expectError(await act(op, m.membershipId, 'cancel', { cancelImmediately: true }), 400, 'membership_state');
  });

  it('cancel without the flag: scheduled for the period end, still active, ended by the billing job', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    const r = await act(op, m.membershipId, 'cancel', {});
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, nextBillingDate: null });
    const again = await act(op, m.membershipId, 'cancel', {});
    expect(again.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    await runCron('*/5 * * * *', new Date(Date.parse(m.currentPeriodEnd) + 60_000));
    const after = await getM(op, m.membershipId);
    expect(after.body).toMatchObject({ status: 'canceled', canceledAt: m.currentPeriodEnd });
    expect(await payments(m.membershipId)).toHaveLength(1); // never renewed
  });

  it('reactivate: 400 without customerId; a scheduled cancellation is un-scheduled; a canceled membership starts a new paid period', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    expectError(await post(`/memberships/${m.membershipId}/reactivate`, {}, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await act(op, m.membershipId, 'reactivate'), 400, 'membership_state');
    await act(op, m.membershipId, 'cancel', {});
    const un = await act(op, m.membershipId, 'reactivate');
    expect(un.status, un.text).toBe(200);
    expect(un.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: m.currentPeriodEnd });
    expect(await payments(m.membershipId)).toHaveLength(1);

    await act(op, m.membershipId, 'cancel', { cancelImmediately: true });
    const re = await act(op, m.membershipId, 'reactivate');
    expect(re.status, re.text).toBe(200);
    expect(re.body).toMatchObject({ status: 'active', canceledAt: null });
    const pays = await payments(m.membershipId);
    expect(pays.map((p: any) => [p.kind, p.status, p.amount])).toEqual([
      ['charge', 'succeeded', 3000],
      ['charge', 'succeeded', 3000],
    ]);
    expect((await invoices(m.membershipId)).map((i: any) => i.kind)).toEqual(['initial', 'reactivation']);
  });

  it('reactivate is refused while the member has another live membership', async () => {
    const t = await makeTier(op);
    const renter = await makeRenter(op);
    const first = await makeMembership(op, t.tierId, { memberEmail: renter.email, createRenter: false });
    await act(op, first.membershipId, 'cancel', { cancelImmediately: true });
    await makeMembership(op, t.tierId, { memberEmail: renter.email, createRenter: false });
    expectError(await act(op, first.membershipId, 'reactivate'), 400, 'already_member');
    expect((await getM(op, first.membershipId)).body.status).toBe('canceled');
  });

  it('pause: 400 when the policy is disabled; allowed once a year; staff force overrides; force is staff-only', async () => {
    const closed = await makeTier(op, { name: 'No pause' });
    const m1 = await makeMembership(op, closed.tierId);
    expectError(await act(op, m1.membershipId, 'pause'), 400, 'pause_not_allowed');
    const manager = await op.addUser({ role: 'manager' });
    const frontDesk = await op.addUser({ role: 'staff', permissions: ['memberships'] });
    expectError(await act(op, m1.membershipId, 'pause', { force: true }, frontDesk.key), 403, 'forbidden');
    const forced = await act(op, m1.membershipId, 'pause', { force: true }, manager.key);
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body).toMatchObject({ status: 'paused', resumeAt: null, nextBillingDate: null });

    const open = await makeTier(op, { name: 'Pausable', pausePolicy: { enabled: true, maxPausesPerYear: 1, maxPauseDays: 30 } });
    const m2 = await makeMembership(op, open.tierId);
    expectError(await act(op, m2.membershipId, 'pause', { resumeAt: new Date(Date.now() + 45 * DAY).toISOString() }), 400, 'pause_not_allowed');
    expectError(await act(op, m2.membershipId, 'pause', { resumeAt: '2001-01-01' }), 400, 'bad_request');
    const p = await act(op, m2.membershipId, 'pause', {}, frontDesk.key);
    expect(p.status, p.text).toBe(200);
    expect(Date.parse(p.body.resumeAt) - Date.now()).toBeGreaterThan(29 * DAY);
    expectError(await act(op, m2.membershipId, 'pause'), 400, 'membership_state');
    expect((await act(op, m2.membershipId, 'resume')).status).toBe(200);
    expectError(await act(op, m2.membershipId, 'pause'), 400, 'pause_not_allowed');
    const again = await act(op, m2.membershipId, 'pause', { force: true }, op.adminKey);
    expect(again.status, again.text).toBe(200);
  });

  it('resume: 400 when not paused; moves the period end by the whole days paused', async () => {
    const t = await makeTier(op, { pausePolicy: { enabled: true } });
    const m = await makeMembership(op, t.tierId);
    expectError(await act(op, m.membershipId, 'resume'), 400, 'membership_state');
    expect((await act(op, m.membershipId, 'pause')).status).toBe(200);
    await env.DB.prepare('UPDATE memberships SET paused_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 3 * DAY - 60_000).toISOString(), m.membershipId)
      .run();
    const r = await act(op, m.membershipId, 'resume');
    expect(r.status, r.text).toBe(200);
    expect(r.body.status).toBe('active');
    expect(Date.parse(r.body.currentPeriodEnd) - Date.parse(m.currentPeriodEnd)).toBe(3 * DAY);
    expect(r.body.nextBillingDate).toBe(r.body.currentPeriodEnd);
  });

  it('resumeAt resumes automatically on the billing job, with the renewal moved by the days paused', async () => {
    const t = await makeTier(op, { pausePolicy: { enabled: true, maxPauseDays: 60 } });
    const m = await makeMembership(op, t.tierId);
    const resumeAt = new Date(Date.now() + 10 * DAY).toISOString();
    expect((await act(op, m.membershipId, 'pause', { resumeAt })).status).toBe(200);
    await runCron('*/5 * * * *', new Date(Date.now() + 5 * DAY));
    expect((await getM(op, m.membershipId)).body.status).toBe('paused');
    await runCron('*/5 * * * *', new Date(Date.parse(resumeAt) + 60_000));
    const after = (await getM(op, m.membershipId)).body;
    expect(after.status).toBe('active');
    expect(Date.parse(after.currentPeriodEnd) - Date.parse(m.currentPeriodEnd)).toBe(10 * DAY);
    const history = (await get(`/memberships/${m.membershipId}/invoices?customerId=${op.customerId}`, { key: op.adminKey })).body.history;
    expect(history.map((h: any) => h.type)).toEqual(expect.arrayContaining(['created', 'paused', 'resumed']));
    expect(history.find((h: any) => h.type === 'resumed').details).toMatchObject({ daysPaused: 10, via: 'auto' });
  });

  it('paused and canceled memberships cannot take billing changes; a paused one cancels now', async () => {
    const t = await makeTier(op, { pausePolicy: { enabled: true } });
    const m = await makeMembership(op, t.tierId);
    await act(op, m.membershipId, 'pause');
    expectError(await act(op, m.membershipId, 'billing/change-price', { newPrice: 100 }), 400, 'membership_state');
    const c = await act(op, m.membershipId, 'cancel', {});
    expect(c.body.status).toBe('canceled');
    expectError(await act(op, m.membershipId, 'resume'), 400, 'membership_state');
    expectError(await act(op, m.membershipId, 'billing/add-free-month'), 400, 'membership_state');
  });

  it('periods stay on their anchor day', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    await setPeriod(m.membershipId, 5, 30);
    const r = await row(m.membershipId);
    expect(r.billing_anchor_day).toBe(new Date(r.current_period_end).getUTCDate());
  });
});

// ------------------------------------------------------------------------------------------------
// The core time-sensitive path at each pinned clock: a membership sold "now" (the operator's clock),
// its e-mail in local dates, and the billing job renewing it once at its due instant (its nextDue).

describe.each(pinnedClocks())('memberships at $label', ({ timezone, at: now }) => {
  it('sells a period from now, e-mails its local end date, and renews once when the period ends', async () => {
    const clocked = await createOperator({ clockAt: now, timezone });
    const t = (await makeTier(clocked, { pricing: { monthly: 3000 } })).tierId;
    const m = await makeMembership(clocked, t);
    const end = m.currentPeriodEnd as string;
    expect(m.currentPeriodStart).toBe(now);
    const [welcome] = await mails(clocked.customerId, 'membership.welcome');
    expect(welcome.body).toContain(`active until ${formatLocalDay(Date.parse(end), timezone)}`);
    expect(welcome.body).not.toMatch(ISO_TIMESTAMP);

    const jobAt = (ms: number) => systemCtx(env, { customerId: clocked.customerId, hooks: appHooks, clock: fixedClock(ms, clocked.clockId!) });
    expect(await nextBillingDue(jobAt(Date.parse(now)))).toBe(Date.parse(end));
    const early = jobAt(Date.parse(end) - 1);
    expect((await withClock(early.clock, () => runMembershipBilling(early, autoResume))).renewed).toBe(0);
    const due = jobAt(Date.parse(end));
    expect((await withClock(due.clock, () => runMembershipBilling(due, autoResume))).renewed).toBe(1);
    expect((await withClock(due.clock, () => runMembershipBilling(due, autoResume))).renewed).toBe(0);
    expect((await invoices(m.membershipId)).map((i) => [i.kind, i.period_start, i.paid_at])).toEqual([
      ['initial', now, now],
      ['renewal', end, end],
    ]);
  });
});
