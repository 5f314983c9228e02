/**
 * One money view of every sale (issue 31, item 1) and reports that equal the ledger (item 4), through
 * HTTP on a test clock: a point-of-sale sale refunded in part and one refunded in full, a membership
 * invoice charged and refunded in part, a slip stay paid in part. Each sale's money (lines, total,
 * paid, refunded, balance) is what its ledger entries say, the renter's or member's view shows the
 * operator's figures, and metrics and year-over-year over the month equal the ledger's revenue
 * (the membership's on the account, apart from the locations').
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:test';
import { get, post, type Operator } from '../../harness';
import { addDays, wallTimeToUtc } from '../../../src/lib/time';
import { makeSlip, marinaOperator, renter, reserve } from '../marina/helpers';
import { mailsTo } from '../marina/marina2-helpers';
import { lastPortalToken, makeTier, email, enroll } from '../memberships/factories';
import { k, ledgerRevenue } from './factories';

const TZ = 'America/New_York';
const TODAY = '2027-01-14';
const CLOCK = wallTimeToUtc(TODAY, '10:00', TZ);
const cents = (dollars: number) => Math.round(dollars * 100);

type View = { lines: { type: string; amount: number }[]; total: number; paid: number; refunded: number; credited: number; balance: number };

/** The sum of a sale's ledger entries by type (cents), read raw. */
async function entriesOf(customerId: string, transactionId: string) {
  const rows = await env.DB.prepare(
    'SELECT entry_type AS type, amount FROM ledger_entries WHERE customer_id = ? AND transaction_id = ? AND affects_balance = 1',
  )
    .bind(customerId, transactionId)
    .all<{ type: string; amount: number }>();
  const sum = (f: (t: string) => boolean) => rows.results.filter((r) => f(r.type)).reduce((s, r) => s + r.amount, 0);
  return {
    total: sum((t) => !['payment', 'refund', 'credit'].includes(t)),
    paid: -sum((t) => t === 'payment'),
    refunded: sum((t) => t === 'refund'),
    balance: sum(() => true),
  };
}

/** The view in cents, checked against the raw ledger and against itself (lines add up; balance = total − paid + refunded + credited). */
async function expectLedger(customerId: string, transactionId: string, v: View) {
  const l = await entriesOf(customerId, transactionId);
  const c = { total: cents(v.total), paid: cents(v.paid), refunded: cents(v.refunded), balance: cents(v.balance) };
  expect(c).toEqual(l);
  expect(v.lines.reduce((s, x) => s + cents(x.amount), 0)).toBe(c.total);
  expect(c.balance).toBe(c.total - c.paid + c.refunded + cents(v.credited));
  return c;
}

let op: Operator;
const pos = { partly: '', fully: '' };
let invoice: { membershipId: string; invoiceId: string; session: string };
let stay: { id: string; token: string };

