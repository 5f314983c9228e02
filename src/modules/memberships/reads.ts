/** GET /memberships and GET /memberships/{membershipId}. */
import { and, count, desc, eq, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { memberships } from '../../db/schema/memberships';
import { getRenterInTenant } from '../renters/service';
import { findTier, getMembershipInTenant, getOrgInTenant, membershipView, membershipViews } from './queries';
import type { MembershipStatus } from './types';
import { tierOut } from './views';

export async function listMemberships(
  ctx: Ctx,
  q: { customerId: string; status?: Exclude<MembershipStatus, 'incomplete'>; tierId?: string; page: number; limit: number },
) {
  const customerId = ownCustomer(ctx, q.customerId);
  const conds = [eq(memberships.customerId, customerId), q.status ? eq(memberships.status, q.status) : ne(memberships.status, 'incomplete')];
  if (q.tierId) conds.push(eq(memberships.tierId, q.tierId));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(memberships)
      .where(where)
      .orderBy(desc(memberships.createdAt), desc(memberships.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .all(),
    ctx.db.select({ n: count() }).from(memberships).where(where).get(),
  ]);
  return { data: await membershipViews(ctx, customerId, rows), total: Number(total?.n ?? 0), page: q.page, limit: q.limit };
}

/** The membership with its tier, renter and organization. */
export async function getMembership(ctx: Ctx, id: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const m = await getMembershipInTenant(ctx, customerId, id);
  const [view, tier, renter, org] = await Promise.all([
    membershipView(ctx, m),
    findTier(ctx, customerId, m.tierId),
    m.renterId ? getRenterInTenant(ctx, m.renterId).catch(() => null) : null,
    m.organizationId ? getOrgInTenant(ctx, customerId, m.organizationId).catch(() => null) : null,
  ]);
  return {
    ...view,
    tier: tier ? tierOut(tier) : null,
    renter: renter ? { renterId: renter.id, firstName: renter.firstName, lastName: renter.lastName, email: renter.email, phone: renter.phone } : null,
    organization: org ? { orgId: org.id, name: org.name, contactEmail: org.contactEmail } : null,
  };
}
