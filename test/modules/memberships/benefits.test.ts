/**
 * Membership benefits at checkout (POST /coreBooking/book): the tier's discount as its own pricing
 * line for members, family members and authorized renters, within the tier's scope, none when
 * past due or paused; credits paying part of a booking, refused beyond the balance, given back when
 * the booking is cancelled.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { env } from 'cloudflare:test';
import { createOperator, expectError, get, post, type Operator } from '../../harness';
import { at, book, bookBody, rentalItem, type TestItem } from '../bookings/factories';
import { act, makeMembership, makeRenter, makeTier } from './factories';

let op: Operator;
let item: TestItem;
let tierId: string;
beforeAll(async () => {
  op = await createOperator();
  item = await rentalItem(op, { assets: 20 });
  tierId = (
    await makeTier(op, {
      name: 'Captains Club',
      benefits: { discountPercentage: 10 },
      pausePolicy: { enabled: true },
      familyOptions: { enabled: true, maxMembers: 3 },
      allowedMemberTypes: ['individual', 'family', 'organization'],
    })
  ).tierId;
});

let slot = 0;
/** A 2-hour rental (100 dollars an hour: 200 dollars before discounts) on its own day. */
const rental = (email: string, extra: Record<string, unknown> = {}) => {
  const day = 3 + slot++;
  return bookBody({ inventoryId: item.id, startTime: at(op.timezone, day, '10:00'), endTime: at(op.timezone, day, '12:00'), email, extra });
};

const creditsOf = async (membershipId: string) => (await get(`/memberships/${membershipId}/credits?customerId=${op.customerId}`, { key: op.adminKey })).body;

describe('discount at checkout', () => {
  it("an active member's booking shows the membership discount as its own line", async () => {
    const m = await makeMembership(op, tierId);
    const r = await book(op, rental(m.memberEmail));
    expect(r.status, r.text).toBe(201);
    const breakdown = r.body.pricing.breakdown;
    expect(breakdown.discounts).toEqual([{ type: 'membership', code: 'Captains Club', percent: 10, amount: 20 }]);
    expect(r.body.pricing).toMatchObject({ subtotal: 200, discountTotal: 20, total: 180, amountPaid: 180 });
    const ledger = await env.DB.prepare("SELECT amount, description FROM ledger_entries WHERE rental_id = ? AND entry_type = 'discount'")
      .bind(r.body.rentalId)
      .all<any>();
    expect(ledger.results).toEqual([{ amount: -2000, description: 'Discount Captains Club' }]);
    // A client total that ignores the discount is refused with the server's breakdown.
    expectError(await book(op, { ...rental(m.memberEmail), rentalPricing: { total: 200 } }), 400, 'price_mismatch');
    // Not a member: no discount.
    const other = await book(op, rental('stranger@renter.test'));
    expect(other.body.pricing.breakdown.discounts).toEqual([]);
  });

  it('family members and authorized renters of an organization get it too; paused and past-due memberships give nothing', async () => {
    const m = await makeMembership(op, tierId);
    const kid = await makeRenter(op, { firstName: 'Kid' });
    expect((await act(op, m.membershipId, 'family', { renterId: kid.id, email: kid.email })).status).toBe(200);
    expect((await book(op, rental(kid.email))).body.pricing.discountTotal).toBe(20);

    const org = (
      await post(
        '/memberships/organizations',
        { customerId: op.customerId, name: 'Crew Co', contactEmail: 'crew@co.test', contactName: 'Cc' },
        { key: op.adminKey },
      )
    ).body;
    const crew = await makeRenter(op, { firstName: 'Crew' });
    await post(`/memberships/organizations/${org.orgId}/members`, { customerId: op.customerId, renterId: crew.id }, { key: op.adminKey });
    expect((await book(op, rental(crew.email))).body.pricing.discountTotal).toBe(0);
    const om = await post(
      `/memberships/organizations/${org.orgId}/membership`,
      { customerId: op.customerId, tierId, billingCycle: 'monthly', paymentMethodId: 'pm_card_visa' },
      { key: op.adminKey },
    );
    expect(om.status, om.text).toBe(201);
    expect((await book(op, rental(crew.email))).body.pricing.discountTotal).toBe(20);

    expect((await act(op, m.membershipId, 'pause')).status).toBe(200);
    expect((await book(op, rental(m.memberEmail))).body.pricing.discountTotal).toBe(0);
    expect((await book(op, rental(kid.email))).body.pricing.discountTotal).toBe(0);
    await act(op, m.membershipId, 'resume');
    await env.DB.prepare("UPDATE memberships SET status = 'past_due' WHERE id = ?").bind(m.membershipId).run();
    expect((await book(op, rental(m.memberEmail))).body.pricing.discountTotal).toBe(0);
  });

  it("applies only at the tier's locations", async () => {
    const scoped = await makeTier(op, { name: 'Elsewhere', benefits: { discountPercentage: 50 }, scope: 'selected_locations', locationIds: ['loc_elsewhere'] });
    const m = await makeMembership(op, scoped.tierId);
    expect((await book(op, rental(m.memberEmail))).body.pricing.discountTotal).toBe(0);
  });
});

