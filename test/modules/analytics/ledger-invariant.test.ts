/**
 * Invariant (issue 31, "reports equal the ledger"), property-based: for a location with any mix of
 * rentals (discounts, premiums, cancellations with or without a fee kept, deposit captures),
 * point-of-sale sales with partial and full refunds (reversed on the ledger as the point of sale writes them), and slip revenue, spread around a month's edges
 * in any time zone, metrics' revenue over the month's days = year-over-year's revenue of the month =
 * the raw ledger's revenue entries of the month net of refunds (ledgerRevenue, entry by entry), per kind.
 * Entries are written as the modules write them (signed cents, reversals with the original's date).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createOperator, db, get, type Operator } from '../../harness';
import { newId } from '../../../src/lib/ids';
import { shareByWeight } from '../../../src/lib/money';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { posRefunds, posTransactions } from '../../../src/db/schema/pos';
import { k, ledgerRevenue, locationIn } from './factories';

const ZONES = ['America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC'];
const MONTHS = ['2026-03', '2026-11', '2026-12'];
const SPAN_MINUTES = 36 * 24 * 60;

const cents = (max: number) => fc.integer({ min: 1, max });
const minute = fc.integer({ min: 0, max: SPAN_MINUTES });
const rental = fc.record({
  kind: fc.constant('rental' as const),
  at: minute,
  price: cents(90_000),
  percentOff: fc.integer({ min: 0, max: 50 }),
  tax: fc.integer({ min: 0, max: 5_000 }),
  premium: fc.option(cents(9_000), { nil: undefined }),
  cancel: fc.option(fc.record({ at: minute, feePercent: fc.integer({ min: 0, max: 100 }) }), { nil: undefined }),
  capture: fc.option(fc.record({ at: minute, amount: cents(25_000) }), { nil: undefined }),
});
const posSale = fc.record({
  kind: fc.constant('pos' as const),
  at: minute,
  lines: fc.array(cents(20_000), { minLength: 1, maxLength: 3 }),
  percentOff: fc.integer({ min: 0, max: 30 }),
  taxPercent: fc.integer({ min: 0, max: 12 }),
  refunds: fc.array(fc.record({ at: minute, share: fc.integer({ min: 1, max: 100 }) }), { maxLength: 3 }),
});
const slip = fc.record({ kind: fc.constant('slip' as const), at: minute, amount: cents(60_000) });
const mix = fc.record({
  zone: fc.constantFrom(...ZONES),
  month: fc.constantFrom(...MONTHS),
  sales: fc.array(fc.oneof(rental, posSale, slip), { minLength: 1, maxLength: 8 }),
});
type Mix = typeof mix extends fc.Arbitrary<infer T> ? T : never;
type Row = typeof ledgerEntries.$inferInsert;

function writer(op: Operator, locationId: string, start: number) {
  const rows: Row[] = [];
  const pos: (typeof posTransactions.$inferInsert)[] = [];
  const refunds: (typeof posRefunds.$inferInsert)[] = [];
  const iso = (m: number) => new Date(start + m * 60_000).toISOString();
  const entry = (e: Partial<Row> & Pick<Row, 'entryType' | 'amount'> & { at: number }): Row => {
    const { at, ...rest } = e;
    const row: Row = { id: newId('led'), customerId: op.customerId, locationId, occurredAt: iso(at), affectsBalance: true, ...rest };
    rows.push(row);
    return row;
  };
  const reverse = (r: Row) => rows.push({ ...r, id: `led_rev_${r.id}`, amount: -r.amount, metadata: { reversalOf: r.id } });
  return { rows, pos, refunds, entry, reverse, iso };
}

/** The ledger (and point-of-sale rows) of a mix. */
function ledgerOf(op: Operator, locationId: string, m: Mix) {
  const start = Date.parse(`${m.month}-01T00:00:00.000Z`) - 3 * 86_400_000;
  const w = writer(op, locationId, start);
  for (const s of m.sales) {
    if (s.kind === 'slip') w.entry({ entryType: 'revenue', amount: s.amount, at: s.at, source: 'slip', transactionId: newId('slr') });
    if (s.kind === 'rental') {
      const rentalId = newId('bk');
      const scope = { rentalId, transactionId: `txn_${rentalId}`, itemId: 'inv_mix', source: 'operator' };
      const discount = Math.round((s.price * s.percentOff) / 100);
      const charges = [
        w.entry({ ...scope, entryType: 'revenue', amount: s.price, at: s.at }),
        ...(discount ? [w.entry({ ...scope, entryType: 'discount', amount: -discount, at: s.at })] : []),
        ...(s.tax ? [w.entry({ ...scope, entryType: 'tax', amount: s.tax, at: s.at })] : []),
        ...(s.premium ? [w.entry({ ...scope, entryType: 'protection_plan', amount: s.premium, at: s.at, source: 'protection_plan' })] : []),
      ];
      const paid = charges.reduce((t, c) => t + c.amount, 0);
      w.entry({ ...scope, entryType: 'payment', amount: -paid, at: s.at, source: 'card' });
      if (s.cancel) {
        charges.forEach(w.reverse);
        const fee = Math.round((paid * s.cancel.feePercent) / 100);
        if (fee) w.entry({ ...scope, entryType: 'cancellation_fee', amount: fee, at: s.cancel.at, source: 'policy' });
        if (paid - fee) w.entry({ ...scope, entryType: 'refund', amount: paid - fee, at: s.cancel.at, source: 'card' });
      }
      if (s.capture) w.entry({ ...scope, entryType: 'deposit_capture', amount: s.capture.amount, at: s.capture.at, source: 'deposit', assetId: null });
    }
    if (s.kind === 'pos') posSaleOf(op, locationId, w, s);
  }
  return w;
}

