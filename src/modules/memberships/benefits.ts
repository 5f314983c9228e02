/**
 * What bookings read at checkout: the benefit a renter gets from an active membership — their own,
 * one they are a family member of, or their organization's — and the credits it holds. Past-due,
 * paused and canceled memberships give nothing.
 *
 * It is ONE read (a batchable query: the booking commit can put it in its first batched read): the
 * renter is matched by e-mail inside the statement, the candidates come from the three paths, and
 * each carries its tier and credit balance.
 */
import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { reusable, type DB } from '../../db/client';
import { normalizeEmail } from '../renters/service';
import type { MemberBenefit } from './types';

export function memberBenefitQuery(db: DB, customerId: string, email: string) {
  // Built once per isolate (`reusable`): every priced sale looks the renter's benefit up.
  const c = sql.placeholder('customerId');
  return reusable(db, 'memberships|benefit', () => benefitQuery(db, c, sql.placeholder('email')), { customerId, email: normalizeEmail(email) });
}

function benefitQuery(db: DB, customerId: SQLWrapper, e: SQLWrapper) {
  return db
    .select({
      membershipId: sql<string>`b.membership_id`,
      via: sql<MemberBenefit['via']>`b.via`,
      tierId: sql<string>`b.tier_id`,
      tierName: sql<string>`b.tier_name`,
      benefits: sql<string | null>`b.benefits`,
      scope: sql<MemberBenefit['scope']>`b.scope`,
      locationIds: sql<string | null>`b.location_ids`,
      creditBalance: sql<number>`b.credit_balance`,
    })
    .from(
      sql`(WITH r AS (SELECT id FROM renters WHERE customer_id = ${customerId} AND email = ${e} AND deleted_at IS NULL),
        c AS (
          SELECT m.id AS membership_id, 'member' AS via FROM memberships m JOIN r ON m.renter_id = r.id WHERE m.customer_id = ${customerId}
          UNION ALL
          SELECT f.membership_id, 'family' FROM membership_family f JOIN r ON f.renter_id = r.id WHERE f.customer_id = ${customerId}
          UNION ALL
          SELECT m.id, 'organization' FROM organization_members om JOIN r ON om.renter_id = r.id
            JOIN memberships m ON m.customer_id = om.customer_id AND m.member_key = 'org:' || om.organization_id
            WHERE om.customer_id = ${customerId})
        SELECT c.membership_id, c.via, t.id AS tier_id, t.name AS tier_name, t.benefits, t.scope, t.location_ids,
          (SELECT coalesce(sum(mc.amount), 0) FROM membership_credits mc WHERE mc.membership_id = c.membership_id) AS credit_balance
        FROM c JOIN memberships m ON m.id = c.membership_id AND m.status = 'active'
          JOIN membership_tiers t ON t.id = m.tier_id) AS b`,
    );
}

type BenefitRow = Awaited<ReturnType<ReturnType<typeof memberBenefitQuery>['all']>>[number];

const parse = <T>(v: unknown, dflt: T): T => {
  if (typeof v !== 'string') return (v as T) ?? dflt;
  try {
    return JSON.parse(v) as T;
  } catch {
    return dflt;
  }
};

/** The best benefit among the rows of `memberBenefitQuery` (highest discount, then most credits), or null. */
export function memberBenefitFrom(rows: BenefitRow[]): MemberBenefit | null {
  const all = rows.map((r) => {
    const benefits = parse<Record<string, unknown>>(r.benefits, {});
    const pct = Number(benefits.discountPercentage ?? 0);
    return {
      membershipId: r.membershipId,
      tierId: r.tierId,
      tierName: r.tierName,
      via: r.via,
      discountPercentage: Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0,
      creditBalance: Number(r.creditBalance ?? 0),
      scope: r.scope,
      locationIds: parse<string[]>(r.locationIds, []),
    } satisfies MemberBenefit;
  });
  all.sort((a, b) => b.discountPercentage - a.discountPercentage || b.creditBalance - a.creditBalance);
  return all[0] ?? null;
}

/** The best active membership benefit of the renter with this e-mail at this operator, or null. */
export async function memberBenefitFor(ctx: Ctx, customerId: string, email: string): Promise<MemberBenefit | null> {
  return memberBenefitFrom(await memberBenefitQuery(ctx.db, customerId, email).all());
}

/** Whether the benefit applies at a location (the tier's scope). */
export const benefitAppliesAt = (b: MemberBenefit, locationId: string) => b.scope === 'all_locations' || b.locationIds.includes(locationId);
