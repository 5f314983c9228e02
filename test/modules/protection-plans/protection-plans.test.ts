/** Protection plans through HTTP: catalog, location settings and overrides, premium on the server, purchase once per booking. */
import { describe, it, expect } from 'vitest';
import { createOperator, del, expectError, get, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { at, book, bookBody, eventsOf, rentalItem } from '../bookings/factories';
import { sessionToken } from '../renter-self-service/factories';
import { db } from '../../harness';
import { locations } from '../../../src/db/schema/locations';
import { ledgerEntries } from '../../../src/db/schema/bookings';
import { and, eq } from 'drizzle-orm';

const k = (op: Operator) => ({ key: op.adminKey });
const S = (op: Operator) => `/api/v2/locations/${op.locationId}/protection-settings`;

async function paidBooking(op: Operator, day = 4, paymentMethodId: string | null = 'pm_card_visa') {
  const item = await rentalItem(op); // 100/h
  const r = await book(
    op,
    bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00'), paymentMethodId }),
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { rentalId: string; order: { total: number } };
}
const buy = (rentalId: string, planId: string, calculatedCost: number, headers?: Record<string, string>) =>
  post(`/public/bookings/${rentalId}/protection-plans`, { planId, planName: 'Plan', calculatedCost }, { headers });

describe('protection plan catalog', () => {
  it('lists plans and bundles per industry; inactive plans for admins only', async () => {
    const op = await createOperator();
    const plans = await get('/api/v2/protection-plans');
    expect(plans.status, plans.text).toBe(200);
    expect(plans.body.industry).toBe('marine');
    expect(plans.body.data.map((p: any) => p.planCode)).toEqual(['MARINE_DAMAGE_WAIVER', 'MARINE_CANCELLATION', 'MARINE_FUEL_EQUIPMENT', 'MARINE_WEATHER']);
    expect(plans.body.data[0]).toMatchObject({ name: 'Damage waiver', percentage: 12, minimum: 15, maxCap: 250, enabled: true });
    expectError(await get('/api/v2/protection-plans?includeInactive=true'), 403, 'forbidden');
    const staff = await op.addUser({ role: 'staff' });
    expectError(await get('/api/v2/protection-plans?includeInactive=true', { key: staff.key }), 403, 'forbidden');
    const all = await get('/api/v2/protection-plans?includeInactive=true', k(op));
    expect(all.body.data.some((p: any) => p.active === false)).toBe(true);
    expect((await get('/api/v2/protection-plans?industry=powersports')).body.data).toHaveLength(2);
    expectError(await get('/api/v2/protection-plans?industry=space'), 400, 'validation_failed');
    const bundles = await get('/api/v2/protection-bundles');
    expect(bundles.body.data.map((b: any) => b.bundleCode)).toEqual(['MARINE_ESSENTIALS', 'MARINE_COMPLETE']);
    const one = await get('/api/v2/protection-bundles/MARINE_ESSENTIALS');
    expect(one.body.plans.map((p: any) => p.planCode)).toEqual(['MARINE_DAMAGE_WAIVER', 'MARINE_FUEL_EQUIPMENT']);
    expectError(await get('/api/v2/protection-bundles/NOPE'), 404, 'not_found');
    expect((await get('/api/v2/protection-plans/MARINE_WEATHER')).body.name).toBe('Weather guarantee');
    expectError(await get('/api/v2/protection-plans/MARINE_DAMAGE_WAIVER_2023'), 404, 'not_found');
    expectError(await get('/api/v2/protection-plans/NOPE'), 404, 'not_found');
  });
});

describe('location protection settings', () => {
  it('answers the defaults, then enables, disables, overrides and replaces settings', async () => {
    const op = await createOperator();
    const d = await get(S(op), k(op));
    expect(d.status, d.text).toBe(200);
    expect(d.body).toMatchObject({ isDefault: true, industry: 'marine', planOverrides: {} });
    expect(d.body.enabledPlanCodes).toHaveLength(4);
    const off = await del(`${S(op)}/plan/MARINE_WEATHER`, undefined, k(op));
    expect(off.status, off.text).toBe(200);
    expect(off.body.isDefault).toBe(false);
    expect(off.body.enabledPlanCodes).not.toContain('MARINE_WEATHER');
    expect((await del(`${S(op)}/plan/MARINE_WEATHER`, undefined, k(op))).status).toBe(200);
    expect((await post(`${S(op)}/plan/MARINE_WEATHER`, {}, k(op))).body.enabledPlanCodes).toContain('MARINE_WEATHER');
    expectError(await post(`${S(op)}/plan/NOPE`, {}, k(op)), 404, 'not_found');
    expectError(await post(`${S(op)}/plan/MARINE_DAMAGE_WAIVER_2023`, {}, k(op)), 400);
    expect((await del(`${S(op)}/bundle/MARINE_COMPLETE`, undefined, k(op))).body.enabledBundleCodes).toEqual(['MARINE_ESSENTIALS']);
    expect((await post(`${S(op)}/bundle/MARINE_COMPLETE`, {}, k(op))).body.enabledBundleCodes).toContain('MARINE_COMPLETE');
    expectError(await del(`${S(op)}/bundle/NOPE`, undefined, k(op)), 404, 'not_found');
    const o = await put(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, { percentage: 20, maxCap: 30 }, k(op));
    expect(o.body.planOverrides).toEqual({ MARINE_DAMAGE_WAIVER: { percentage: 20, maxCap: 30 } });
    expectError(await put(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, {}, k(op)), 400, 'validation_failed');
    expectError(await put(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, { percentage: 150 }, k(op)), 400, 'validation_failed');
    expectError(await put(`${S(op)}/override/NOPE`, { percentage: 5 }, k(op)), 404, 'not_found');
    const shown = await get(`/api/v2/protection-plans?locationId=${op.locationId}`);
    expect(shown.body.data[0]).toMatchObject({ percentage: 20, maxCap: 30, overridden: true });
    expect((await del(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, undefined, k(op))).body.planOverrides).toEqual({});
    expect((await del(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, undefined, k(op))).status).toBe(200);
    const p = await put(S(op), { enabledPlanCodes: ['MARINE_DAMAGE_WAIVER'], planOverrides: { MARINE_FUEL_EQUIPMENT: { percentage: 1 } } }, k(op));
    expect(p.body).toMatchObject({ enabledPlanCodes: ['MARINE_DAMAGE_WAIVER'], planOverrides: { MARINE_FUEL_EQUIPMENT: { percentage: 1 } } });
    expectError(await put(S(op), { enabledPlanCodes: ['PS_DAMAGE_WAIVER'] }, k(op)), 400, 'bad_request');
    const ps = await put(S(op), { industry: 'powersports' }, k(op));
    expect(ps.body).toMatchObject({ industry: 'powersports', enabledPlanCodes: ['PS_DAMAGE_WAIVER', 'PS_CANCELLATION'] });
    expectError(await get('/api/v2/locations/loc_nope/protection-settings', k(op)), 404, 'not_found');
  });

  it('every settings route: no credentials 401, another operator 404, staff 403 on changes', async () => {
    const op = await createOperator();
    const staff = await op.addUser({ role: 'staff' });
    const cases = [
      { method: 'GET', path: S(op) },
      { method: 'PUT', path: S(op), body: { enabledPlanCodes: [] }, write: true },
      { method: 'POST', path: `${S(op)}/plan/MARINE_WEATHER`, write: true },
      { method: 'DELETE', path: `${S(op)}/plan/MARINE_WEATHER`, write: true },
      { method: 'POST', path: `${S(op)}/bundle/MARINE_COMPLETE`, write: true },
      { method: 'DELETE', path: `${S(op)}/bundle/MARINE_COMPLETE`, write: true },
      { method: 'PUT', path: `${S(op)}/override/MARINE_WEATHER`, body: { percentage: 3 }, write: true },
      { method: 'DELETE', path: `${S(op)}/override/MARINE_WEATHER`, write: true },
    ];
    for (const c of cases) {
      await checkSecurity(op, { method: c.method, path: c.path, body: c.body, otherStatus: 404 });
      if (c.write) expectError(await (await import('../../harness')).api(c.method, c.path, { body: c.body, key: staff.key }), 403, 'forbidden');
    }
  });
});

describe('buying a protection plan', () => {
  it("computes the premium on the server, charges the booking's card once, adds it to the booking and ledger", async () => {
    const op = await createOperator();
    const bk = await paidBooking(op);
    expect(bk.order.total).toBe(200);
    // 12% of 200.00 = 24.00 (cap 250, minimum 15)
    const wrong = await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 23.5);
    expectError(wrong, 400, 'price_mismatch');
    expect(wrong.body.expectedCost).toBe(24);
    const r = await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 24);
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ premium: 24, charged: true, booking: { total: 224, amountPaid: 224, balanceDue: 0 } });
    expect(r.body.paymentIntentId).toMatch(/^pi_/);
    const again = await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 24);
    expect(again.body).toMatchObject({ charged: false, purchaseId: r.body.purchaseId });
    // Fuel: 5% of 200 = 10.00; the base excludes premiums already bought.
    expect((await buy(bk.rentalId, 'MARINE_FUEL_EQUIPMENT', 10)).body.premium).toBe(10);
    const ev = (await eventsOf(op.customerId, 'payment.completed')).filter((e) => e.payload.data.kind === 'protection_plan');
    expect(ev.map((e) => e.payload.data.amountCents)).toEqual([2400, 1000]);
    // The operator cancels: every line comes back, each from the payment that took it (the plans were their own charges).
    const c = await post(`/coreBooking/${bk.rentalId}/cancel`, {}, k(op));
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 234 });
    expect(c.body.refund.lines.map((l: { kind: string; paid: number; refund: number; kept: number }) => [l.kind, l.paid, l.refund, l.kept])).toEqual([
      ['rental', 200, 200, 0],
      ['protection_plan', 24, 24, 0],
      ['protection_plan', 10, 10, 0],
    ]);
    const refunds = (await eventsOf(op.customerId, 'payment.refunded')).map((e) => [e.payload.data.paymentIntentId, e.payload.data.amountCents]);
    expect(refunds).toHaveLength(3);
    expect(refunds).toContainEqual([r.body.paymentIntentId, 2400]);
    expect((await get(`/coreBooking/${bk.rentalId}`, k(op))).body.pricing).toMatchObject({ total: 0, amountPaid: 0, balanceDue: 0 });
    expectError(await buy(bk.rentalId, 'MARINE_CANCELLATION', 16), 400, 'bad_request');
  });

  it("applies the location's override (cap) and the plan minimum; refuses plans not offered and bookings without a card", async () => {
    const op = await createOperator();
    await put(`${S(op)}/override/MARINE_DAMAGE_WAIVER`, { percentage: 20, maxCap: 30 }, k(op));
    await put(`${S(op)}/override/MARINE_FUEL_EQUIPMENT`, { percentage: 1 }, k(op));
    await del(`${S(op)}/plan/MARINE_WEATHER`, undefined, k(op));
    const bk = await paidBooking(op);
    expect((await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 30)).body.premium).toBe(30); // 40.00 capped at 30.00
    expect((await buy(bk.rentalId, 'MARINE_FUEL_EQUIPMENT', 5)).body.premium).toBe(5); // 2.00 floored to 5.00
    expectError(await buy(bk.rentalId, 'MARINE_WEATHER', 12), 400, 'plan_not_offered');
    expectError(await buy(bk.rentalId, 'NOPE', 12), 400, 'plan_not_offered');
    const unpaid = await paidBooking(op, 6, null);
    expectError(await buy(unpaid.rentalId, 'MARINE_CANCELLATION', 16), 400, 'no_payment_method');
    expectError(await buy('bk_nope', 'MARINE_CANCELLATION', 16), 404, 'not_found');
    expectError(await post(`/public/bookings/${bk.rentalId}/protection-plans`, {}), 400, 'validation_failed');
  });

  it('ten parallel purchases of one plan charge once', async () => {
    const op = await createOperator();
    const bk = await paidBooking(op);
    const rs = await Promise.all(Array.from({ length: 10 }, () => buy(bk.rentalId, 'MARINE_CANCELLATION', 16)));
    for (const r of rs) expect([200, 409]).toContain(r.status);
    expect(rs.filter((r) => r.status === 200 && r.body.charged)).toHaveLength(1);
    const ev = (await eventsOf(op.customerId, 'payment.completed')).filter((e) => e.payload.data.kind === 'protection_plan');
    expect(ev).toHaveLength(1);
  });
});

