/** Policies as the operator reads them, and the renter's view of an order's coverage. */
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { amendmentsOf, getOffering, getPolicyInTenant, listPolicies, orderExists, policiesOfTransaction } from './queries';
import { amendmentOut, policyOut, publicPolicyOut, type PolicyRow } from './views';

const offeringName = async (ctx: Ctx, offeringId: string) => (await getOffering(ctx, offeringId))?.name ?? '(deleted offering)';

export async function policyList(ctx: Ctx, q: { status?: PolicyRow['status']; rentalId?: string; limit: number; offset: number }) {
  const { rows, total } = await listPolicies(ctx, q);
  const data = [];
  for (const r of rows) data.push(policyOut(r, await offeringName(ctx, r.offeringId)));
  return { data, total, limit: q.limit, offset: q.offset };
}

export async function policyDetail(ctx: Ctx, policyId: string) {
  const r = await getPolicyInTenant(ctx, policyId);
  return { ...policyOut(r, await offeringName(ctx, r.offeringId)), amendments: (await amendmentsOf(ctx, r.id)).map(amendmentOut) };
}

/** GET /public/coverage: the coverage of an order as its renter sees it (no internal fields). */
export async function publicCoverage(ctx: Ctx, transactionId: string) {
  const rows = await policiesOfTransaction(ctx, transactionId);
  if (!rows.length) {
    // An order without coverage answers an empty list; an unknown order 404 (the booking reference is the capability).
    if (!(await orderExists(ctx, transactionId))) throw notFound('Order');
  }
  const policies = [];
  for (const r of rows) {
    const o = (await getOffering(ctx, r.offeringId)) ?? { name: '(deleted offering)', supportEmail: '' };
    policies.push(publicPolicyOut(r, o));
  }
  return { transactionId, policies };
}
