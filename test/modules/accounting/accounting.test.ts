/**
 * Accounting through HTTP with the offline provider simulator: OAuth round trip (302 with the
 * status; 400 on a missing or forged state), business, bank account, GL mappings, and the daily
 * journal export: built from the ledger, balanced, idempotent per location and date, sent through
 * the per-operator queue at the provider's pace.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { SELF, env } from 'cloudflare:test';
import { BASE, api, createOperator, db, del, eventually, expectError, get, post, put, runCron, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { acctExports, acctLinks } from '../../../src/db/schema/accounting';
import { newId } from '../../../src/lib/ids';
import { addDays, localDate, wallTimeToUtc } from '../../../src/lib/time';
import { unseal } from '../../../src/lib/sealed';
import { isBalanced, SimulatedAccounting } from '../../../src/adapters/accounting';
import { ProviderError } from '../../../src/adapters/simulators';
import { eq } from 'drizzle-orm';

const sim = new SimulatedAccounting(env);
const raw = (path: string) => SELF.fetch(BASE + path, { redirect: 'manual' });
const MAPPINGS = {
  accounts_receivable: 'simacct_ar',
  sales: 'simacct_sales',
  discounts: 'simacct_discounts',
  sales_tax: 'simacct_tax',
  tips: 'simacct_tips',
  channel_receivable: 'simacct_channel',
  gift_card_liability: 'simacct_giftcards',
  customer_credit: 'simacct_credits',
  deposits: 'simacct_deposits',
};

async function connectAccounting(op: Operator) {
  const c = await get(`/auth/acct/connect?businessId=${op.customerId}`, { key: op.adminKey });
  expect(c.status, c.text).toBe(200);
  const url = new URL(c.body.authorizationUrl);
  const res = await raw(url.pathname + url.search);
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe('http://localhost:5173/settings/integrations?integration=accounting&status=connected');
  return url;
}

async function readyAccounting(op: Operator, mappings: Record<string, string> = MAPPINGS) {
  await connectAccounting(op);
  expect(
    (await put('/acct/select-business', { businessId: op.customerId, acctBusinessId: 'simbiz_main', acctBusinessName: 'Marina Books' }, { key: op.adminKey }))
      .status,
  ).toBe(200);
  expect((await put('/acct/bank-account', { businessId: op.customerId, bankAccountId: 'simacct_checking' }, { key: op.adminKey })).status).toBe(200);
  const m = await put('/acct/gl-mappings', { businessId: op.customerId, glMappings: mappings }, { key: op.adminKey });
  expect(m.status, m.text).toBe(200);
}

const yesterday = (tz: string, back = 1) => addDays(localDate(Date.now(), tz), -back);
const noonOf = (date: string, tz: string) => new Date(wallTimeToUtc(date, '12:00', tz)).toISOString();

async function ledger(
  op: Operator,
  date: string,
  rows: { type: string; amount: number; source?: string; locationId?: string; affectsBalance?: boolean; renterId?: string }[],
) {
  await db().batch(
    rows.map((r) =>
      db()
        .insert(ledgerEntries)
        .values({
          id: newId('led'),
          customerId: op.customerId,
          locationId: r.locationId ?? op.locationId,
          transactionId: 'txn_test',
          rentalId: 'bk_test',
          entryType: r.type,
          amount: r.amount,
          currency: 'usd',
          affectsBalance: r.affectsBalance ?? true,
          occurredAt: noonOf(date, op.timezone),
          description: r.type,
          source: r.source ?? null,
          renterId: r.renterId ?? null,
        }),
    ) as any,
  );
}

describe('accounting: security', () => {
  it('every route refuses anonymous and bad credentials, a foreign businessId (403) and non-admins where it writes', async () => {
    const op = await createOperator();
    const b = op.customerId;
    const routes = [
      { method: 'GET', path: `/auth/acct/connect?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
      { method: 'GET', path: `/acct/integration-status?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
      { method: 'DELETE', path: '/acct/disconnect', body: { businessId: b }, otherStatus: 403 as const, adminOnly: true },
      { method: 'GET', path: `/acct/chart-of-accounts?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
      { method: 'GET', path: `/acct/businesses?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
      {
        method: 'PUT',
        path: '/acct/select-business',
        body: { businessId: b, acctBusinessId: 'x', acctBusinessName: 'x' },
        otherStatus: 403 as const,
        adminOnly: true,
      },
      { method: 'PUT', path: '/acct/bank-account', body: { businessId: b, bankAccountId: 'x' }, otherStatus: 403 as const, adminOnly: true },
      { method: 'GET', path: `/acct/gl-mappings?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
      { method: 'PUT', path: '/acct/gl-mappings', body: { businessId: b, glMappings: {} }, otherStatus: 403 as const, adminOnly: true },
      {
        method: 'POST',
        path: '/acct/journal-exports',
        body: { businessId: b, locationId: op.locationId, date: '2020-01-01' },
        otherStatus: 403 as const,
        adminOnly: true,
      },
      { method: 'GET', path: `/acct/journal-exports?businessId=${b}`, otherStatus: 403 as const, adminOnly: true },
    ];
    for (const rc of routes) await checkSecurity(op, rc);
  });
});

describe('accounting: connection', () => {
  it('OAuth round trip: 302 with the status, 400 on a missing or forged state, tokens sealed; disconnect keeps the GL mappings', async () => {
    const op = await createOperator();
    const c = await get(`/auth/acct/connect?businessId=${op.customerId}`, { key: op.adminKey });
    const url = new URL(c.body.authorizationUrl);
    const state = url.searchParams.get('state')!;
    expectError(await api('GET', `/auth/acct/callback?code=${url.searchParams.get('code')}`), 400);
    expectError(await api('GET', `/auth/acct/callback?code=x&state=${encodeURIComponent(state.slice(0, -2) + 'zz')}`), 400);
    const denied = await raw(`/auth/acct/callback?error=access_denied&state=${encodeURIComponent(state)}`);
    expect(denied.status).toBe(302);
    expect(denied.headers.get('location')).toContain('integration=accounting&status=denied');
    expect((await get(`/acct/integration-status?businessId=${op.customerId}`, { key: op.adminKey })).body.connected).toBe(false);
    const used = await connectAccounting(op);
    // The same code again: the provider refuses it, the user lands on the dashboard with status=error.
    const reused = await raw(used.pathname + used.search);
    expect(reused.headers.get('location')).toContain('status=error');
    const link = (await db().select().from(acctLinks).where(eq(acctLinks.customerId, op.customerId)).get())!;
    expect(link.accessToken!.startsWith('v1.')).toBe(true);
    const token = await unseal(env, link.accessToken!);

    const biz = await get(`/acct/businesses?businessId=${op.customerId}`, { key: op.adminKey });
    expect(biz.body.data.map((b: any) => b.id)).toEqual(['simbiz_main', 'simbiz_holding']);
    expectError(await get(`/acct/chart-of-accounts?businessId=${op.customerId}`, { key: op.adminKey }), 400, 'accounting_not_ready');
    expectError(await put('/acct/select-business', { businessId: op.customerId, acctBusinessId: 'nope', acctBusinessName: 'Nope' }, { key: op.adminKey }), 400);
    await put('/acct/select-business', { businessId: op.customerId, acctBusinessId: 'simbiz_main', acctBusinessName: 'Marina Books' }, { key: op.adminKey });
    const chart = await get(`/acct/chart-of-accounts?businessId=${op.customerId}`, { key: op.adminKey });
    expect(chart.body.data.find((a: any) => a.id === 'simacct_checking')).toMatchObject({ isBank: true, normalBalance: 'DEBIT' });
    expectError(await put('/acct/bank-account', { businessId: op.customerId, bankAccountId: 'simacct_sales' }, { key: op.adminKey }), 400);
    await put('/acct/bank-account', { businessId: op.customerId, bankAccountId: 'simacct_checking' }, { key: op.adminKey });
    expectError(await put('/acct/gl-mappings', { businessId: op.customerId, glMappings: { revenue_typo: 'simacct_sales' } }, { key: op.adminKey }), 400);
    expectError(await put('/acct/gl-mappings', { businessId: op.customerId, glMappings: { sales: 'simacct_nope' } }, { key: op.adminKey }), 400);
    const m = await put('/acct/gl-mappings', { businessId: op.customerId, glMappings: MAPPINGS }, { key: op.adminKey });
    expect(m.body.missing).toEqual([]);
    expect((await get(`/acct/integration-status?businessId=${op.customerId}`, { key: op.adminKey })).body).toMatchObject({
      connected: true,
      acctBusinessId: 'simbiz_main',
      bankAccountId: 'simacct_checking',
      readyToExport: true,
    });

    const off = await del('/acct/disconnect', { businessId: op.customerId }, { key: op.adminKey });
    expect(off.body).toMatchObject({ success: true, revoked: true, glMappingsKept: 9 });
    await expect(sim.businesses(token)).rejects.toBeInstanceOf(ProviderError);
    const after = await get(`/acct/integration-status?businessId=${op.customerId}`, { key: op.adminKey });
    expect(after.body).toMatchObject({ connected: false, acctBusinessId: null, bankAccountId: null, glMappings: MAPPINGS });
    expectError(await get(`/acct/businesses?businessId=${op.customerId}`, { key: op.adminKey }), 400, 'accounting_not_connected');
  });
});

describe('accounting: daily journal export', () => {
  let op: Operator;
  beforeAll(async () => {
    op = await createOperator();
    await readyAccounting(op);
  });

  it('is balanced, mapped, sent once per location and date', async () => {
    const date = yesterday(op.timezone);
    await ledger(op, date, [
      { type: 'revenue', amount: 20000 },
      { type: 'tax', amount: 1400 },
      { type: 'tip', amount: 500 },
      { type: 'discount', amount: -1000 },
      { type: 'payment', amount: -20900, source: 'card' },
      { type: 'refund', amount: 500, source: 'card' },
      { type: 'revenue', amount: 5000 },
      { type: 'payment', amount: -5000, source: 'channel' },
      { type: 'deposit_capture', amount: 3000, affectsBalance: false },
      // A gift card sold at the counter: charged as a liability (not a sale) and paid by its own payment entry.
      { type: 'gift_card_sale', amount: 2500 },
      { type: 'payment', amount: -2500, source: 'cash' },
      { type: 'deposit_hold', amount: 10000, affectsBalance: false },
    ]);
    // Not this location, not this day: left out.
    await ledger(op, yesterday(op.timezone, 2), [{ type: 'revenue', amount: 777 }]);
    const r = await post('/acct/journal-exports', { businessId: op.customerId, locationId: op.locationId, date }, { key: op.adminKey });
    expect(r.status, r.text).toBe(201);
    expect(r.body.created).toBe(true);
    const e = r.body.export;
    expect(e).toMatchObject({ status: 'queued', balanced: true, totalDebit: 324, totalCredit: 324, entryCount: 11 });
    const lines = Object.fromEntries(e.lines.map((l: any) => [l.account, [l.debit, l.credit, l.accountId]]));
    expect(lines).toEqual({
      bank: [259, 0, 'simacct_checking'],
      accounts_receivable: [5, 0, 'simacct_ar'],
      sales: [0, 250, 'simacct_sales'],
      discounts: [10, 0, 'simacct_discounts'],
      sales_tax: [0, 14, 'simacct_tax'],
      tips: [0, 5, 'simacct_tips'],
      channel_receivable: [50, 0, 'simacct_channel'],
      gift_card_liability: [0, 25, 'simacct_giftcards'],
      deposits: [0, 30, 'simacct_deposits'],
    });
    const sent = await eventually(async () => {
      const l = await get(`/acct/journal-exports?businessId=${op.customerId}&date=${date}`, { key: op.adminKey });
      return l.body.data[0]?.status === 'sent' ? l.body.data[0] : null;
    });
    expect(sent).toMatchObject({ exportId: e.exportId, attempts: 1, lastError: null });
    const posted = await sim.journal('simbiz_main', `berth:${op.customerId}:${op.locationId}:${date}`);
    expect(posted?.id).toBe(sent.externalId);
    expect(isBalanced(posted!.lines)).toBe(true);
    expect(posted!.lines.reduce((s, l) => s + l.debit, 0)).toBe(32400);

    // Idempotent: the same location and date answer the same export and send nothing again.
    const again = await post('/acct/journal-exports', { businessId: op.customerId, locationId: op.locationId, date }, { key: op.adminKey });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, export: { exportId: e.exportId, status: 'sent', attempts: 1 } });
    const rows = await db().select().from(acctExports).where(eq(acctExports.customerId, op.customerId)).all();
    expect(rows.filter((x) => x.date === date)).toHaveLength(1);
    // Only finished days; unknown location.
    expectError(
      await post(
        '/acct/journal-exports',
        { businessId: op.customerId, locationId: op.locationId, date: localDate(Date.now(), op.timezone) },
        { key: op.adminKey },
      ),
      400,
    );
    expectError(await post('/acct/journal-exports', { businessId: op.customerId, locationId: 'loc_nope', date }, { key: op.adminKey }), 404);
  });

  it("posts goodwill as a discount, the part moved to the renter's account as credit owed, and a booking paid with that credit against it", async () => {
    const op = await createOperator();
    await readyAccounting(op);
    const date = yesterday(op.timezone);
    const renterId = newId('rnt');
    await ledger(op, date, [
      // A 200.00 booking paid by card, then a 20.00 goodwill credit moved to the renter's account.
      { type: 'revenue', amount: 20000 },
      { type: 'payment', amount: -20000, source: 'card' },
      { type: 'goodwill', amount: -2000, source: 'goodwill', renterId },
      { type: 'credit', amount: 2000, source: 'goodwill', renterId },
      // The renter's next 100.00 booking: 15.00 of it paid with the account credit, the card the rest.
      { type: 'revenue', amount: 10000 },
      { type: 'payment', amount: -1500, source: 'account_credit', renterId },
      { type: 'payment', amount: -8500, source: 'card' },
    ]);
    const r = await post('/acct/journal-exports', { businessId: op.customerId, locationId: op.locationId, date }, { key: op.adminKey });
    expect(r.status, r.text).toBe(201);
    expect(r.body.export).toMatchObject({ balanced: true, entryCount: 7 });
    const lines = Object.fromEntries(r.body.export.lines.map((l: any) => [l.account, [l.debit, l.credit]]));
    expect(lines).toEqual({ bank: [285, 0], sales: [0, 300], discounts: [20, 0], customer_credit: [0, 5] });
  });

  it('never sends an unbalanced journal', async () => {
    const date = yesterday(op.timezone, 9);
    await db()
      .insert(acctExports)
      .values({
        id: newId('acx'),
        customerId: op.customerId,
        locationId: op.locationId,
        date,
        currency: 'usd',
        status: 'queued',
        lines: [
          { account: 'bank', accountId: 'simacct_checking', debit: 1000, credit: 0, description: 'x' },
          { account: 'sales', accountId: 'simacct_sales', debit: 0, credit: 900, description: 'x' },
        ],
        totalDebit: 1000,
        totalCredit: 900,
      });
    await post('/acct/journal-exports', { businessId: op.customerId, locationId: op.locationId, date }, { key: op.adminKey });
    const failed = await eventually(async () => {
      const l = await get(`/acct/journal-exports?businessId=${op.customerId}&date=${date}`, { key: op.adminKey });
      return l.body.data[0]?.status === 'failed' ? l.body.data[0] : null;
    });
    expect(failed.lastError).toMatch(/not balanced/);
    expect(await sim.journal('simbiz_main', `berth:${op.customerId}:${op.locationId}:${date}`)).toBeNull();
  });

  it('refuses to export lines whose GL account is not mapped', async () => {
    const other = await createOperator();
    const { gift_card_liability: _g, ...partial } = MAPPINGS;
    await readyAccounting(other, partial);
    const date = yesterday(other.timezone);
    await ledger(other, date, [{ type: 'gift_card_sale', amount: 5000 }]);
    const r = await post('/acct/journal-exports', { businessId: other.customerId, locationId: other.locationId, date }, { key: other.adminKey });
    expectError(r, 400, 'accounting_not_ready');
    expect(r.body.details.map((d: any) => d.field)).toEqual(['glMappings.gift_card_liability']);
  });

  it("sends through the operator's queue at the provider's pace (4 per minute in the simulator), never answered 429", async () => {
    const paced = await createOperator();
    await readyAccounting(paced);
    const dates = [2, 3, 4, 5, 6, 7].map((n) => yesterday(paced.timezone, n));
    for (const d of dates) await ledger(paced, d, [{ type: 'revenue', amount: 1000 }]);
    for (const d of dates) {
      const r = await post('/acct/journal-exports', { businessId: paced.customerId, locationId: paced.locationId, date: d }, { key: paced.adminKey });
      expect(r.status, r.text).toBe(201);
    }
    const list = await eventually(async () => {
      const l = await get(`/acct/journal-exports?businessId=${paced.customerId}`, { key: paced.adminKey });
      return l.body.data.filter((x: any) => x.status === 'sent').length === 4 ? l.body : null;
    });
    await new Promise((r) => setTimeout(r, 300));
    const settled = (await get(`/acct/journal-exports?businessId=${paced.customerId}`, { key: paced.adminKey })).body;
    expect(settled.data.filter((x: any) => x.status === 'sent')).toHaveLength(4);
    expect(settled.data.filter((x: any) => x.status === 'queued')).toHaveLength(2);
    // Nobody was refused by the provider: every sent export went through on its first attempt.
    expect(settled.data.filter((x: any) => x.status === 'sent').every((x: any) => x.attempts === 1 && x.lastError === null)).toBe(true);
    expect(settled.queue).toMatchObject({ sentInWindow: 4, limit: { requests: 4, windowMs: 60_000 } });
    expect(settled.queue.pending).toHaveLength(2);
    expect(Date.parse(settled.queue.nextAttemptAt)).toBeGreaterThan(Date.now() + 30_000);
    expect(list.total).toBe(6);
  });

  it("the daily job exports yesterday's journal of every location", async () => {
    const daily = await createOperator();
    await readyAccounting(daily);
    await ledger(daily, yesterday(daily.timezone), [
      { type: 'revenue', amount: 4000 },
      { type: 'payment', amount: -4000, source: 'card' },
    ]);
    await runCron('0 3 * * *');
    const exported = await eventually(async () => {
      const l = await get(`/acct/journal-exports?businessId=${daily.customerId}`, { key: daily.adminKey });
      return l.body.data.find((x: any) => x.date === yesterday(daily.timezone) && x.status === 'sent');
    });
    expect(exported).toMatchObject({ locationId: daily.locationId, totalDebit: 40, totalCredit: 40 });
  });
});