function posSaleOf(op: Operator, locationId: string, w: ReturnType<typeof writer>, s: Extract<Mix['sales'][number], { kind: 'pos' }>) {
  const id = newId('ptx');
  const subtotal = s.lines.reduce((t, l) => t + l, 0);
  const discount = Math.round((subtotal * s.percentOff) / 100);
  const tax = Math.round(((subtotal - discount) * s.taxPercent) / 100);
  const total = subtotal - discount + tax;
  const scope = { transactionId: id, source: 'pos', reference: id };
  s.lines.forEach((l) => w.entry({ ...scope, entryType: 'revenue', amount: l, at: s.at, metadata: { posItemId: 'pitm_mix', quantity: 1 } }));
  if (discount) w.entry({ ...scope, entryType: 'discount', amount: -discount, at: s.at });
  if (tax) w.entry({ ...scope, entryType: 'tax', amount: tax, at: s.at });
  w.entry({ ...scope, entryType: 'payment', amount: -total, at: s.at, source: 'cash' });
  // As the point of sale writes a refund (pos/refunds.ts): its record, the reversals of its share of the sale
  // and the money back, same instant, one batch. Shares are cumulative: the first p cents refunded have taken
  // round(p·S/T) off revenue (by line), round(p·D/T) back on the discount and the rest off tax, and a refund
  // from p₀ to p₁ reverses the difference, so a sale refunded in full has every charge back at zero.
  const upTo = (p: number) => {
    const revenue = Math.round((p * subtotal) / total);
    const d = Math.round((p * discount) / total);
    return tax ? { revenue, discount: d, tax: p - revenue + d } : { revenue: p + d, discount: d, tax: 0 };
  };
  let left = total;
  for (const r of s.refunds) {
    const amount = Math.min(left, Math.max(1, Math.round((total * r.share) / 100)));
    if (amount <= 0) break;
    const [from, to] = [upTo(total - left), upTo(total - left + amount)];
    left -= amount;
    const share = { revenue: to.revenue - from.revenue, discount: to.discount - from.discount, tax: to.tax - from.tax };
    const lineShares = shareByWeight(to.revenue, s.lines).map((c, i) => c - shareByWeight(from.revenue, s.lines)[i]);
    const reference = newId('pref');
    lineShares.forEach((c) => c && w.entry({ ...scope, entryType: 'revenue', amount: -c, at: r.at, reference }));
    if (share.discount) w.entry({ ...scope, entryType: 'discount', amount: share.discount, at: r.at, reference });
    if (share.tax) w.entry({ ...scope, entryType: 'tax', amount: -share.tax, at: r.at, reference });
    const refund = w.entry({ ...scope, entryType: 'refund', amount, at: r.at, reference });
    w.refunds.push({
      id: reference,
      customerId: op.customerId,
      transactionId: id,
      locationId,
      refundType: 'partial',
      method: 'cash',
      amount,
      createdAt: refund.occurredAt,
    });
  }
  const lines = s.lines.map((l) => ({ itemId: 'pitm_mix', variantId: 'pvar_mix', quantity: 1, subtotal: l }));
  w.pos.push({
    id,
    customerId: op.customerId,
    locationId,
    userId: op.adminId,
    kind: 'sale',
    paymentType: 'cash',
    lines,
    subtotal,
    discountTotal: discount,
    taxTotal: tax,
    total,
  });
}

async function write(w: ReturnType<typeof writer>) {
  const d = db();
  const stmts = [
    ...w.pos.map((p) => d.insert(posTransactions).values(p)),
    ...w.refunds.map((r) => d.insert(posRefunds).values(r)),
    ...w.rows.map((r) => d.insert(ledgerEntries).values(r)),
  ];
  for (let i = 0; i < stmts.length; i += 50) await d.batch(stmts.slice(i, i + 50) as any);
}

/** The last day of a month `YYYY-MM`. */
const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)), 0)).toISOString().slice(0, 10);

describe('reports equal the ledger (property)', () => {
  it('metrics over a month = year-over-year of the month = the ledger, for any mix of sales, refunds, fees, premiums and captures', async () => {
    const op = await createOperator({ timezone: 'UTC' });
    await fc.assert(
      fc.asyncProperty(mix, async (m) => {
        const locationId = await locationIn(op, m.zone);
        await write(ledgerOf(op, locationId, m));
        const q = new URLSearchParams({ locationIds: locationId, startDate: `${m.month}-01`, endDate: lastDay(m.month) });
        const [metrics, yoy] = await Promise.all([
          get(`/analytics/metrics?${q}`, k(op)),
          get(`/analytics/year-over-year?locationIds=${locationId}&currentYear=${m.month.slice(0, 4)}`, k(op)),
        ]);
        expect(metrics.status, metrics.text).toBe(200);
        expect(yoy.status, yoy.text).toBe(200);
        const ledger = await ledgerRevenue({ customerId: op.customerId, locationId, timezone: m.zone, month: m.month });
        const { revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents } = metrics.body.totals;
        expect({ revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents }).toEqual(ledger);
        expect(yoy.body.months[Number(m.month.slice(5)) - 1].current).toEqual(ledger);
        // The daily rows add up to the month.
        expect(metrics.body.daily.reduce((t: number, d: { revenueCents: number }) => t + d.revenueCents, 0)).toBe(ledger.revenueCents);
      }),
      { numRuns: 40 },
    );
  });
});
