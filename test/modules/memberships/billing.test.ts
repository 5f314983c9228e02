/**
 * Membership billing: proration figures against hand-computed cents (price change, monthly to
 * yearly mid-period, date change), free periods, refunds and receipts, renewals on the cron (two
 * runs in parallel charge once) and the dunning schedule of a declined renewal.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { advanceClock, createOperator, expectError, get, post, runCron, type Operator } from '../../harness';
import { ISO_TIMESTAMP } from '../../../src/lib/local-time';
import { act, DAY, events, getM, invoices, mails, makeMembership, makeTier, payments, row, setPeriod } from './factories';

let op: Operator;
let tierId: string;
beforeAll(async () => {
  op = await createOperator();
  tierId = (await makeTier(op, { pricing: { monthly: 3000, yearly: 30000 } })).tierId;
});

const lineFigures = (inv: any) => inv.lines.map((l: any) => [l.kind, l.amount, l.proration?.days, l.proration?.periodDays, l.proration?.rate]);

describe('proration (whole days, cents)', () => {
  it('change-price 3000 -> 4500 ten days into a 30-day period: -2000 + 3000 = 1000 charged now', async () => {
    const m = await makeMembership(op, tierId);
    const p = await setPeriod(m.membershipId, 10, 30);
    const r = await act(op, m.membershipId, 'billing/change-price', { newPrice: 4500, proRate: true, reason: 'upgrade' });
    expect(r.status, r.text).toBe(200);
    expect(lineFigures(r.body.invoice)).toEqual([
      ['proration_credit', -2000, 20, 30, 3000],
      ['proration_charge', 3000, 20, 30, 4500],
    ]);
    expect(r.body.invoice.lines[0].proration.formula).toBe('-round(3000 × 20 / 30) = -2000');
    expect(r.body.invoice.lines[1].proration.formula).toBe('round(4500 × 20 / 30) = 3000');
    expect(r.body.invoice).toMatchObject({ kind: 'proration', status: 'paid', total: 1000, amountPaid: 1000, reason: 'upgrade' });
    expect(r.body.invoice.payments).toHaveLength(1);
    expect(r.body.invoice.payments[0]).toMatchObject({ kind: 'charge', status: 'succeeded', amount: 1000 });
    expect(r.body.membership).toMatchObject({ price: 4500, currentPeriodEnd: p.end });
    const completed = (await events(op.customerId, 'payment.completed')).filter((e) => e.data.membershipId === m.membershipId);
    expect(completed.map((e) => [e.data.kind, e.data.amountCents])).toEqual([
      ['membership', 3000],
      ['membership_proration', 1000],
    ]);
  });

  it('change-price without proRate applies from the next renewal and invoices nothing', async () => {
    const m = await makeMembership(op, tierId);
    const r = await act(op, m.membershipId, 'billing/change-price', { newPrice: 2000 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.invoice).toBeNull();
    expect(r.body.membership.price).toBe(2000);
    expect(await invoices(m.membershipId)).toHaveLength(1);
  });

  it('monthly -> yearly 7 days into a 31-day period: -round(3000 × 24 / 31) = -2323, + 30000 for the new year: 27677', async () => {
    const m = await makeMembership(op, tierId);
    await setPeriod(m.membershipId, 7, 31);
    const r = await act(op, m.membershipId, 'billing/switch-cycle', { newBillingCycle: 'yearly', proRate: true });
    expect(r.status, r.text).toBe(200);
    const [credit, charge] = r.body.invoice.lines;
    expect([credit.kind, credit.amount, credit.proration.days, credit.proration.periodDays, credit.proration.rate]).toEqual([
      'proration_credit',
      -2323,
      24,
      31,
      3000,
    ]);
    expect(charge.kind).toBe('proration_charge');
    expect(charge.amount).toBe(30000);
    expect([365, 366]).toContain(charge.proration.days);
    expect(charge.proration.days).toBe(charge.proration.periodDays);
    expect(r.body.invoice.total).toBe(27677);
    expect(r.body.invoice.amountPaid).toBe(27677);
    const mm = r.body.membership;
    expect(mm).toMatchObject({ billingCycle: 'yearly', price: 30000 });
    expect(Date.parse(mm.currentPeriodEnd) - Date.parse(mm.currentPeriodStart)).toBe(charge.proration.days * DAY);
    expect(Math.abs(Date.parse(mm.currentPeriodStart) - Date.now())).toBeLessThan(60_000);
  });

  it('switch-cycle without proRate keeps the period and bills the new cycle at the next renewal', async () => {
    const m = await makeMembership(op, tierId);
    const r = await act(op, m.membershipId, 'billing/switch-cycle', { newBillingCycle: 'yearly' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.invoice).toBeNull();
    expect(r.body.membership).toMatchObject({ billingCycle: 'yearly', price: 30000, currentPeriodEnd: m.currentPeriodEnd });
    expectError(await act(op, m.membershipId, 'billing/switch-cycle', { newBillingCycle: 'yearly' }), 400, 'bad_request');
    await runCron('*/5 * * * *', new Date(Date.parse(m.currentPeriodEnd) + 60_000));
    const after = (await getM(op, m.membershipId)).body;
    expect(after.currentPeriodStart).toBe(m.currentPeriodEnd);
    const days = (Date.parse(after.currentPeriodEnd) - Date.parse(after.currentPeriodStart)) / DAY;
    expect([365, 366]).toContain(days);
    const renewal = (await payments(m.membershipId)).at(-1);
    expect(renewal).toMatchObject({ kind: 'charge', status: 'succeeded', amount: 30000 });
  });

  it('change-date 25 days out, ten days into a 30-day period: -2000 + round(3000 × 25 / 30) = 500 charged; earlier date: 1500 credited', async () => {
    const m = await makeMembership(op, tierId);
    await setPeriod(m.membershipId, 10, 30);
    const later = new Date(Date.now() + 25 * DAY).toISOString();
    const r = await act(op, m.membershipId, 'billing/change-date', { newBillingDate: later, proRate: true });
    expect(r.status, r.text).toBe(200);
    expect(lineFigures(r.body.invoice)).toEqual([
      ['proration_credit', -2000, 20, 30, 3000],
      ['proration_charge', 2500, 25, 30, 3000],
    ]);
    expect(r.body.invoice).toMatchObject({ total: 500, amountPaid: 500, status: 'paid' });
    expect(r.body.membership).toMatchObject({ currentPeriodEnd: later, nextBillingDate: later });

    const m2 = await makeMembership(op, tierId);
    await setPeriod(m2.membershipId, 10, 30);
    const sooner = new Date(Date.now() + 5 * DAY).toISOString();
    const r2 = await act(op, m2.membershipId, 'billing/change-date', { newBillingDate: sooner, proRate: true });
    expect(r2.status, r2.text).toBe(200);
    expect(lineFigures(r2.body.invoice)).toEqual([
      ['proration_credit', -2000, 20, 30, 3000],
      ['proration_charge', 500, 5, 30, 3000],
    ]);
    expect(r2.body.invoice).toMatchObject({ total: -1500, amountPaid: 0, status: 'credited' });
    expect(r2.body.membership.creditBalance).toBe(1500);
    const credits = await get(`/memberships/${m2.membershipId}/credits?customerId=${op.customerId}`, { key: op.adminKey });
    expect(credits.body.history[0]).toMatchObject({ kind: 'proration', amount: 1500, balanceAfter: 1500, reference: r2.body.invoice.invoiceId });

    expectError(await act(op, m2.membershipId, 'billing/change-date', { newBillingDate: '2020-01-01' }), 400, 'bad_request');
    const plain = await act(op, m2.membershipId, 'billing/change-date', { newBillingDate: later });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.invoice).toBeNull();
    expect(plain.body.membership.currentPeriodEnd).toBe(later);
  });

  it('a declined proration charge answers 400 payment_declined and changes nothing', async () => {
    const m = await makeMembership(op, tierId);
    await setPeriod(m.membershipId, 10, 30);
    await env.DB.prepare('UPDATE memberships SET payment_method_id = ? WHERE id = ?').bind('pm_card_chargeDeclined', m.membershipId).run();
    const r = await act(op, m.membershipId, 'billing/change-price', { newPrice: 9000, proRate: true });
    expectError(r, 400, 'payment_declined');
    expect((await row(m.membershipId)).price).toBe(3000);
    expect(await invoices(m.membershipId)).toHaveLength(1);
  });

  it('add-free-month extends the period by one cycle with a 0 invoice and no charge', async () => {
    const m = await makeMembership(op, tierId);
    const r = await act(op, m.membershipId, 'billing/add-free-month', { reason: 'apology' });
    expect(r.status, r.text).toBe(200);
    const end = new Date(m.currentPeriodEnd);
    const months =
      (new Date(r.body.membership.currentPeriodEnd).getUTCFullYear() - end.getUTCFullYear()) * 12 +
      new Date(r.body.membership.currentPeriodEnd).getUTCMonth() -
      end.getUTCMonth();
    expect(months).toBe(1);
    expect(r.body.membership.nextBillingDate).toBe(r.body.membership.currentPeriodEnd);
    expect(r.body.invoice).toMatchObject({ kind: 'free_period', total: 0, amountPaid: 0, periodStart: m.currentPeriodEnd, reason: 'apology' });
    expect(await payments(m.membershipId)).toHaveLength(1);
  });
});

