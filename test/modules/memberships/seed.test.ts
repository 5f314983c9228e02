/** The sandbox seed's membership step: tiers, an organization, an affiliate and an active member, once. */
import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { seedSandbox } from '../../../src/seed';
import { DEMO_MEMBERSHIPS } from '../../../src/seed/memberships';

describe('memberships seed', () => {
  it("seeds the demo tiers, organization, affiliate and Alice's membership idempotently", async () => {
    const first = await seedSandbox(env);
    expect(first.memberships).toBe(true);
    const tiers = await env.DB.prepare("SELECT id, is_public FROM membership_tiers WHERE customer_id = 'cus_demo_marina' ORDER BY display_order").all<any>();
    expect(tiers.results.map((t: any) => t.id)).toEqual([DEMO_MEMBERSHIPS.clubTier, DEMO_MEMBERSHIPS.basicTier]);
    const m = await env.DB.prepare("SELECT status, tier_id, price FROM memberships WHERE customer_id = 'cus_demo_marina' AND member_email = ?")
      .bind(DEMO_MEMBERSHIPS.memberEmail)
      .all<any>();
    expect(m.results).toEqual([{ status: 'active', tier_id: DEMO_MEMBERSHIPS.clubTier, price: 4900 }]);
    expect(await env.DB.prepare('SELECT id FROM affiliates WHERE id = ?').bind(DEMO_MEMBERSHIPS.affiliate).first()).toBeTruthy();
    const again = await seedSandbox(env);
    expect(again.memberships).toBe(false);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM memberships WHERE customer_id = 'cus_demo_marina'").first<any>();
    expect(n.n).toBe(1);
  });
});
