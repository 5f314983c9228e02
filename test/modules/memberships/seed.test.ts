/**
 * The sandbox seed's membership step: tiers, an organization, an affiliate and an active member,
 * once. The step is checked on a private operator of this test's own (`seedDemoOperator` writes Demo
 * Marina's operator data for any id), so the file needs no empty database; Demo Marina's own run
 * (the fixed ids of the README) is checked by "seeded, idempotent, the data is there" (other files
 * in this runtime may have seeded it first).
 */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedDemoOperator, seedSandbox, SEED, tagOf } from '../../../src/seed';
import { DEMO_MEMBERSHIPS, membershipIds } from '../../../src/seed/memberships';
import { systemCtx } from '../../../src/lib/context';
import { newId } from '../../../src/lib/ids';

const tiersOf = async (customerId: string) =>
  (await env.DB.prepare('SELECT id, is_public FROM membership_tiers WHERE customer_id = ? ORDER BY display_order').bind(customerId).all<any>()).results.map(
    (t: any) => t.id,
  );
const membersOf = async (customerId: string, email: string) =>
  (await env.DB.prepare('SELECT status, tier_id, price FROM memberships WHERE customer_id = ? AND member_email = ?').bind(customerId, email).all<any>())
    .results;
const affiliate = (id: string) => env.DB.prepare('SELECT id FROM affiliates WHERE id = ?').bind(id).first();

describe('memberships seed', () => {
  it("seeds the demo tiers, organization, affiliate and Alice's membership idempotently", async () => {
    const ctx = systemCtx(env);
    const first = await seedDemoOperator(ctx, { customerId: newId('cus') });
    expect(first.seeded.memberships).toBe(true);
    const ids = membershipIds({ tag: tagOf(first.customerId) });
    expect(await tiersOf(first.customerId)).toEqual([ids.clubTier, ids.basicTier]);
    expect(await membersOf(first.customerId, ids.memberEmail)).toEqual([{ status: 'active', tier_id: ids.clubTier, price: 4900 }]);
    expect(await affiliate(ids.affiliate)).toBeTruthy();
    const again = await seedDemoOperator(ctx, { customerId: first.customerId });
    expect(again.seeded.memberships).toBe(false);
    const n = await env.DB.prepare('SELECT count(*) AS n FROM memberships WHERE customer_id = ?').bind(first.customerId).first<any>();
    expect(n.n).toBe(1);
  });

  it("gives Demo Marina the tiers, Alice's membership and the affiliate with their fixed ids, idempotently", async () => {
    await seedSandbox(env);
    expect((await seedSandbox(env)).memberships).toBe(false);
    const D = SEED.demo.customerId;
    expect(await tiersOf(D)).toEqual([DEMO_MEMBERSHIPS.clubTier, DEMO_MEMBERSHIPS.basicTier]);
    // Its status is checked on the private operator above: Demo Marina's records are shared with the other files of this runtime.
    expect((await membersOf(D, DEMO_MEMBERSHIPS.memberEmail)).map((m: any) => m.tier_id)).toEqual([DEMO_MEMBERSHIPS.clubTier]);
    expect(await affiliate(DEMO_MEMBERSHIPS.affiliate)).toBeTruthy();
  });
});
