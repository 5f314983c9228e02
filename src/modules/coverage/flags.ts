/**
 * Coverage problems raised to the operator: a policy that did not issue after payment
 * (`bind_failed`) and a paid renter no longer covered after a date change (`not_covered`). Each is
 * listed by GET /coverage/flags and e-mailed to the operator's address once.
 */
import { nowIso } from '../../lib/clock';
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { commit } from '../../lib/commit';
import { emailStmt } from '../../adapters/messages';
import { coverageFlags } from '../../db/schema/coverage';
import { listFlags, operatorAccount } from './queries';
import { flagOut, type FlagRow, type PolicyRow } from './views';

/** Raises a flag once per cause (its dedupe key) and e-mails the operator about it; answers whether it was new. */
export async function raiseFlag(
  ctx: Ctx,
  policy: PolicyRow,
  f: { kind: FlagRow['kind']; dedupeKey: string; message: string; subject: string },
): Promise<boolean> {
  const row = await ctx.db
    .insert(coverageFlags)
    .values({
      id: newId('cfl'),
      customerId: policy.customerId,
      policyId: policy.id,
      rentalId: policy.rentalId,
      kind: f.kind,
      dedupeKey: f.dedupeKey,
      message: f.message,
    })
    .onConflictDoNothing()
    .returning()
    .get();
  if (!row) return false;
  const operator = await operatorAccount(ctx, policy.customerId);
  const sys: Ctx = { ...ctx, principal: { ...ctx.principal, customerId: policy.customerId } };
  await commit(
    sys,
    [
      ...(operator.email
        ? [
            emailStmt(sys, {
              customerId: policy.customerId,
              to: operator.email,
              subject: f.subject,
              body: `${f.message}\n\nBooking: ${policy.rentalId ?? policy.transactionId}\nPolicy: ${policy.id}\n\nSee GET /coverage/flags and GET /coverage/policies/${policy.id}.`,
              template: `coverage.${f.kind}`,
              metadata: { policyId: policy.id, flagId: row.id, ...(policy.rentalId ? { rentalId: policy.rentalId } : {}) },
            }).stmt,
          ]
        : []),
    ],
    {
      audit: {
        action: `coverage.flag.${f.kind}`,
        targetType: 'coverage_policy',
        targetId: policy.id,
        customerId: policy.customerId,
        details: { message: f.message },
      },
    },
  );
  return true;
}

export async function flagList(ctx: Ctx, q: { open?: 'true' | 'false'; limit: number; offset: number }) {
  const { rows, total } = await listFlags(ctx, { open: q.open === undefined ? undefined : q.open === 'true', limit: q.limit, offset: q.offset });
  return { data: rows.map(flagOut), total, limit: q.limit, offset: q.offset };
}

export async function resolveFlag(ctx: Ctx, flagId: string, resolution: string) {
  const customerId = tenantOf(ctx);
  const row = await ctx.db
    .select()
    .from(coverageFlags)
    .where(and(eq(coverageFlags.id, flagId), eq(coverageFlags.customerId, customerId)))
    .get();
  if (!row) throw notFound('Flag');
  const updated = await ctx.db
    .update(coverageFlags)
    .set({ resolvedAt: nowIso(ctx), resolution })
    .where(and(eq(coverageFlags.id, row.id), eq(coverageFlags.customerId, customerId), isNull(coverageFlags.resolvedAt)))
    .returning()
    .get();
  return flagOut(updated ?? row);
}