describe('invoices, refunds and receipts', () => {
  it('lists invoices with lines and payments and the billing history', async () => {
    const m = await makeMembership(op, tierId);
    await act(op, m.membershipId, 'billing/add-free-month');
    const r = await get(`/memberships/${m.membershipId}/invoices?customerId=${op.customerId}&limit=10`, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((i: any) => i.kind)).toEqual(['free_period', 'initial']);
    expect(r.body.data[1].payments[0]).toMatchObject({ kind: 'charge', status: 'succeeded', amount: 3000 });
    expect(r.body.history.map((h: any) => h.type)).toEqual(['free_period_added', 'created']);
  });

  it('refunds part of an invoice, never more than paid (also in parallel), and fires payment.refunded', async () => {
    const m = await makeMembership(op, tierId);
    const inv = (await invoices(m.membershipId))[0];
    const r1 = await act(op, m.membershipId, 'refund', { invoiceId: inv.id, amount: 1000, reason: 'goodwill' });
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.refund).toMatchObject({ amount: 1000, status: 'succeeded' });
    expect(r1.body.invoice).toMatchObject({ amountPaid: 3000, amountRefunded: 1000 });
    expect(r1.body.invoice.payments.map((p: any) => [p.kind, p.amount])).toEqual([
      ['charge', 3000],
      ['refund', 1000],
    ]);
    expectError(await act(op, m.membershipId, 'refund', { invoiceId: inv.id, amount: 2500 }), 400, 'refund_exceeds_payment');
    const racing = await Promise.all([0, 1, 2].map(() => act(op, m.membershipId, 'refund', { invoiceId: inv.id, amount: 1000 })));
    expect(racing.map((x) => x.status).sort()).toEqual([200, 200, 400]);
    const after = (await invoices(m.membershipId))[0];
    expect(after.amount_refunded).toBe(3000);
    expectError(await act(op, m.membershipId, 'refund', { invoiceId: inv.id }), 400, 'refund_exceeds_payment');
    const refunded = (await events(op.customerId, 'payment.refunded')).filter((e) => e.data.membershipId === m.membershipId);
    expect(refunded.map((e) => e.data.amountCents)).toEqual([1000, 1000, 1000]);
    expect((await getM(op, m.membershipId)).body.status).toBe('active');
    expectError(await act(op, m.membershipId, 'refund', { invoiceId: 'minv_nope' }), 404, 'not_found');
  });

  it('resends the receipt to the member or another address', async () => {
    const m = await makeMembership(op, tierId);
    const inv = (await invoices(m.membershipId))[0];
    const r = await post(`/memberships/${m.membershipId}/invoices/${inv.id}/resend`, { customerId: op.customerId }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ invoiceId: inv.id, sentTo: m.memberEmail });
    const r2 = await post(
      `/memberships/${m.membershipId}/invoices/${inv.id}/resend`,
      { customerId: op.customerId, email: 'accounts@firm.test' },
      { key: op.adminKey },
    );
    expect(r2.body.sentTo).toBe('accounts@firm.test');
    const sent = (await mails(op.customerId, 'membership.receipt')).filter((x: any) => JSON.parse(x.metadata).invoiceId === inv.id);
    expect(sent.map((x: any) => x.to)).toEqual([m.memberEmail, 'accounts@firm.test']);
    expect(sent[0].body).toContain('30.00 USD');
  });
});