beforeAll(async () => {
  op = await marinaOperator(5, { clockAt: CLOCK, timezone: TZ });
  const product = await post(
    '/pos/inventory',
    { locationId: op.locationId, name: 'Ice bag', taxRate: 7.5, variants: [{ name: 'Default', price: 12.99, quantity: 50 }] },
    k(op),
  );
  expect(product.status, product.text).toBe(201);
  const sell = async (quantity: number) => {
    const r = await post(
      '/pos/transaction',
      { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: product.body.itemId, quantity }] },
      k(op),
    );
    expect(r.status, r.text).toBe(201);
    return r.body.transactionId as string;
  };
  [pos.partly, pos.fully] = await Promise.all([sell(3), sell(1)]);
  for (const [transactionId, body] of [
    [pos.partly, { refundType: 'partial', amount: 10.01 }],
    [pos.fully, { refundType: 'partial', amount: 5 }],
    [pos.fully, { refundType: 'full' }],
  ] as const) {
    const r = await post('/pos/transaction/refund', { transactionId, ...body }, k(op));
    expect(r.status, r.text).toBe(200);
  }

  // A member enrolled through the public form (30.00 a month, paid by card), 9.00 of the invoice refunded.
  const tier = await makeTier(op, { name: 'Portal', isPublic: true });
  const to = email('money');
  await enroll(op, tier.tierId, to);
  const s = await post('/public/memberships/portal/session', { token: await lastPortalToken(op.customerId, to) });
  expect(s.status, s.text).toBe(200);
  const session = s.body.sessionToken as string;
  const me = await get('/public/memberships/portal', { headers: { authorization: `Bearer ${session}` } });
  expect(me.status, me.text).toBe(200);
  const membershipId = me.body.membershipId as string;
  const list = await get(`/memberships/${membershipId}/invoices?customerId=${op.customerId}`, k(op));
  const invoiceId = list.body.data[0].invoiceId as string;
  const refund = await post(`/memberships/${membershipId}/refund`, { customerId: op.customerId, invoiceId, amount: 900 }, k(op));
  expect(refund.status, refund.text).toBe(200);
  invoice = { membershipId, invoiceId, session };

  // Three nights from tomorrow, confirmed (its charges post on the arrival date), 50.00 paid in cash; the tenant signs in to the portal.
  const slip = await makeSlip(op);
  const who = renter('money');
  const r = await reserve(op, slip.id, { renter: who, arrivalDate: addDays(TODAY, 1), departureDate: addDays(TODAY, 4) });
  expect(r.status, r.text).toBe(201);
  const paid = await post(`/slip-reservations/${r.body.id}/record-payment`, { amountCents: 5000, method: 'cash' }, k(op));
  expect(paid.status, paid.text).toBe(201);
  expect((await post('/slip-portal/invite', { reservationId: r.body.id }, k(op))).status).toBe(200);
  const link = /token=(spl_[A-Za-z0-9]+)/.exec((await mailsTo(who.email, 'slip_portal.magic_link'))[0].body)![1];
  const t = await post('/slip-portal/session', { token: link });
  expect(t.status, t.text).toBe(201);
  stay = { id: r.body.id, token: t.body.sessionToken };
});