describe('protection plans when the renter cancels (refunds by line)', () => {
  type Line = { kind: string; paid: number; refund: number; kept: number; rule: string };
  const rows = (lines: Line[]) => lines.map((l) => [l.kind, l.paid, l.refund, l.kept]);
  const halfRefund = (op: Operator) =>
    db()
      .update(locations)
      .set({
        details: {
          cancellationPolicy: {
            tiers: [
              { hoursBefore: 24, refundPercent: 50 },
              { hoursBefore: 0, refundPercent: 0 },
            ],
          },
        },
      })
      .where(eq(locations.id, op.locationId));

  it('a cancellation cover raises the rental to its 100% and keeps its own premium, saying so; a damage waiver comes back in full', async () => {
    const op = await createOperator();
    await halfRefund(op);
    const bk = await paidBooking(op);
    const waiver = await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 24);
    expect(waiver.status, waiver.text).toBe(200);
    expect((await buy(bk.rentalId, 'MARINE_CANCELLATION', 16)).status).toBe(200);
    const quote = await get(`/public/bookings/${bk.rentalId}/cancellation-eligibility`);
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body.refund).toMatchObject({ percent: 100, amount: 224, paid: 240, fee: 16 });
    expect(rows(quote.body.refund.lines)).toEqual([
      ['rental', 200, 200, 0],
      ['protection_plan', 24, 24, 0],
      ['protection_plan', 16, 0, 16],
    ]);
    expect(quote.body.refund.lines[0].rule).toMatch(/cancellation cover/);
    expect(quote.body.refund.lines[2].rule).toMatch(/^Kept: the cancellation cover was in force/);

    const token = await sessionToken(op, bk.rentalId);
    const c = await post(`/public/bookings/${bk.rentalId}/cancel`, {}, { headers: { 'x-renter-token': token } });
    expect(c.status, c.text).toBe(200);
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 224, fee: 16 });
    expect(c.body.refund.refundIds).toHaveLength(2);
    const refunded = (await eventsOf(op.customerId, 'payment.refunded')).map((e) => [e.payload.data.paymentIntentId, e.payload.data.amountCents]);
    expect(refunded).toContainEqual([waiver.body.paymentIntentId, 2400]);
    expect(refunded.map((x) => x[1]).sort()).toEqual([20000, 2400].sort());
    // The premium kept is a line of the ledger (revenue reports count it), and the renter owes nothing.
    const entries = await db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.customerId, op.customerId), eq(ledgerEntries.rentalId, bk.rentalId)))
      .all();
    expect(entries.filter((e) => e.entryType === 'protection_plan').reduce((s, e) => s + e.amount, 0)).toBe(1600);
    expect(entries.filter((e) => e.affectsBalance).reduce((s, e) => s + e.amount, 0)).toBe(0);
    const read = await get(`/coreBooking/${bk.rentalId}`, k(op));
    expect(read.body.status).toBe('cancelled');
    expect(read.body.pricing).toMatchObject({ total: 16, amountPaid: 16, balanceDue: 0 });
  });

  it('without a cover the rental follows the policy (50%) and the waiver still comes back in full', async () => {
    const op = await createOperator();
    await halfRefund(op);
    const bk = await paidBooking(op);
    expect((await buy(bk.rentalId, 'MARINE_DAMAGE_WAIVER', 24)).status).toBe(200);
    const token = await sessionToken(op, bk.rentalId);
    const c = await post(`/public/bookings/${bk.rentalId}/cancel`, {}, { headers: { 'x-renter-token': token } });
    expect(c.status, c.text).toBe(200);
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 124, fee: 100, percent: 50 });
    expect(rows(c.body.refund.lines)).toEqual([
      ['rental', 200, 100, 100],
      ['protection_plan', 24, 24, 0],
    ]);
    expect((await get(`/coreBooking/${bk.rentalId}`, k(op))).body.pricing).toMatchObject({ total: 100, amountPaid: 100, balanceDue: 0 });
  });
});
