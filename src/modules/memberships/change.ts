/**
 * Every change of a membership is a compare-and-swap on its `version`: the UPDATE matches only the
 * version it was computed from, and the history row of the change carries the new version under a
 * unique index, so when two changes start from the same version the second batch fails as a whole
 * (409 `version_conflict`) instead of overwriting the first.
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import type { Stmt } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { nowIso, nowMs } from '../../lib/clock';
import { memberships } from '../../db/schema/memberships';
import { membershipErrors } from './errors';
import { actorOf } from './access';
import { historyStmt } from './billing-records';
import type { MembershipRow } from './views';

export function casStmt(ctx: Ctx, m: MembershipRow, set: Partial<MembershipRow>): Stmt {
  return ctx.db
    .update(memberships)
    .set({ ...set, version: m.version + 1, updatedAt: nowIso(ctx) })
    .where(and(eq(memberships.id, m.id), eq(memberships.customerId, m.customerId), eq(memberships.version, m.version)));
}

/** The UPDATE and its history row (the guard). */
export function changeStmts(ctx: Ctx, m: MembershipRow, set: Partial<MembershipRow>, type: string, details: Record<string, unknown> = {}): Stmt[] {
  return [casStmt(ctx, m, set), historyStmt(ctx, m, type, details, actorOf(ctx), m.version + 1)];
}

export const isVersionRace = (err: unknown) =>
  /membership_events\.membership_id, membership_events\.version|membership_events_version_uq/i.test(
    String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''),
  );

export async function commitChange(ctx: Ctx, statements: Stmt[], meta: Parameters<typeof commit>[2]) {
  try {
    return await commit(ctx, statements, meta);
  } catch (err) {
    if (isVersionRace(err)) throw new ApiError('version_conflict', 'The membership was changed by another request at the same moment; reload it and retry');
    throw err;
  }
}

/** A renewal run holds the membership while it charges: changes wait for it (a few seconds). */
export function assertBillingIdle(ctx: Ctx, m: MembershipRow) {
  if (m.billingClaim && m.billingClaimUntil && Date.parse(m.billingClaimUntil) > nowMs(ctx)) {
    throw membershipErrors.fail('membership_state', 'A renewal of this membership is being charged right now; retry in a moment');
  }
}

export function stateError(m: MembershipRow, action: string) {
  const s = m.status === 'active' && m.cancelAtPeriodEnd ? 'active (scheduled for cancellation)' : m.status.replace('_', ' ');
  return membershipErrors.fail('membership_state', `A ${s} membership cannot be ${action}`, { extra: { status: m.status } });
}