describe('renewals on the cron', () => {
  it('renews a due membership once, even when two runs overlap', async () => {
    const t = await makeTier(op, { name: 'Credits', benefits: { creditsPerPeriod: 250 } });
    const m = await makeMembership(op, t.tierId);
    const p = await setPeriod(m.membershipId, 31, 30);
    const now = new Date();
    await Promise.all([runCron('*/5 * * * *', now), runCron('*/5 * * * *', now), runCron('*/5 * * * *', now)]);
    const pays = await payments(m.membershipId);
    expect(pays.map((x: any) => [x.kind, x.status, x.amount])).toEqual([
      ['charge', 'succeeded', 3000],
      ['charge', 'succeeded', 3000],
    ]);
    const invs = await invoices(m.membershipId);
    expect(invs.map((i: any) => [i.kind, i.status, i.period_start])).toEqual([
      ['initial', 'paid', expect.any(String)],
      ['renewal', 'paid', p.end],
    ]);
    const after = (await getM(op, m.membershipId)).body;
    expect(after.currentPeriodStart).toBe(p.end);
    expect(after.nextBillingDate).toBe(after.currentPeriodEnd);
    expect(after.creditBalance).toBe(500);
    await runCron('*/5 * * * *', now);
    expect(await payments(m.membershipId)).toHaveLength(2);
    const renewals = (await events(op.customerId, 'payment.completed')).filter(
      (e) => e.data.membershipId === m.membershipId && e.data.kind === 'membership_renewal',
    );
    expect(renewals).toHaveLength(1);
    expect((await mails(op.customerId, 'membership.receipt')).filter((x: any) => JSON.parse(x.metadata).membershipId === m.membershipId)).toHaveLength(1);
  });

  it('a declined renewal is retried 1, 3 and 5 days after the due date, then the membership is past due; a new card pays it', async () => {
    const m = await makeMembership(op, tierId);
    const p = await setPeriod(m.membershipId, 30.05, 30);
    const due = Date.parse(p.end);
    await env.DB.prepare('UPDATE memberships SET payment_method_id = ? WHERE id = ?').bind('pm_card_chargeDeclined', m.membershipId).run();
    const failed = async () => (await payments(m.membershipId)).filter((x: any) => x.status === 'failed');

    await runCron('*/5 * * * *', new Date());
    let mm = (await getM(op, m.membershipId)).body;
    expect(mm.status).toBe('active');
    expect(mm.dunning).toMatchObject({ attempts: 1, nextAttemptAt: new Date(due + DAY).toISOString() });
    expect(await failed()).toHaveLength(1);
    const open = (await invoices(m.membershipId)).at(-1);
    expect(open).toMatchObject({ kind: 'renewal', status: 'open', attempts: 1 });
    expect((await mails(op.customerId, 'membership.payment_failed')).filter((x: any) => x.to === m.memberEmail)).toHaveLength(1);

    await runCron('*/5 * * * *', new Date(due + 12 * 3_600_000));
    expect(await failed()).toHaveLength(1);
    await runCron('*/5 * * * *', new Date(due + DAY + 60_000));
    expect(await failed()).toHaveLength(2);
    expect((await getM(op, m.membershipId)).body.dunning.nextAttemptAt).toBe(new Date(due + 3 * DAY).toISOString());
    await runCron('*/5 * * * *', new Date(due + 2 * DAY));
    expect(await failed()).toHaveLength(2);
    await runCron('*/5 * * * *', new Date(due + 3 * DAY + 60_000));
    expect(await failed()).toHaveLength(3);
    expect((await getM(op, m.membershipId)).body).toMatchObject({
      status: 'active',
      dunning: { attempts: 3, nextAttemptAt: new Date(due + 5 * DAY).toISOString() },
    });
    await runCron('*/5 * * * *', new Date(due + 5 * DAY + 60_000));
    expect(await failed()).toHaveLength(4);
    mm = (await getM(op, m.membershipId)).body;
    expect(mm.status).toBe('past_due');
    expect(mm.dunning).toMatchObject({ attempts: 4, nextAttemptAt: null });
    expect(mm.dunning.pastDueSince).toBeTruthy();
    expect((await mails(op.customerId, 'membership.past_due')).filter((x: any) => x.to === m.memberEmail)).toHaveLength(1);
    await runCron('*/5 * * * *', new Date(due + 30 * DAY));
    expect(await failed()).toHaveLength(4);
    expect((await invoices(m.membershipId)).filter((i: any) => i.kind === 'renewal')).toHaveLength(1);

    // Still declining: 400, stays past due. A good card: paid, active again with a period starting now.
    expectError(await act(op, m.membershipId, 'reactivate'), 400, 'payment_declined');
    expect((await getM(op, m.membershipId)).body.status).toBe('past_due');
    const ok = await act(op, m.membershipId, 'reactivate', { paymentMethodId: 'pm_card_visa' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'active', dunning: null });
    expect(Math.abs(Date.parse(ok.body.currentPeriodStart) - Date.now())).toBeLessThan(60_000);
    const paid = (await invoices(m.membershipId)).find((i: any) => i.id === open.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 3000, attempts: 6 });
  });
});

