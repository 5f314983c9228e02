/**
 * Issue 31, "reports equal the ledger": the revenue of the reports is the money the operator keeps
 * (sales less discounts, cancellation fees kept, protection premiums, deposit captures), net of
 * cancellations and refunds, and every report over the same days says the same figure. Real
 * workflows on a test clock, so every entry lands in one known local month.
 */
import { describe, it, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOperator, db, get, post, type Operator } from '../../harness';
import { book, bookBody, rentalItem } from '../bookings/factories';
import { sessionToken } from '../renter-self-service/factories';
import { locations } from '../../../src/db/schema/locations';
import { addDays, wallTimeToUtc } from '../../../src/lib/time';
import { k, ledgerRevenue } from './factories';

const TZ = 'America/New_York';
const TODAY = '2027-01-14';
/** 10:00 in New York on a Thursday well clear of DST and of the month's ends. */
const CLOCK = wallTimeToUtc(TODAY, '10:00', TZ);
const atDay = (days: number, time: string) => new Date(wallTimeToUtc(addDays(TODAY, days), time, TZ)).toISOString();

/** A paid 2-hour rental (2 x 100.00, no tax) `days` ahead, `percentOff` off. */
async function paidRental(op: Operator, itemId: string, days: number, percentOff?: number) {
  const extra = percentOff ? { discountDetails: { discountPercentage: percentOff } } : undefined;
  const r = await book(op, bookBody({ inventoryId: itemId, startTime: atDay(days, '10:00'), endTime: atDay(days, '12:00'), extra }));
  expect(r.status, r.text).toBe(201);
  return r.body.rentalId as string;
}

/** The renter cancels under a policy that refunds 50% inside 72 hours: half is refunded, half kept as a fee. */
async function renterCancelsWithFee(op: Operator, rentalId: string) {
  await db()
    .update(locations)
    .set({
      details: {
        cancellationPolicy: {
          tiers: [
            { hoursBefore: 72, refundPercent: 100 },
            { hoursBefore: 24, refundPercent: 50 },
          ],
        },
      },
    })
    .where(eq(locations.id, op.locationId));
  const token = await sessionToken(op, rentalId);
  const r = await post(`/public/bookings/${rentalId}/cancel`, { reason: 'Weather' }, { headers: { 'x-renter-token': token } });
  expect(r.status, r.text).toBe(200);
  return r.body.refund as { amount: number; fee: number };
}

/** The damage waiver: 12% of the booking's total. */
async function buyProtection(rentalId: string, calculatedCost = 24) {
  const r = await post(`/public/bookings/${rentalId}/protection-plans`, { planId: 'MARINE_DAMAGE_WAIVER', planName: 'Plan', calculatedCost });
  expect(r.status, r.text).toBe(200);
  return r.body.premium as number;
}

async function captureDeposit(op: Operator, rentalId: string, dollars: number) {
  const a = await post('/preAuth/authorize-deposit', { rentalId, authorizeAmount: 250, paymentMethodType: 'card', paymentMethodId: 'pm_card_visa' }, k(op));
  expect(a.status, a.text).toBe(200);
  const c = await post('/preAuth/capture-deposit', { rentalId, paymentIntentId: a.body.paymentIntentId, captureAmount: dollars, claimType: 'damage' }, k(op));
  expect(c.status, c.text).toBe(200);
}

/** A cash point-of-sale sale of `quantity` x 12.99 taxed 7.5%. */
async function posSale(op: Operator, quantity: number) {
  const product = await post(
    '/pos/inventory',
    { locationId: op.locationId, name: 'Ice bag', taxRate: 7.5, variants: [{ name: 'Default', price: 12.99, quantity: 50 }] },
    k(op),
  );
  expect(product.status, product.text).toBe(201);
  const sale = await post(
    '/pos/transaction',
    { locationId: op.locationId, userId: op.adminId, paymentType: 'cash', items: [{ itemId: product.body.itemId, quantity }] },
    k(op),
  );
  expect(sale.status, sale.text).toBe(201);
  return sale.body.transactionId as string;
}

const refundPos = async (op: Operator, transactionId: string, body: Record<string, unknown> = { refundType: 'full' }) => {
  const r = await post('/pos/transaction/refund', { transactionId, ...body }, k(op));
  expect(r.status, r.text).toBe(200);
};

const metricsOf = (op: Operator, startDate: string, endDate: string) =>
  get(`/analytics/metrics?locationIds=${op.locationId}&startDate=${startDate}&endDate=${endDate}`, k(op));
const yoyOf = (op: Operator, year: number) => get(`/analytics/year-over-year?locationIds=${op.locationId}&currentYear=${year}`, k(op));

