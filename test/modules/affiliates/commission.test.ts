/**
 * Issue 31: an affiliate's commission is one figure everywhere. What `POST /promoGiftCards/use`
 * answers is in the affiliate's total; the affiliate's total (`GET /affiliate`), the code report
 * (`GET /promoGiftCards/affiliate/{id}`) and `POST /affiliate/recalculate` agree; a cancelled booking's
 * commission is reversed at once.
 */
import { describe, it, expect } from 'vitest';
import { createOperator, get, post, type Operator } from '../../harness';
import { at, book, bookBody, rentalItem } from '../bookings/factories';

const k = (op: Operator) => ({ key: op.adminKey });
const affiliateOf = async (op: Operator, id: string) =>
  (await get(`/affiliate?customerId=${op.customerId}`, k(op))).body.data.find((a: { affiliateId: string }) => a.affiliateId === id);
const codeReport = async (op: Operator, id: string) => (await get(`/promoGiftCards/affiliate/${id}?customerId=${op.customerId}`, k(op))).body;
const recalculate = async (op: Operator, id: string) =>
  (await post('/affiliate/recalculate', { customerId: op.customerId, affiliateId: id }, k(op))).body.data[0];

/** The three figures of the affiliate's commission: its total, its codes' report, and the total after recalculation. */
async function figures(op: Operator, id: string) {
  const total = (await affiliateOf(op, id)).commissionTotal;
  const report = (await codeReport(op, id)).commission;
  const recalculated = (await recalculate(op, id)).commissionTotal;
  return { total, report, recalculated };
}

describe('affiliate commission: one figure everywhere', () => {
  it('counts an API use of the code, and reverses a cancelled booking everywhere at once', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const aff = `ANN-${Date.now().toString(36)}`.toUpperCase();
    expect(
      (await post('/affiliate', { customerId: op.customerId, name: 'Ann', email: 'ann@aff.test', customAffiliateId: aff, percentageEarned: 10 }, k(op))).status,
    ).toBe(201);
    const code = `DOCK-${Date.now().toString(36)}`.toUpperCase();
    const made = await post(
      '/promoGiftCards',
      { customerId: op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { '%Discount': 10 }, affiliateId: aff },
      k(op),
    );
    expect(made.status, made.text).toBe(201);

    // A 2-hour rental with the code: 200 less 10% = 180; 10% of it = 18.00.
    const b = await book(
      op,
      bookBody({
        inventoryId: item.id,
        startTime: at(op.timezone, 3, '10:00'),
        endTime: at(op.timezone, 3, '12:00'),
        extra: { discountDetails: { promoCode: code } },
      }),
    );
    expect(b.status, b.text).toBe(201);
    expect((await affiliateOf(op, aff)).commissionTotal).toBe(18);

    // An order through the API: 100 less 10% = 90; 10% of it = 9.00, answered and counted.
    const use = await post('/promoGiftCards/use', { promoCode: code, customerId: op.customerId, orderAmount: 100 }, k(op));
    expect(use.status, use.text).toBe(200);
    expect(use.body).toMatchObject({ affiliateId: aff, commission: 9, commissionRate: 10 });
    expect(await figures(op, aff)).toEqual({ total: 27, report: 27, recalculated: 27 });
    expect(await affiliateOf(op, aff)).toMatchObject({ commissionTotal: 27, balanceDue: 27 });

    // The booking is cancelled: its 18.00 goes, everywhere, before and after recalculation.
    expect((await post(`/coreBooking/${b.body.rentalId}/cancel`, {}, k(op))).status).toBe(200);
    expect((await affiliateOf(op, aff)).commissionTotal).toBe(9);
    expect(await figures(op, aff)).toEqual({ total: 9, report: 9, recalculated: 9 });
    expect((await codeReport(op, aff)).codes).toEqual([{ promoCode: code, uses: 1, revenue: 90, commission: 9 }]);
  });

  it('a referral that wins over the code is reported once, for the referring affiliate', async () => {
    const op = await createOperator();
    const item = await rentalItem(op, { assets: 3 });
    const stamp = Date.now().toString(36).toUpperCase();
    const [ref, owner] = [`REF-${stamp}`, `OWN-${stamp}`];
    for (const id of [ref, owner])
      expect(
        (await post('/affiliate', { customerId: op.customerId, name: id, email: 'a@aff.test', customAffiliateId: id, percentageEarned: 20 }, k(op))).status,
      ).toBe(201);
    const code = `SAIL-${stamp}`;
    await post(
      '/promoGiftCards',
      { customerId: op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { '%Discount': 10 }, affiliateId: owner },
      k(op),
    );
    const b = await book(
      op,
      bookBody({
        inventoryId: item.id,
        startTime: at(op.timezone, 4, '10:00'),
        endTime: at(op.timezone, 4, '12:00'),
        extra: { discountDetails: { promoCode: code }, extendedData: { refAffiliate: ref } },
      }),
    );
    expect(b.status, b.text).toBe(201);
    // The referral earns 20% of 180 = 36; the code's own affiliate earns nothing on this sale, and its report says so.
    expect((await affiliateOf(op, ref)).commissionTotal).toBe(36);
    expect(await figures(op, owner)).toEqual({ total: 0, report: 0, recalculated: 0 });
    expect((await codeReport(op, owner)).uses).toBe(1);
  });
});
