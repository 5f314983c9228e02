/**
 * Financial reports through HTTP: a small known month of sales (bookings with add-ons, discount, tax and
 * tip, a partial refund, a cancellation keeping a fee, a deposit held and captured, a gift-card payment;
 * at the counter a sale, a partial return and a gift card sold) checked total by total as an accountant
 * would, the CSV against the ledger to the cent, the groupings, and the gift card liability as of `to`.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import Papa from 'papaparse';
import fc from 'fast-check';
import { api, createOperator, expectError, get, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { entries, k, locationIn, type EntryInput } from '../analytics/factories';
import { wallTimeToUtc } from '../../../src/lib/time';

const CLOCK = '2026-07-15T16:00:00Z'; // 12:00 in New York: the counter's sales are dated 2026-07-15
const AT = '2026-07-10T14:00:00.000Z'; // 10:00 in New York on 2026-07-10: the bookings' entries
const MONTH = 'from=2026-07-01&to=2026-07-31';

let op: Operator;
let posSale: string;
let posItemId: string;

const csvRows = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

beforeAll(async () => {
  op = await createOperator({ clockAt: CLOCK });
  const L = op.locationId;
  const r1: Partial<EntryInput> = { locationId: L, at: AT, rentalId: 'bk_report_1', source: 'operator' };
  const r2: Partial<EntryInput> = { locationId: L, at: AT, rentalId: 'bk_report_2', source: 'operator' };
  const r3: Partial<EntryInput> = { locationId: L, at: AT, rentalId: 'bk_report_3', source: 'operator' };
  const e = (base: Partial<EntryInput>, type: string, amount: number, more: Partial<EntryInput> = {}) => ({ ...base, type, amount, ...more }) as EntryInput;
  await entries(op, [
    // Booking 1: a 200.00 rental on item A with a 30.00 add-on, 20.00 off, 7% tax on 210.00, a 10.00 tip, paid by card; 50.00 given back later.
    e(r1, 'revenue', 20000, { itemId: 'inv_A', description: 'Pontoon, half day' }),
    e(r1, 'revenue', 3000, { itemId: 'inv_A', description: 'Add-on: "Cooler", large' }),
    e(r1, 'discount', -2000, { itemId: 'inv_A' }),
    e(r1, 'tax', 1470, { itemId: 'inv_A' }),
    e(r1, 'tip', 1000, { itemId: 'inv_A' }),
    e(r1, 'payment', -23470, { source: 'card' }),
    e(r1, 'revenue', -5000, { itemId: 'inv_A', description: 'Partial refund: engine trouble' }),
    e(r1, 'refund', 5000, { source: 'card' }),
    // Booking 2: a 100.00 rental on item B with 7.00 tax, paid, then cancelled keeping a 25.00 fee; 82.00 refunded.
    e(r2, 'revenue', 10000, { itemId: 'inv_B' }),
    e(r2, 'tax', 700, { itemId: 'inv_B' }),
    e(r2, 'payment', -10700, { source: 'card' }),
    e(r2, 'revenue', -10000, { itemId: 'inv_B' }),
    e(r2, 'tax', -700, { itemId: 'inv_B' }),
    e(r2, 'cancellation_fee', 2500, { itemId: 'inv_B' }),
    e(r2, 'refund', 8200, { source: 'card' }),
    // Booking 3: an 80.00 rental on item A, 30.00 paid with a gift card and 50.00 cash; a 200.00 deposit held, 75.00 captured, the rest released.
    e(r3, 'revenue', 8000, { itemId: 'inv_A' }),
    e(r3, 'payment', -3000, { source: 'gift_card' }),
    e(r3, 'payment', -5000, { source: 'cash' }),
    e(r3, 'deposit_hold', 20000, { memo: true }),
    e(r3, 'deposit_capture', 7500, { memo: true }),
    e(r3, 'deposit_release', -12500, { memo: true }),
  ]);
  // The counter (HTTP, on the operator's clock): two ice bags at 20.00 with 10% tax in cash, 11.00 of it returned; a 50.00 gift card sold by card.
  const p = await post('/pos/inventory', { locationId: L, name: 'Ice bag', taxRate: 10, variants: [{ name: 'Default', price: 20, quantity: 10 }] }, k(op));
  posItemId = p.body.itemId;
  const s1 = await post('/pos/transaction', { locationId: L, userId: op.adminId, paymentType: 'cash', items: [{ itemId: posItemId, quantity: 2 }] }, k(op));
  expect(s1.status, s1.text).toBe(201);
  posSale = s1.body.transactionId;
  const ret = await post('/pos/transaction/refund', { transactionId: posSale, refundType: 'partial', amount: 11 }, k(op));
  expect(ret.status, ret.text).toBe(200);
  const gift = { locationId: L, userId: op.adminId, paymentType: 'card', paymentMethodId: 'pm_card_visa', items: [] };
  const s2 = await post('/pos/transaction', { ...gift, giftCards: [{ action: 'issue', code: 'REPORT-GIFT-1', amount: 50 }] }, k(op));
  expect(s2.status, s2.text).toBe(201);
  // 12.00 of that card spent; and a 10.00 card the operator issued, expiring on 2026-07-20.
  const use = await post('/promoGiftCards/use', { promoCode: 'REPORT-GIFT-1', customerId: op.customerId, orderAmount: 12 }, k(op));
  expect(use.status, use.text).toBe(200);
  const promo = { promoCode: 'EXPIRES-0720', customerId: op.customerId, ExpiryDate: '2026-07-20', Details: { $Discount: 10, type: 'gift_card' } };
  const c = await post('/promoGiftCards', promo, k(op));
  expect(c.status, c.text).toBe(201);
});

/** The month's totals, added up by hand from the entries above. */
const EXPECTED = {
  // Sales: booking 1 230.00 − 50.00 refunded, booking 2 cancelled (0), booking 3 80.00, counter 40.00 − 10.00 returned = 290.00;
  // kept beside sales: the 25.00 fee and the 75.00 deposit captured.
  grossCents: 29000 + 2500 + 7500,
  discountsCents: 2000,
  netCents: 39000 - 2000,
  taxCents: 1470 + 0 + 400 - 100,
  tipsCents: 1000,
  cancellationFeesCents: 2500,
  premiumsCents: 0,
  platformFeesCents: 0,
  refundsCents: 5000 + 8200 + 1100,
  paymentsCents: 23470 + 10700 + 3000 + 5000 + 4400 + 5000,
  netPayoutCents: 51570 - 14300,
  depositsHeldCents: 20000,
  depositsReleasedCents: 12500,
  depositsCapturedCents: 7500,
  giftCardsSoldCents: 5000,
  giftCardsRedeemedCents: 3000,
  // Every sale balances to zero; only the deposit memos (+200.00 + 75.00 − 125.00) are left.
  ledgerSumCents: 15000,
};