describe('revenue reports equal the ledger', () => {
  it('count the cancellation fee kept, the protection premium and the deposit capture; a refunded POS sale is no revenue', async () => {
    const op = await createOperator({ timezone: TZ, clockAt: CLOCK });
    const item = await rentalItem(op, { assets: 5 });
    const cancelled = await paidRental(op, item.id, 2);
    expect(await renterCancelsWithFee(op, cancelled)).toMatchObject({ amount: 100, fee: 100 });
    const protectedRental = await paidRental(op, item.id, 3);
    expect(await buyProtection(protectedRental)).toBe(24);
    const damaged = await paidRental(op, item.id, 4);
    await captureDeposit(op, damaged, 120.5);
    const refunded = await posSale(op, 3); // 38.97 + 2.92 tax, given back in full
    await refundPos(op, refunded);
    await posSale(op, 1); // 12.99 + 0.97 tax, kept

    const m = await metricsOf(op, TODAY, '2027-01-31');
    expect(m.status, m.text).toBe(200);
    // Kept: the fee 100.00; 200.00 + the premium 24.00; 200.00 + the capture 120.50; the second sale 12.99.
    expect(m.body.totals).toMatchObject({
      revenueCents: 10000 + 22400 + 32050 + 1299,
      grossRevenueCents: 10000 + 22400 + 32050 + 1299,
      netRevenueCents: 10000 + 22400 + 32050 + 1299,
      bookingRevenueCents: 10000 + 22400 + 32050,
      posRevenueCents: 1299,
      cancellationFeesCents: 10000,
      premiumsCents: 2400,
      depositCapturesCents: 12050,
      discountsCents: 0,
      taxCents: 97,
      refundsCents: 10000 + 4189,
    });
    const today = m.body.daily.find((d: { date: string }) => d.date === TODAY);
    expect(today).toMatchObject({ posRevenueCents: 1299, taxCents: 97, cancellationFeesCents: 10000, premiumsCents: 2400, depositCapturesCents: 12050 });

    // Inventory performance: the rentals' revenue is metrics' figure; the refunded product earned nothing and sold nothing.
    const perf = await get(`/analytics/inventory-performance?locationIds=${op.locationId}&startDate=${TODAY}&endDate=2027-01-31`, k(op));
    expect(perf.status, perf.text).toBe(200);
    expect(perf.body.rentalRevenueCents).toBe(m.body.totals.bookingRevenueCents);
    expect(perf.body.items[0]).toMatchObject({ inventoryId: item.id, revenueCents: 10000 + 22400 + 32050 });
    expect(perf.body.products.map((p: { revenueCents: number; quantity: number }) => [p.revenueCents, p.quantity])).toEqual([
      [1299, 1],
      [0, 0],
    ]);

    const y = await yoyOf(op, 2027);
    expect(y.status, y.text).toBe(200);
    expect(y.body.months[0].current).toEqual({
      revenueCents: m.body.totals.revenueCents,
      bookingRevenueCents: m.body.totals.bookingRevenueCents,
      posRevenueCents: 1299,
      slipRevenueCents: 0,
      otherRevenueCents: 0,
    });
  });

  it('metrics, year-over-year and the raw ledger say the same revenue for the month: discounts, cancellations, partial refunds', async () => {
    const op = await createOperator({ timezone: TZ, clockAt: CLOCK });
    const item = await rentalItem(op, { assets: 6 });
    const discounted = await paidRental(op, item.id, 1, 15); // 200 less 30.00
    expect(await buyProtection(discounted, 20.4)).toBe(20.4);
    const feeKept = await paidRental(op, item.id, 2, 10); // 180, cancelled by the renter: 90 refunded, 90 kept
    expect(await renterCancelsWithFee(op, feeKept)).toMatchObject({ amount: 90, fee: 90 });
    const byOperator = await paidRental(op, item.id, 5); // cancelled by the operator: reversed, refunded in full
    expect((await post(`/coreBooking/${byOperator}/cancel`, { reason: 'Engine' }, k(op))).status).toBe(200);
    await captureDeposit(op, await paidRental(op, item.id, 6), 33.33);
    const partly = await posSale(op, 7); // 90.93 + 6.82 tax
    await refundPos(op, partly, { refundType: 'partial', amount: 10.01 });
    await refundPos(op, partly, { refundType: 'partial', amount: 20 });
    await refundPos(op, await posSale(op, 2), { refundType: 'partial', amount: 27.93 }); // all of it, in one partial refund

    const m = await metricsOf(op, '2027-01-01', '2027-01-31');
    const y = await yoyOf(op, 2027);
    const ledger = await ledgerRevenue({ customerId: op.customerId, locationId: op.locationId, timezone: TZ, month: '2027-01' });
    const { revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents } = m.body.totals;
    expect({ revenueCents, bookingRevenueCents, posRevenueCents, slipRevenueCents, otherRevenueCents }).toEqual(ledger);
    expect(y.body.months[0].current).toEqual(ledger);
    // By hand: 170 + 20.40 | the fee 90 | 0 | 200 + 33.33 | 90.93 less its refunds' shares of it | 25.98 less all of it.
    // The refunds' shares are cumulative: the first 10.01 of 97.75 take round(10.01 × 90.93 / 97.75) = 9.31, the first 30.01 take
    // round(30.01 × 90.93 / 97.75) = 27.92, so the second refund takes 18.61.
    expect(ledger.revenueCents).toBe(17000 + 2040 + 9000 + 20000 + 3333 + 9093 - 931 - 1861);
    // The cancelled bookings' discounts are reversed with them: 30.00 of the first rental is the only one left.
    expect(m.body.totals).toMatchObject({ grossRevenueCents: ledger.revenueCents + 3000, discountsCents: 3000, posRevenueCents: 9093 - 931 - 1861 });
  });
});
