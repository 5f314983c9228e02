/**
 * What bookings read at checkout: the benefit a renter gets from an active membership — their own,
 * one they are a family member of, or their organization's — and the credits it holds. Past-due,
 * paused and canceled memberships give nothing.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { membershipTiers } from '../../db/schema/memberships';
import { findRenterByEmail } from '../renters/service';
import { creditBalanceOf } from './queries';
import type { MemberBenefit } from './types';
import { benefitsOf } from './views';

interface Candidate {
  membership_id: string;
  tier_id: string;
  via: MemberBenefit['via'];
}

/** The best active membership benefit of the renter with this e-mail at this operator (highest discount first), or null. */
export async function memberBenefitFor(ctx: Ctx, customerId: string, email: string): Promise<MemberBenefit | null> {
  const renter = await findRenterByEmail(ctx, customerId, email);
  if (!renter || renter.deletedAt) return null;
  const rows = await ctx.db.all<Candidate>(sql`
    SELECT m.id AS membership_id, m.tier_id AS tier_id, 'member' AS via FROM memberships m
      WHERE m.customer_id = ${customerId} AND m.renter_id = ${renter.id} AND m.status = 'active'
    UNION ALL
    SELECT m.id, m.tier_id, 'family' FROM membership_family f JOIN memberships m ON m.id = f.membership_id
      WHERE f.customer_id = ${customerId} AND f.renter_id = ${renter.id} AND m.status = 'active'
    UNION ALL
    SELECT m.id, m.tier_id, 'organization' FROM organization_members om
      JOIN memberships m ON m.customer_id = om.customer_id AND m.member_key = 'org:' || om.organization_id
      WHERE om.customer_id = ${customerId} AND om.renter_id = ${renter.id} AND m.status = 'active'`);
  if (!rows.length) return null;
  const tiers = await ctx.db
    .select()
    .from(membershipTiers)
    .where(
      and(
        eq(membershipTiers.customerId, customerId),
        inArray(
          membershipTiers.id,
          rows.map((r) => r.tier_id),
        ),
      ),
    )
    .all();
  const best = rows
    .map((r) => ({ r, t: tiers.find((t) => t.id === r.tier_id) }))
    .filter((x) => x.t)
    .sort((a, b) => benefitsOf(b.t!).discountPercentage - benefitsOf(a.t!).discountPercentage)[0];
  if (!best) return null;
  return {
    membershipId: best.r.membership_id,
    tierId: best.t!.id,
    tierName: best.t!.name,
    via: best.r.via,
    discountPercentage: benefitsOf(best.t!).discountPercentage,
    creditBalance: await creditBalanceOf(ctx, best.r.membership_id),
    scope: best.t!.scope,
    locationIds: best.t!.locationIds ?? [],
  };
}

/** Whether the benefit applies at a location (the tier's scope). */
export const benefitAppliesAt = (b: MemberBenefit, locationId: string) => b.scope === 'all_locations' || b.locationIds.includes(locationId);