describe('one money view of every sale', () => {
  it('point of sale: a refund takes its share of the lines and tax off the total; a sale refunded in full keeps no line and owes nothing', async () => {
    const [one, list] = await Promise.all([get(`/pos/transaction/${pos.partly}`, k(op)), get(`/pos/transaction?locationId=${op.locationId}`, k(op))]);
    expect(one.status, one.text).toBe(200);
    // 3 x 12.99 = 38.97 + 2.92 tax = 41.89; 10.01 back: round(10.01 × 38.97 / 41.89) = 9.31 off the line, 0.70 off tax.
    expect(one.body.money).toMatchObject({ currency: 'usd', total: 31.88, paid: 41.89, refunded: 10.01, credited: 0, balance: 0, balanceDue: 0 });
    expect(one.body.money.lines.map((l: { type: string; amount: number }) => [l.type, l.amount])).toEqual([
      ['revenue', 29.66],
      ['tax', 2.22],
    ]);
    await expectLedger(op.customerId, pos.partly, one.body.money);
    const listed = list.body.data.find((t: { transactionId: string }) => t.transactionId === pos.fully);
    expect(listed.money).toMatchObject({ lines: [], total: 0, paid: 13.96, refunded: 13.96, balance: 0 });
    expect(listed.refundedAmount).toBe(13.96);
    await expectLedger(op.customerId, pos.fully, listed.money);
  });

  it('membership invoice: charged, refunded in part; the member portal shows the operator’s figures and the receipt states them', async () => {
    const [operator, member] = await Promise.all([
      get(`/memberships/${invoice.membershipId}/invoices?customerId=${op.customerId}`, k(op)),
      get('/public/memberships/portal/invoices?limit=5', { headers: { authorization: `Bearer ${invoice.session}` } }),
    ]);
    expect(operator.status, operator.text).toBe(200);
    expect(member.status, member.text).toBe(200);
    const inv = operator.body.data.find((i: { invoiceId: string }) => i.invoiceId === invoice.invoiceId);
    expect(inv.money).toMatchObject({ total: 21, paid: 30, refunded: 9, balance: 0 });
    expect([inv.amountPaid, inv.amountRefunded]).toEqual([3000, 900]);
    await expectLedger(op.customerId, invoice.invoiceId, inv.money);
    expect(member.body.data.find((i: { invoiceId: string }) => i.invoiceId === invoice.invoiceId).money).toEqual(inv.money);
    const resend = await post(`/memberships/${invoice.membershipId}/invoices/${invoice.invoiceId}/resend`, { customerId: op.customerId }, k(op));
    expect(resend.status, resend.text).toBe(200);
    const mail = await env.DB.prepare('SELECT body FROM message_outbox WHERE id = ?').bind(resend.body.messageId).first<{ body: string }>();
    expect(mail?.body).toContain('paid: 30.00 USD; refunded: 9.00 USD');
  });

  it('slip stay: reads, the list and the tenant portal answer the ledger’s paid and balance', async () => {
    const [one, list, portal] = await Promise.all([
      get(`/slip-reservations/${stay.id}`, k(op)),
      get(`/slip-reservations?locationId=${op.locationId}`, k(op)),
      get(`/slip-portal/reservations/${stay.id}`, { token: stay.token }),
    ]);
    expect(one.status, one.text).toBe(200);
    expect(portal.status, portal.text).toBe(200);
    const c = await expectLedger(op.customerId, stay.id, one.body.money);
    expect(c.total).toBe(one.body.totalCents);
    expect([one.body.amountPaidCents, one.body.amountRefundedCents, one.body.balanceCents]).toEqual([5000, 0, one.body.totalCents - 5000]);
    expect(list.body.data.find((r: { id: string }) => r.id === stay.id).money).toEqual(one.body.money);
    expect(portal.body.money).toEqual(one.body.money);
  });
});

describe('reports equal the ledger', () => {
  it('metrics and year-over-year over the month = the ledger (a slip stay, POS sales and refunds); membership revenue = its ledger entries', async () => {
    const [m, y, ledger, members, sale, slipRead] = await Promise.all([
      get(`/analytics/metrics?locationIds=${op.locationId}&startDate=2027-01-01&endDate=2027-01-31`, k(op)),
      get(`/analytics/year-over-year?locationIds=${op.locationId}&currentYear=2027`, k(op)),
      ledgerRevenue({ customerId: op.customerId, locationId: op.locationId, timezone: TZ, month: '2027-01' }),
      env.DB.prepare(
        `SELECT coalesce(sum(amount), 0) AS revenue FROM ledger_entries WHERE customer_id = ? AND source = 'membership' AND entry_type IN ('revenue', 'discount')`,
      )
        .bind(op.customerId)
        .first<{ revenue: number }>(),
      get(`/pos/transaction/${pos.partly}`, k(op)),
      get(`/slip-reservations/${stay.id}`, k(op)),
    ]);
    expect(m.status, m.text).toBe(200);
    expect(y.status, y.text).toBe(200);
    const { revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents } = m.body.totals;
    expect({ revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents }).toEqual(ledger);
    expect(y.body.months[0].current).toEqual(ledger);
    // The reports' revenue is the sales' money views' revenue lines: the POS sale's goods left after returns, the stay's charges (no tax here).
    const revenueLines = (v: View) => v.lines.filter((l) => l.type === 'revenue' || l.type === 'discount').reduce((s, l) => s + cents(l.amount), 0);
    expect(posRevenueCents).toBe(revenueLines(sale.body.money));
    expect(slipRevenueCents).toBe(revenueLines(slipRead.body.money));
    expect(m.body.memberships).toMatchObject({ revenueCents: 2100, refundsCents: 900, invoicesPaid: 1, newMemberships: 1 });
    expect(m.body.memberships.revenueCents).toBe(Number(members?.revenue));
  });
});
