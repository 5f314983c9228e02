/**
 * Affiliates: ID availability, create (409 on a taken ID, also racing), list, delete, the PATCH
 * actions, commissions recorded as referred or promo-coded bookings are written (at the rate of
 * that moment), and recalculation excluding cancelled bookings. Every route gets the shared
 * security checks.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { api, createOperator, del, expectError, get, patch, post, type Operator } from '../../harness';
import { checkSecurity, otherOperator } from '../../security';
import { at, book, bookBody, rentalItem, type TestItem } from '../bookings/factories';

let op: Operator;
let item: TestItem;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 20 });
});

let seq = 0;
const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${++seq}`.toUpperCase();
const create = (body: Record<string, unknown>, key = op.adminKey) =>
  post('/affiliate', { customerId: op.customerId, name: 'Sunny', email: 'sunny@aff.test', ...body }, { key });
const action = (a: string, body: Record<string, unknown>) => patch(`/affiliate?action=${a}`, body, { key: op.adminKey });
let day = 3;
/** A 2-hour rental: 200 dollars before discounts. */
const rental = (extra: Record<string, unknown> = {}) => {
  const d = day++;
  return bookBody({ inventoryId: item.id, startTime: at(op.timezone, d, '10:00'), endTime: at(op.timezone, d, '12:00'), extra });
};
const affiliateOf = async (id: string) =>
  (await get(`/affiliate?customerId=${op.customerId}`, { key: op.adminKey })).body.data.find((a: any) => a.affiliateId === id);