describe('credits at checkout', () => {
  it('pays part of a booking with credits, the card the rest; a cancellation gives the credits back', async () => {
    const m = await makeMembership(op, tierId);
    await post(`/memberships/${m.membershipId}/credits/adjust`, { customerId: op.customerId, amount: 5000, description: 'welcome' }, { key: op.adminKey });
    expectError(await book(op, rental(m.memberEmail, { membershipCredits: { amount: 60 } })), 400, 'insufficient_credits');
    const r = await book(op, rental(m.memberEmail, { membershipCredits: { amount: 30 } }));
    expect(r.status, r.text).toBe(201);
    expect(r.body.order).toMatchObject({ total: 180, amountPaid: 180, balanceDue: 0 });
    expect(r.body.payment).toMatchObject({ status: 'paid', amountCharged: 150 });
    expect((await creditsOf(m.membershipId)).balance).toBe(2000);
    const pays = await env.DB.prepare("SELECT amount, source FROM ledger_entries WHERE rental_id = ? AND entry_type = 'payment' ORDER BY source")
      .bind(r.body.rentalId)
      .all<any>();
    expect(pays.results).toEqual([
      { amount: -15000, source: 'card' },
      { amount: -3000, source: 'membership_credits' },
    ]);

    const c = await post(`/coreBooking/${r.body.rentalId}/cancel`, {}, { key: op.adminKey });
    expect(c.status, c.text).toBe(200);
    expect(c.body.refund).toMatchObject({ status: 'succeeded', amount: 150 });
    const after = await creditsOf(m.membershipId);
    expect(after.balance).toBe(5000);
    expect(after.history[0]).toMatchObject({ kind: 'booking_refund', amount: 3000, reference: r.body.rentalId });
    await post(`/coreBooking/${r.body.rentalId}/cancel`, {}, { key: op.adminKey });
    expect((await creditsOf(m.membershipId)).balance).toBe(5000);
  });

  it('credits can pay a whole booking without a card; asking without a membership is 400', async () => {
    const m = await makeMembership(op, tierId);
    await post(`/memberships/${m.membershipId}/credits/adjust`, { customerId: op.customerId, amount: 50000, description: 'lots' }, { key: op.adminKey });
    const body = rental(m.memberEmail, { membershipCredits: {} });
    delete (body as any).paymentMethodId;
    const r = await book(op, body);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ status: 'confirmed', payment: { status: 'paid', amountCharged: 0, paymentIntentId: null } });
    expect((await creditsOf(m.membershipId)).balance).toBe(32000);
    expectError(await book(op, rental('nobody-member@renter.test', { membershipCredits: {} })), 400, 'bad_request');
  });

  it('parallel bookings never spend more credits than the balance', async () => {
    const m = await makeMembership(op, tierId);
    await post(`/memberships/${m.membershipId}/credits/adjust`, { customerId: op.customerId, amount: 10000, description: 'race' }, { key: op.adminKey });
    const results = await Promise.all([0, 1, 2].map(() => book(op, rental(m.memberEmail, { membershipCredits: { amount: 40 } }))));
    const ok = results.filter((x) => x.status === 201);
    expect(ok.length).toBe(2);
    for (const x of results.filter((y) => y.status !== 201)) expectError(x, 400, 'insufficient_credits');
    const credits = await creditsOf(m.membershipId);
    expect(credits.balance).toBe(2000);
    expect(credits.history.every((h: any) => h.balanceAfter >= 0)).toBe(true);
  });
});
