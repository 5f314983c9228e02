import { and, eq, inArray } from 'drizzle-orm';
import { DEMO_OPERATOR, demoId, type DemoOperator, type OperatorSeedStep } from './types';
import type { Ctx } from '../lib/context';
import { memberships, membershipTiers, organizations } from '../db/schema/memberships';
import { affiliates } from '../db/schema/affiliates';
import { renters } from '../db/schema/bookings';
import { createMembership } from '../modules/memberships/service';

/**
 * The ids of an operator's membership records. An affiliate's id is its public affiliate ID, unique
 * across the platform: `SUNNY-DAYS` for Demo Marina, `SUNNY-DAYS-<TAG>` for a private operator.
 */
export const membershipIds = (op: { tag: string }) => ({
  clubTier: demoId(op, 'mtr', 'captains_club'),
  basicTier: demoId(op, 'mtr', 'marina_basic'),
  organization: demoId(op, 'org', 'biscayne_sailing'),
  affiliate: op.tag === 'demo' ? 'SUNNY-DAYS' : `SUNNY-DAYS-${op.tag.toUpperCase()}`,
  memberEmail: 'alice.jones@renter.test',
});

/** Fixed ids of the sandbox's membership records (README examples use them). */
export const DEMO_MEMBERSHIPS = membershipIds(DEMO_OPERATOR);

/**
 * Two tiers (the public "Captain's Club" with a 10% booking discount, monthly credits, pauses and
 * family members; "Marina Basic"), an organization, an affiliate, and an active membership of the
 * demo renter Alice Jones (paid with the simulator's test card; its period starts at the clock's
 * now, through the membership service). Idempotent.
 */
async function seedMemberships(ctx: Ctx, op: DemoOperator): Promise<boolean> {
  const db = ctx.db;
  const ids = membershipIds(op);
  const have = await db
    .select({ id: membershipTiers.id })
    .from(membershipTiers)
    .where(inArray(membershipTiers.id, [ids.clubTier, ids.basicTier]))
    .all();
  let wrote = false;
  if (have.length < 2) {
    await db.batch([
      db
        .insert(membershipTiers)
        .values({
          id: ids.clubTier,
          customerId: op.customerId,
          name: "Captain's Club",
          description: '10% off every rental, 10 dollars of credits a month, bring your family.',
          monthlyPrice: 4900,
          yearlyPrice: 49000,
          benefits: { discountPercentage: 10, creditsPerPeriod: 1000, perks: ['Priority boarding', 'Free fuel top-up'] },
          pausePolicy: { enabled: true, maxPausesPerYear: 2, maxPauseDays: 60 },
          familyOptions: { enabled: true, maxMembers: 3 },
          allowedMemberTypes: ['individual', 'family', 'organization'],
          displayOrder: 1,
          isPublic: true,
        })
        .onConflictDoNothing(),
      db
        .insert(membershipTiers)
        .values({
          id: ids.basicTier,
          customerId: op.customerId,
          name: 'Marina Basic',
          description: '5% off rentals.',
          monthlyPrice: 1900,
          yearlyPrice: 19000,
          benefits: { discountPercentage: 5 },
          displayOrder: 2,
          isPublic: true,
        })
        .onConflictDoNothing(),
      db
        .insert(organizations)
        .values({
          id: ids.organization,
          customerId: op.customerId,
          name: 'Biscayne Sailing Club',
          contactEmail: 'office@biscayne-sailing.test',
          contactName: 'Sam Skipper',
          maxAuthorizedRenters: 10,
        })
        .onConflictDoNothing(),
      db
        .insert(affiliates)
        .values({
          id: ids.affiliate,
          customerId: op.customerId,
          name: 'Sunny Days Blog',
          email: 'hello@sunnydays.test',
          percentageEarned: 8,
          customAffiliateId: ids.affiliate,
        })
        .onConflictDoNothing(),
    ]);
    wrote = true;
  }
  const alice = await db
    .select({ id: renters.id })
    .from(renters)
    .where(and(eq(renters.customerId, op.customerId), eq(renters.email, ids.memberEmail)))
    .get();
  if (alice) {
    const live = await db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.customerId, op.customerId), eq(memberships.renterId, alice.id)))
      .get();
    if (!live) {
      await createMembership(ctx, {
        customerId: op.customerId,
        tierId: ids.clubTier,
        memberEmail: ids.memberEmail,
        renterId: alice.id,
        billingCycle: 'monthly',
        paymentMethodId: 'pm_card_visa',
        notes: 'Sandbox member',
      });
      wrote = true;
    }
  }
  return wrote;
}

export const membershipsSeed: OperatorSeedStep = { name: 'memberships', run: seedMemberships };