// ------------------------------------------------------------------------------------------------
// On a sandbox test clock: billing runs at its own dates as the clock advances (the README's worked example).

describe('on a test clock', () => {
  const T0 = '2027-01-14T15:00:00.000Z'; // Thu 14 Jan 2027, 10:00 in New York
  const sent = async (customerId: string, templates: string[]) =>
    (
      await env.DB.prepare(
        `SELECT template, subject, body, created_at FROM message_outbox WHERE customer_id = ? AND template IN (${templates.map(() => '?').join(',')}) ORDER BY created_at, id`,
      )
        .bind(customerId, ...templates)
        .all<any>()
    ).results;

  it('three months of a monthly membership: three renewals on their dates; then a declined card: dunning e-mails and the pause, in time order', async () => {
    const clocked = await createOperator({ clockAt: T0 });
    const t = (await makeTier(clocked, { pricing: { monthly: 3000, yearly: 30000 } })).tierId;
    const m = await makeMembership(clocked, t);
    expect(m).toMatchObject({ currentPeriodStart: T0, currentPeriodEnd: '2027-02-14T15:00:00.000Z' });
    const [welcome] = await sent(clocked.customerId, ['membership.welcome']);
    expect(welcome.body).toContain('active until Sun 14 Feb 2027');

    // Three months on: exactly three renewals, each charged at its due instant.
    expect(await advanceClock(clocked.clockId!, '2027-04-14T16:00:00.000Z', clocked.adminKey, 170_000)).toMatchObject({ status: 'ready' });
    const months = ['2027-02-14T15:00:00.000Z', '2027-03-14T15:00:00.000Z', '2027-04-14T15:00:00.000Z'];
    expect((await invoices(m.membershipId)).map((i) => [i.kind, i.status, i.total, i.period_start, i.paid_at])).toEqual([
      ['initial', 'paid', 3000, T0, T0],
      ...months.map((at) => ['renewal', 'paid', 3000, at, at]),
    ]);
    const receipts = await sent(clocked.customerId, ['membership.receipt']);
    expect(receipts.map((r) => r.created_at)).toEqual(months);
    expect(receipts[0].body).toContain('for the period Sun 14 Feb 2027 to Sun 14 Mar 2027');
    expect((await getM(clocked, m.membershipId)).body).toMatchObject({ status: 'active', currentPeriodEnd: '2027-05-14T15:00:00.000Z' });

    // From now on the card is declined: the renewal of 14 May fails and is retried 1, 3 and 5 days later; the fourth
    // failure makes the membership past due (its benefits paused). Each e-mail goes at its attempt, in time order.
    await env.DB.prepare('UPDATE memberships SET payment_method_id = ? WHERE id = ?').bind('pm_card_chargeDeclined', m.membershipId).run();
    expect(await advanceClock(clocked.clockId!, '2027-05-20T12:00:00.000Z', clocked.adminKey, 170_000)).toMatchObject({ status: 'ready' });
    const dunning = await sent(clocked.customerId, ['membership.payment_failed', 'membership.past_due']);
    expect(dunning.map((d) => [d.template, d.created_at])).toEqual([
      ['membership.payment_failed', '2027-05-14T15:00:00.000Z'],
      ['membership.payment_failed', '2027-05-15T15:00:00.000Z'],
      ['membership.payment_failed', '2027-05-17T15:00:00.000Z'],
      ['membership.past_due', '2027-05-19T15:00:00.000Z'],
    ]);
    expect(dunning.map((d) => /We will try again on ([^.]+)\./.exec(d.body)?.[1] ?? null)).toEqual([
      'Sat 15 May 2027',
      'Mon 17 May 2027',
      'Wed 19 May 2027',
      null,
    ]);
    for (const d of [welcome, ...receipts, ...dunning]) expect(`${d.subject} ${d.body}`).not.toMatch(ISO_TIMESTAMP);
    expect((await getM(clocked, m.membershipId)).body).toMatchObject({ status: 'past_due' });
    const charges = (await payments(m.membershipId)).filter((p) => p.kind === 'charge');
    expect(charges.map((p) => p.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded', 'failed', 'failed', 'failed', 'failed']);
    expect((await invoices(m.membershipId)).filter((i) => i.kind === 'renewal')).toHaveLength(4);
  }, 400_000);
});