describe('GET /reports/sales-journal', () => {
  it('shows every entry and the totals an accountant checks by hand; equals analytics for the same days', async () => {
    const r = await get(`/reports/sales-journal?locationId=${op.locationId}&${MONTH}`, k(op));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ locationId: op.locationId, timezone: 'America/New_York', currency: 'usd', from: '2026-07-01', to: '2026-07-31' });
    expect(r.body.totals).toMatchObject(EXPECTED);
    expect(r.body.total).toBe(r.body.totals.entryCount);
    const rows = r.body.data as any[];
    expect(new Set(rows.map((x) => x.date))).toEqual(new Set(['2026-07-10', '2026-07-15']));
    const ret = rows.find((x) => x.type === 'refund' && x.transactionId === posSale);
    expect(ret).toMatchObject({ amountCents: 1100, paymentMethod: 'cash', kind: 'pos' });
    expect(rows.find((x) => x.type === 'revenue' && x.transactionId === posSale && x.amountCents === 4000)).toMatchObject({
      itemId: posItemId,
      itemName: 'Ice bag',
    });
    expect(rows.find((x) => x.type === 'gift_card_sale')).toMatchObject({ amountCents: 5000, kind: 'pos' });
    expect(rows.find((x) => x.type === 'deposit_hold')).toMatchObject({ memo: true, rentalId: 'bk_report_3' });
    // As of the end of the 31st: 50.00 sold at the counter + 10.00 issued, 12.00 spent, the 10.00 card expired.
    expect(r.body.giftCardLiability).toEqual({
      asOf: '2026-08-01T04:00:00.000Z',
      soldCents: 6000,
      redeemedCents: 1200,
      expiredCents: 1000,
      liabilityCents: 3800,
    });
    const m = await get(`/analytics/metrics?locationIds=${op.locationId}&startDate=2026-07-01&endDate=2026-07-31`, k(op));
    expect(m.status, m.text).toBe(200);
    expect(m.body.totals).toMatchObject({
      revenueCents: EXPECTED.netCents,
      grossRevenueCents: EXPECTED.grossCents,
      discountsCents: EXPECTED.discountsCents,
      taxCents: EXPECTED.taxCents,
      tipsCents: EXPECTED.tipsCents,
      refundsCents: EXPECTED.refundsCents,
      paymentsCents: EXPECTED.paymentsCents,
      cancellationFeesCents: EXPECTED.cancellationFeesCents,
      depositCapturesCents: EXPECTED.depositsCapturedCents,
    });
  });

  it('as CSV (RFC 4180): one line per entry, the amounts adding up to the ledger to the cent', async () => {
    const r = await api('GET', `/reports/sales-journal?locationId=${op.locationId}&${MONTH}&format=csv`, k(op));
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/csv');
    expect(r.text.startsWith('date,occurred_at,transaction_id,rental_id,kind,item_id,item,description,type,amount_cents,amount,payment_method,memo\r\n')).toBe(
      true,
    );
    expect(r.text).toContain('"Add-on: ""Cooler"", large"');
    const rows = csvRows(r.text);
    expect(rows).toHaveLength(21 + 3 + 3 + 2);
    expect(rows.reduce((s, x) => s + Number(x.amount_cents), 0)).toBe(EXPECTED.ledgerSumCents);
    expect(rows.reduce((s, x) => s + Math.round(Number(x.amount) * 100), 0)).toBe(EXPECTED.ledgerSumCents);
    const sumOf = (type: string) => rows.filter((x) => x.type === type).reduce((s, x) => s + Number(x.amount_cents), 0);
    expect(sumOf('tax')).toBe(EXPECTED.taxCents);
    expect(-sumOf('payment')).toBe(EXPECTED.paymentsCents);
    expect(sumOf('refund')).toBe(EXPECTED.refundsCents);
  });

  it('the gift card liability is as of `to`: before the card expired it still counts', async () => {
    const r = await get(`/reports/sales-journal?locationId=${op.locationId}&from=2026-07-01&to=2026-07-15&limit=1`, k(op));
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.giftCardLiability).toMatchObject({ soldCents: 6000, redeemedCents: 1200, expiredCents: 0, liabilityCents: 4800 });
    const before = await get(`/reports/sales-journal?locationId=${op.locationId}&from=2026-07-01&to=2026-07-14`, k(op));
    expect(before.body.giftCardLiability.liabilityCents).toBe(0);
    expect(before.body.totals.giftCardsSoldCents).toBe(0);
  });
});

