/**
 * Accounting on a sandbox test clock, at the pinned instants (test/clocks.ts): "today" is the
 * location's date on the operator's clock (only finished days export), the connection and the sent
 * export are stamped with the operator's time, and the daily job exports the location's yesterday
 * when the clock advances past its schedule.
 */
import { describe, it, expect } from 'vitest';
import { SELF } from 'cloudflare:test';
import { BASE, advanceClock, createOperator, db, eventually, expectError, get, post, put, type Operator } from '../../harness';
import { pinnedClocks } from '../../clocks';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { newId } from '../../../src/lib/ids';
import { addDays, localDate, wallTimeToUtc } from '../../../src/lib/time';

const MAPPINGS = {
  accounts_receivable: 'simacct_ar',
  sales: 'simacct_sales',
  discounts: 'simacct_discounts',
  sales_tax: 'simacct_tax',
  tips: 'simacct_tips',
  channel_receivable: 'simacct_channel',
  gift_card_liability: 'simacct_giftcards',
  deposits: 'simacct_deposits',
};

async function readyAccounting(op: Operator) {
  const c = await get(`/auth/acct/connect?businessId=${op.customerId}`, { key: op.adminKey });
  expect(c.status, c.text).toBe(200);
  const url = new URL(c.body.authorizationUrl);
  const res = await SELF.fetch(BASE + url.pathname + url.search, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const key = { key: op.adminKey };
  expect((await put('/acct/select-business', { businessId: op.customerId, acctBusinessId: 'simbiz_main', acctBusinessName: 'Books' }, key)).status).toBe(200);
  expect((await put('/acct/bank-account', { businessId: op.customerId, bankAccountId: 'simacct_checking' }, key)).status).toBe(200);
  expect((await put('/acct/gl-mappings', { businessId: op.customerId, glMappings: MAPPINGS }, key)).status).toBe(200);
}

async function revenue(op: Operator, date: string, amount: number) {
  const occurredAt = new Date(wallTimeToUtc(date, '12:00', op.timezone)).toISOString();
  const row = { customerId: op.customerId, locationId: op.locationId, transactionId: 'txn_test', rentalId: 'bk_test', currency: 'usd', occurredAt };
  await db().batch([
    db()
      .insert(ledgerEntries)
      .values({ ...row, id: newId('led'), entryType: 'revenue', amount, affectsBalance: true, description: 'revenue' }),
    db()
      .insert(ledgerEntries)
      .values({ ...row, id: newId('led'), entryType: 'payment', amount: -amount, affectsBalance: true, description: 'payment', source: 'card' }),
  ]);
}

const exportsOf = async (op: Operator) => (await get(`/acct/journal-exports?businessId=${op.customerId}`, { key: op.adminKey })).body.data as any[];

describe.each(pinnedClocks())('accounting at $label', ({ timezone, at }) => {
  it("exports only days finished at the location on the operator's clock, stamped with its time", async () => {
    const op = await createOperator({ clockAt: at, timezone });
    await readyAccounting(op);
    const status = await get(`/acct/integration-status?businessId=${op.customerId}`, { key: op.adminKey });
    expect(status.body.connectedAt).toBe(at);

    const today = localDate(Date.parse(at), timezone);
    const body = (date: string) => ({ businessId: op.customerId, locationId: op.locationId, date });
    expectError(await post('/acct/journal-exports', body(today), { key: op.adminKey }), 400, 'bad_request');
    expectError(await post('/acct/journal-exports', body(addDays(today, 1)), { key: op.adminKey }), 400, 'bad_request');
    const yesterday = addDays(today, -1);
    await revenue(op, yesterday, 2500);
    const r = await post('/acct/journal-exports', body(yesterday), { key: op.adminKey });
    expect(r.status, r.text).toBe(201);
    const sent = await eventually(async () => (await exportsOf(op)).find((e) => e.date === yesterday && e.status === 'sent'));
    expect(sent).toMatchObject({ totalDebit: 25, totalCredit: 25, sentAt: at });
  });
});

describe('accounting daily job on a test clock', () => {
  it("exports the location's yesterday when the clock passes the daily schedule (03:00 UTC)", async () => {
    const tz = 'Pacific/Kiritimati';
    const at = '2027-01-14T20:00:00.000Z'; // 10:00 on the 15th in Kiritimati (UTC+14)
    const op = await createOperator({ clockAt: at, timezone: tz });
    await readyAccounting(op);
    await revenue(op, '2027-01-15', 4000);
    // The next daily run is 03:00 UTC on the 15th: 17:00 on the 15th in Kiritimati, whose yesterday is the 14th.
    // At 03:00 UTC on the 16th (17:00 on the 16th there) the 15th is finished and exported.
    expect((await advanceClock(op.clockId!, '2027-01-16T03:30:00.000Z', op.adminKey)).status).toBe('ready');
    const exported = await eventually(async () => (await exportsOf(op)).find((e) => e.date === '2027-01-15' && e.status === 'sent'));
    expect(exported).toMatchObject({ locationId: op.locationId, totalDebit: 40, totalCredit: 40 });
    // Sent at the provider's pace, stamped with the operator's time (the clock at the daily run or after it).
    expect(Date.parse(exported.sentAt)).toBeGreaterThanOrEqual(Date.parse('2027-01-16T03:00:00.000Z'));
    expect(Date.parse(exported.sentAt)).toBeLessThanOrEqual(Date.parse('2027-01-16T03:30:00.000Z'));
    expect((await exportsOf(op)).map((e) => e.date).sort()).toEqual(['2027-01-14', '2027-01-15']);
  });
});
