/**
 * Credits (staff-only adjustments, never below zero under parallel adjustments), family members
 * and organizations (limits under parallel adds, organization membership, delete guard).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createOperator, del, expectError, get, patch, post, type Operator } from '../../harness';
import { act, getM, makeMembership, makeRenter, makeTier } from './factories';

let op: Operator;
beforeAll(async () => {
  op = await createOperator();
});

const adjust = (op: Operator, id: string, amount: number, key = op.adminKey) =>
  post(`/memberships/${id}/credits/adjust`, { customerId: op.customerId, amount, description: `adjust ${amount}` }, { key });

describe('credits', () => {
  it('adds and deducts with history; 400 below zero; staff-only', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    const add = await adjust(op, m.membershipId, 1000);
    expect(add.status, add.text).toBe(200);
    expect(add.body.balance).toBe(1000);
    expect(add.body.history[0]).toMatchObject({ kind: 'adjustment', amount: 1000, balanceAfter: 1000, staffId: op.adminId, description: 'adjust 1000' });
    const sub = await adjust(op, m.membershipId, -400);
    expect(sub.body.balance).toBe(600);
    const over = await adjust(op, m.membershipId, -601);
    expectError(over, 400, 'insufficient_credits');
    expect(over.body.balance).toBe(600);
    const frontDesk = await op.addUser({ role: 'staff', permissions: ['memberships'] });
    expectError(await adjust(op, m.membershipId, 100, frontDesk.key), 403, 'forbidden');
    const overrides = await op.addUser({ role: 'staff', permissions: ['membership_overrides'] });
    expect((await adjust(op, m.membershipId, 100, overrides.key)).status).toBe(200);
    expectError(
      await post(`/memberships/${m.membershipId}/credits/adjust`, { customerId: op.customerId, amount: 0, description: 'x' }, { key: op.adminKey }),
      400,
    );
    const list = await get(`/memberships/${m.membershipId}/credits?customerId=${op.customerId}&limit=2`, { key: op.adminKey });
    expect(list.body.balance).toBe(700);
    expect(list.body.history).toHaveLength(2);
    expect((await getM(op, m.membershipId)).body.creditBalance).toBe(700);
  });

  it('parallel deductions never take the balance below zero', async () => {
    const t = await makeTier(op);
    const m = await makeMembership(op, t.tierId);
    await adjust(op, m.membershipId, 1000);
    const results = await Promise.all(Array.from({ length: 8 }, () => adjust(op, m.membershipId, -300)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBe(3);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 400, 'insufficient_credits');
    const after = await get(`/memberships/${m.membershipId}/credits?customerId=${op.customerId}&limit=50`, { key: op.adminKey });
    expect(after.body.balance).toBe(100);
    expect(after.body.history.every((h: any) => h.balanceAfter >= 0)).toBe(true);
  });
});

describe('family', () => {
  it('adds up to maxMembers (also in parallel), refuses duplicates and tiers without family, removes', async () => {
    const noFamily = await makeTier(op, { name: 'Solo' });
    const solo = await makeMembership(op, noFamily.tierId);
    const kid = await makeRenter(op, { firstName: 'Kid' });
    expectError(await act(op, solo.membershipId, 'family', { renterId: kid.id, email: kid.email }), 400, 'family_not_enabled');

    const t = await makeTier(op, { name: 'Family', familyOptions: { enabled: true, maxMembers: 2 }, allowedMemberTypes: ['individual', 'family'] });
    const m = await makeMembership(op, t.tierId, { memberType: 'family' });
    expect(m.memberType).toBe('family');
    expectError(await act(op, m.membershipId, 'family', { renterId: m.renterId, email: m.memberEmail }), 400, 'already_member');
    const people = await Promise.all([0, 1, 2, 3, 4].map((i) => makeRenter(op, { firstName: `Fam${i}` })));
    const adds = await Promise.all(people.map((p) => act(op, m.membershipId, 'family', { renterId: p.id, email: p.email, name: 'Family Person' })));
    expect(adds.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of adds.filter((x) => x.status !== 200)) expectError(r, 400, 'member_limit_reached');
    const mm = (await getM(op, m.membershipId)).body;
    expect(mm.familyMembers).toHaveLength(2);
    const member = mm.familyMembers[0];
    expectError(await act(op, m.membershipId, 'family', { renterId: member.renterId, email: member.email }), 400, 'already_member');
    expectError(await act(op, m.membershipId, 'family', { renterId: 'rnt_nope', email: 'x@y.test' }), 404, 'not_found');

    const removed = await del(`/memberships/${m.membershipId}/family/${member.renterId}?customerId=${op.customerId}`, undefined, { key: op.adminKey });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.familyMembers).toHaveLength(1);
    expectError(await del(`/memberships/${m.membershipId}/family/${member.renterId}?customerId=${op.customerId}`, undefined, { key: op.adminKey }), 404);
    const spare = people.find((p) => !mm.familyMembers.some((f: any) => f.renterId === p.id))!;
    expect((await act(op, m.membershipId, 'family', { renterId: spare.id, email: spare.email })).status).toBe(200);
  });
});

describe('organizations', () => {
  it('CRUD, authorized renters up to the maximum in parallel, one membership, delete refused while it is live', async () => {
    const created = await post(
      '/memberships/organizations',
      {
        customerId: op.customerId,
        name: 'Acme Yacht Club',
        contactEmail: 'ops@acme.test',
        contactName: 'Ada Ops',
        maxAuthorizedRenters: 3,
        billingAddress: { city: 'Miami' },
      },
      { key: op.adminKey },
    );
    expect(created.status, created.text).toBe(201);
    const org = created.body;
    expect(org).toMatchObject({
      name: 'Acme Yacht Club',
      maxAuthorizedRenters: 3,
      authorizedRenters: [],
      membershipId: null,
      billingAddress: { city: 'Miami' },
    });
    const upd = await patch(`/memberships/organizations/${org.orgId}`, { customerId: op.customerId, contactPhone: '+15555550199' }, { key: op.adminKey });
    expect(upd.status, upd.text).toBe(200);
    expect(upd.body.contactPhone).toBe('+15555550199');

    const people = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => makeRenter(op, { firstName: `Crew${i}` })));
    const adds = await Promise.all(
      people.map((p) => post(`/memberships/organizations/${org.orgId}/members`, { customerId: op.customerId, renterId: p.id }, { key: op.adminKey })),
    );
    expect(adds.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of adds.filter((x) => x.status !== 200)) expectError(r, 400, 'member_limit_reached');
    const members = await get(`/memberships/organizations/${org.orgId}/members?customerId=${op.customerId}`, { key: op.adminKey });
    expect(members.body.data).toHaveLength(3);
    const first = members.body.data[0];
    expect(first.firstName).toMatch(/^Crew/);
    expectError(await patch(`/memberships/organizations/${org.orgId}`, { customerId: op.customerId, maxAuthorizedRenters: 2 }, { key: op.adminKey }), 400);
    const rm = await del(`/memberships/organizations/${org.orgId}/members/${first.renterId}?customerId=${op.customerId}`, undefined, { key: op.adminKey });
    expect(rm.status, rm.text).toBe(200);
    expect(rm.body.data).toHaveLength(2);
    expect(
      (await post(`/memberships/organizations/${org.orgId}/members`, { customerId: op.customerId, renterId: rm.body.data[0].renterId }, { key: op.adminKey }))
        .body.error,
    ).toBe('already_member');

    const individual = await makeTier(op, { name: 'Individuals only' });
    const corp = await makeTier(op, { name: 'Corporate', allowedMemberTypes: ['organization'], pricing: { monthly: 10000 } });
    const body = { customerId: op.customerId, tierId: individual.tierId, billingCycle: 'monthly', paymentMethodId: 'pm_card_visa' };
    expectError(await post(`/memberships/organizations/${org.orgId}/membership`, body, { key: op.adminKey }), 400, 'tier_not_for_organizations');
    const om = await post(`/memberships/organizations/${org.orgId}/membership`, { ...body, tierId: corp.tierId }, { key: op.adminKey });
    expect(om.status, om.text).toBe(201);
    expect(om.body).toMatchObject({
      memberType: 'organization',
      organizationId: org.orgId,
      renterId: null,
      price: 10000,
      status: 'active',
      memberEmail: 'ops@acme.test',
    });
    expectError(
      await post(`/memberships/organizations/${org.orgId}/membership`, { ...body, tierId: corp.tierId }, { key: op.adminKey }),
      400,
      'already_member',
    );
    expectError(
      await post(`/memberships/organizations/${org.orgId}/membership`, { ...body, tierId: corp.tierId, billingCycle: 'yearly' }, { key: op.adminKey }),
      400,
    );

    const got = await get(`/memberships/organizations/${org.orgId}?customerId=${op.customerId}`, { key: op.adminKey });
    expect(got.body.membershipId).toBe(om.body.membershipId);
    const list = await get(`/memberships/organizations?customerId=${op.customerId}`, { key: op.adminKey });
    expect(list.body.data.map((o: any) => o.orgId)).toContain(org.orgId);
    expect((await getM(op, om.body.membershipId)).body.organization).toMatchObject({ orgId: org.orgId, name: 'Acme Yacht Club' });

    expectError(await del(`/memberships/organizations/${org.orgId}?customerId=${op.customerId}`, undefined, { key: op.adminKey }), 400, 'organization_in_use');
    await act(op, om.body.membershipId, 'cancel', { cancelImmediately: true });
    const gone = await del(`/memberships/organizations/${org.orgId}?customerId=${op.customerId}`, undefined, { key: op.adminKey });
    expect(gone.status, gone.text).toBe(200);
    expectError(await get(`/memberships/organizations/${org.orgId}?customerId=${op.customerId}`, { key: op.adminKey }), 404);
  });
});