describe('GET /reports/payouts', () => {
  it('by payment method, by day and by item: the rows add up to the totals', async () => {
    const byMethod = await get(`/reports/payouts?locationId=${op.locationId}&${MONTH}&groupBy=method`, k(op));
    expect(byMethod.status, byMethod.text).toBe(200);
    const m = Object.fromEntries(byMethod.body.rows.map((r: any) => [r.key, r]));
    expect(Object.keys(m).sort()).toEqual(['card', 'cash', 'gift_card', 'null'].sort());
    expect(m.card).toMatchObject({ paymentsCents: 23470 + 10700 + 5000, refundsCents: 5000 + 8200, netPayoutCents: 39170 - 13200 });
    expect(m.cash).toMatchObject({ paymentsCents: 5000 + 4400, refundsCents: 1100, netPayoutCents: 8300 });
    expect(m.gift_card).toMatchObject({ paymentsCents: 3000, giftCardsRedeemedCents: 3000 });
    expect(m.null).toMatchObject({ netCents: EXPECTED.netCents, paymentsCents: 0, label: 'Charges (no payment method)' });

    const byDay = await get(`/reports/payouts?locationId=${op.locationId}&${MONTH}`, k(op));
    expect(byDay.body.groupBy).toBe('day');
    expect(byDay.body.rows).toHaveLength(31);
    const d = Object.fromEntries(byDay.body.rows.map((r: any) => [r.key, r]));
    expect(d['2026-07-10']).toMatchObject({ netCents: 39000 - 2000 - 3000, paymentsCents: 42170, giftCardsSoldCents: 0 });
    expect(d['2026-07-15']).toMatchObject({ netCents: 3000, taxCents: 300, paymentsCents: 9400, refundsCents: 1100, giftCardsSoldCents: 5000 });
    expect(d['2026-07-01']).toMatchObject({ entryCount: 0, netCents: 0 });

    const byItem = await api('GET', `/reports/payouts?locationId=${op.locationId}&${MONTH}&groupBy=item&format=csv`, k(op));
    expect(byItem.status, byItem.text).toBe(200);
    const rows = csvRows(byItem.text);
    const it = Object.fromEntries(rows.map((r) => [r.item, r]));
    // Item A: booking 1 (230.00 − 50.00 − 20.00) and booking 3 (80.00); item B: the 25.00 fee; the ice bags 30.00.
    expect(Number(it.inv_A.net_cents)).toBe(18000 - 2000 + 8000);
    expect(Number(it.inv_B.net_cents)).toBe(2500);
    // The counter's tax is one entry of the sale (no product): it sits with the order-level entries.
    expect(it[posItemId]).toMatchObject({ label: 'Ice bag', net_cents: '3000', tax_cents: '0' });
    expect(Number(it[''].tax_cents)).toBe(300);
    expect(it.total).toMatchObject({ net_cents: String(EXPECTED.netCents), ledger_sum_cents: String(EXPECTED.ledgerSumCents) });
    for (const f of ['net_cents', 'tax_cents', 'payments_cents', 'refunds_cents', 'ledger_sum_cents'])
      expect(rows.filter((r) => r.item !== 'total').reduce((s, r) => s + Number(r[f]), 0)).toBe(Number(it.total[f]));
  });

  it('refuses bad ranges, another operator’s location, and callers without the reports permission', async () => {
    expectError(await get(`/reports/payouts?locationId=${op.locationId}&from=2026-07-31&to=2026-07-01`, k(op)), 400, 'validation_failed');
    expectError(await get(`/reports/payouts?locationId=${op.locationId}&from=2025-01-01&to=2026-07-01`, k(op)), 400, 'validation_failed');
    expectError(await get(`/reports/payouts?locationId=${op.locationId}&${MONTH}&groupBy=week`, k(op)), 400, 'validation_failed');
    expectError(await get(`/reports/sales-journal?locationId=loc_nope&${MONTH}`, k(op)), 404, 'not_found');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await get(`/reports/sales-journal?locationId=${op.locationId}&${MONTH}`, { key: staff.key }), 403, 'forbidden');
    const accountant = await op.addUser({ role: 'staff', permissions: ['reports'] });
    expect((await get(`/reports/payouts?locationId=${op.locationId}&${MONTH}`, { key: accountant.key })).status).toBe(200);
    for (const path of [`/reports/sales-journal?locationId=${op.locationId}&${MONTH}`, `/reports/payouts?locationId=${op.locationId}&${MONTH}&groupBy=item`])
      await checkSecurity(op, { method: 'GET', path, otherStatus: 404 });
  });
});