describe('affiliates', () => {
  it('checks ID availability, creates with a custom or generated ID, 409 on a taken ID (also racing), lists and deletes', async () => {
    const id = uniq('sun');
    expect((await get(`/affiliate/check-availability?affiliateId=${id}`, { key: op.adminKey })).body).toEqual({ affiliateId: id, available: true });
    const racing = await Promise.all([0, 1, 2].map(() => create({ customAffiliateId: id, percentageEarned: 10 })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of racing.filter((x) => x.status === 409)) expectError(r, 409, 'already_exists');
    expect(racing.find((r) => r.status === 201)!.body).toMatchObject({
      affiliateId: id,
      customAffiliateId: id,
      percentageEarned: 10,
      commissionTotal: 0,
      paidOut: 0,
    });
    expect((await get(`/affiliate/check-availability?affiliateId=${id}`, { key: op.adminKey })).body.available).toBe(false);
    // Another operator cannot take it either (one namespace), and cannot see or delete it.
    const intruder = await otherOperator();
    expectError(
      await post('/affiliate', { customerId: intruder.customerId, name: 'X', email: 'x@x.test', customAffiliateId: id }, { key: intruder.adminKey }),
      409,
    );
    expectError(await del(`/affiliate?affiliateId=${id}`, undefined, { key: intruder.adminKey }), 404, 'not_found');

    const gen = await create({});
    expect(gen.status, gen.text).toBe(201);
    expect(gen.body.affiliateId).toMatch(/^aff_/);
    expect(gen.body.customAffiliateId).toBeNull();
    const list = await get(`/affiliate?customerId=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data.map((a: any) => a.affiliateId)).toEqual(expect.arrayContaining([id, gen.body.affiliateId]));
    const gone = await del(`/affiliate?affiliateId=${gen.body.affiliateId}`, undefined, { key: op.adminKey });
    expect(gone.status, gone.text).toBe(200);
    expectError(await del(`/affiliate?affiliateId=${gen.body.affiliateId}`, undefined, { key: op.adminKey }), 404);
    expectError(await get('/affiliate/check-availability', { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/affiliate', { name: 'No customer', email: 'a@b.test' }, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('PATCH actions: addPayout, editPercentage, addACommission; other actions and missing amounts are 400', async () => {
    const id = uniq('pat');
    await create({ customAffiliateId: id, percentageEarned: 5 });
    const c = await action('addACommission', { affiliateId: id, totalAmount: 120.5 });
    expect(c.status, c.text).toBe(200);
    expect(c.body).toMatchObject({ commissionTotal: 120.5, paidOut: 0, balanceDue: 120.5 });
    const p = await action('addPayout', { affiliateId: id, paidOut: 100 });
    expect(p.body).toMatchObject({ commissionTotal: 120.5, paidOut: 100, balanceDue: 20.5 });
    const e = await action('editPercentage', { affiliateId: id, percentageEarned: 12.5 });
    expect(e.body.percentageEarned).toBe(12.5);
    expectError(await action('deleteEverything', { affiliateId: id }), 400, 'validation_failed');
    expectError(await patch('/affiliate', { affiliateId: id }, { key: op.adminKey }), 400, 'validation_failed');
    expectError(await action('addPayout', { affiliateId: id }), 400, 'bad_request');
    expectError(await action('editPercentage', { affiliateId: id, percentageEarned: 101 }), 400, 'validation_failed');
    expectError(await action('addPayout', { affiliateId: 'NOPE-NOPE', paidOut: 1 }), 404, 'not_found');
  });

  it('referred and promo-coded bookings earn at the rate of their moment; recalculate excludes cancelled bookings', async () => {
    const ref = uniq('ref');
    const promoAff = uniq('pro');
    await create({ customAffiliateId: ref, percentageEarned: 10 });
    await create({ customAffiliateId: promoAff, percentageEarned: 20 });
    const code = uniq('save');
    await env.DB.prepare('UPDATE customers SET settings = ? WHERE id = ?')
      .bind(JSON.stringify({ promoCodes: [{ promoCode: code, Details: { '%Discount': 10 }, affiliateId: promoAff }] }), op.customerId)
      .run();

    const b1 = await book(op, rental({ extendedData: { refAffiliate: ref } }));
    expect(b1.status, b1.text).toBe(201);
    expect((await affiliateOf(ref)).commissionTotal).toBe(20); // 10% of 200
    await action('editPercentage', { affiliateId: ref, percentageEarned: 50 });
    const b2 = await book(op, rental({ extendedData: { refAffiliate: ref } }));
    expect(b2.status, b2.text).toBe(201);
    expect((await affiliateOf(ref)).commissionTotal).toBe(120); // 20 + 50% of 200
    // A promo code: 10% off (basis 180), its affiliate earns 20%: 36. With a referral as well, the referral wins.
    const b3 = await book(op, rental({ discountDetails: { promoCode: code } }));
    expect(b3.status, b3.text).toBe(201);
    expect((await affiliateOf(promoAff)).commissionTotal).toBe(36);
    const b4 = await book(op, rental({ discountDetails: { promoCode: code }, extendedData: { refAffiliate: ref } }));
    expect(b4.status, b4.text).toBe(201);
    expect((await affiliateOf(promoAff)).commissionTotal).toBe(36);
    expect((await affiliateOf(ref)).commissionTotal).toBe(210); // + 50% of 180

    expect((await post(`/coreBooking/${b1.body.rentalId}/cancel`, {}, { key: op.adminKey })).status).toBe(200);
    await action('editPercentage', { affiliateId: ref, percentageEarned: 1 });
    // A booking made before the hook saw it (recorded by recalculate at the current rate).
    await env.DB.prepare("DELETE FROM affiliate_entries WHERE source_id = ? AND source = 'booking_ref'").bind(b4.body.rentalId).run();
    const r = await post('/affiliate/recalculate', { customerId: op.customerId, affiliateId: ref }, { key: op.adminKey });
    expect(r.status, r.text).toBe(200);
    // b1 cancelled (excluded), b2 100 at 50%, b4 re-recorded at 1% of 180 = 1.80.
    expect(r.body.data[0]).toMatchObject({ affiliateId: ref, commissionTotal: 101.8, bookings: 2, excludedBookings: 1 });
    const all = await post('/affiliate/recalculate', { customerId: op.customerId }, { key: op.adminKey });
    expect(all.body.data.find((a: any) => a.affiliateId === promoAff)).toMatchObject({ commissionTotal: 36, bookings: 1 });
    expectError(await post('/affiliate/recalculate', { customerId: op.customerId, affiliateId: 'UNKNOWN-AFF' }, { key: op.adminKey }), 404);
    expectError(await post('/affiliate/recalculate', {}, { key: op.adminKey }), 400, 'validation_failed');
  });

  it('a code of the promo-codes module pays its affiliate once, and recalculate finds it', async () => {
    const aff = uniq('stored');
    await create({ customAffiliateId: aff, percentageEarned: 25 });
    const code = uniq('dock');
    const made = await post(
      '/promoGiftCards',
      { customerId: op.customerId, promoCode: code, ExpiryDate: '2099-12-31', Details: { '%Discount': 10 }, affiliateId: aff },
      { key: op.adminKey },
    );
    expect(made.status, made.text).toBe(201);
    const b = await book(op, rental({ discountDetails: { promoCode: code } }));
    expect(b.status, b.text).toBe(201);
    // 10% off 200 = 180 basis; 25% of it = 45, recorded once by the hook.
    expect((await affiliateOf(aff)).commissionTotal).toBe(45);
    const again = await post('/affiliate/recalculate', { customerId: op.customerId, affiliateId: aff }, { key: op.adminKey });
    expect(again.body.data[0]).toMatchObject({ affiliateId: aff, commissionTotal: 45, bookings: 1 });
    // The code's own report shows the same sale.
    const stats = await get(`/promoGiftCards/affiliate/${aff}?customerId=${op.customerId}`, { key: op.adminKey });
    expect(stats.body).toMatchObject({ uses: 1, commission: 45 });
  });

  it('every route: 401 without credentials, 403 for another operator, 403 without the affiliates permission', async () => {
    const id = uniq('sec');
    await create({ customAffiliateId: id });
    const cid = op.customerId;
    await checkSecurity(op, { method: 'GET', path: `/affiliate/check-availability?affiliateId=${id}` });
    await checkSecurity(op, { method: 'GET', path: `/affiliate?customerId=${cid}`, otherStatus: 403 });
    await checkSecurity(op, { method: 'POST', path: '/affiliate', body: { customerId: cid, name: 'S', email: 's@s.test' }, otherStatus: 403, adminOnly: true });
    await checkSecurity(op, { method: 'DELETE', path: `/affiliate?affiliateId=${id}`, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'PATCH', path: `/affiliate?action=addPayout`, body: { affiliateId: id, paidOut: 1 }, otherStatus: 404, adminOnly: true });
    await checkSecurity(op, { method: 'POST', path: '/affiliate/recalculate', body: { customerId: cid }, otherStatus: 403 });
    expectError(await api('DELETE', `/affiliate?affiliateId=${id}&customerId=${(await otherOperator()).customerId}`, { key: op.adminKey }), 403, 'forbidden');
    expect((await affiliateOf(id)).affiliateId).toBe(id);
  });
});