describe('the journal equals the ledger and analytics (property)', () => {
  const TYPES = ['revenue', 'discount', 'tax', 'tip', 'payment', 'refund', 'cancellation_fee', 'deposit_capture', 'gift_card_sale', 'protection_plan'];
  const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney'];
  let owner: Operator;
  beforeAll(async () => {
    owner = await createOperator();
  });

  it('for any entries, the CSV amounts sum to the ledger of the local days and the totals to metrics', async () => {
    const entry = fc.record({
      type: fc.constantFrom(...TYPES),
      amount: fc.integer({ min: -50_000, max: 50_000 }),
      day: fc.integer({ min: 0, max: 11 }), // days 0 and 11 fall outside the range asked for (1 to 10)
      minute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
      pos: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(entry, { minLength: 1, maxLength: 25 }), async (tz, list) => {
        const loc = await locationIn(owner, tz);
        const date = (d: number) => `2026-03-${String(20 + d).padStart(2, '0')}`; // across the DST change in Europe and the US
        const at = (x: (typeof list)[number]) =>
          new Date(
            wallTimeToUtc(date(x.day), `${String(Math.floor(x.minute / 60)).padStart(2, '0')}:${String(x.minute % 60).padStart(2, '0')}`, tz),
          ).toISOString();
        await entries(
          owner,
          list.map((x, i) => ({
            locationId: loc,
            type: x.type,
            amount: x.amount,
            at: at(x),
            rentalId: x.pos ? null : `bk_prop_${i}`,
            source: x.type === 'payment' || x.type === 'refund' ? 'card' : undefined,
          })),
        );
        const inRange = list.filter((x) => x.day >= 1 && x.day <= 10);
        const q = `locationId=${loc}&from=${date(1)}&to=${date(10)}`;
        const [csv, json, metrics] = await Promise.all([
          api('GET', `/reports/sales-journal?${q}&format=csv`, k(owner)),
          get(`/reports/sales-journal?${q}&limit=1`, k(owner)),
          get(`/analytics/metrics?locationIds=${loc}&startDate=${date(1)}&endDate=${date(10)}`, k(owner)),
        ]);
        const rows = csvRows(csv.text);
        const ledger = inRange.reduce((s, x) => s + x.amount, 0);
        expect(rows).toHaveLength(inRange.length);
        expect(rows.reduce((s, x) => s + Number(x.amount_cents), 0)).toBe(ledger);
        expect(json.body.totals.ledgerSumCents).toBe(ledger);
        const t = json.body.totals;
        expect(metrics.body.totals).toMatchObject({
          revenueCents: t.netCents,
          grossRevenueCents: t.grossCents,
          discountsCents: t.discountsCents,
          taxCents: t.taxCents,
          tipsCents: t.tipsCents,
          refundsCents: t.refundsCents,
          paymentsCents: t.paymentsCents,
        });
      }),
      { numRuns: 6 },
    );
  });
});
