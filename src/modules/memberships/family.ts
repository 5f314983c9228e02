/**
 * Family members of a membership. The limit is enforced by the INSERT itself: its renter id is
 * `CASE WHEN (members so far) < maxMembers THEN :renterId END`, so past the limit it inserts NULL
 * into a NOT NULL column and the whole batch fails; parallel adds can never exceed the maximum.
 * A renter is on a membership at most once (unique index).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { membershipFamily, memberships } from '../../db/schema/memberships';
import { getRenterInTenant } from '../renters/service';
import { membershipErrors } from './errors';
import { actorOf, requireManage } from './access';
import { historyStmt } from './billing-records';
import { stateError } from './change';
import { findTier, getMembershipInTenant, membershipView } from './queries';
import { LIVE_STATUSES } from './types';
import { familyOptionsOf } from './views';
import { nowIso as clockIso } from '../../lib/clock';

const errText = (err: unknown) => String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '');

export async function addFamilyMember(ctx: Ctx, id: string, input: { customerId: string; renterId: string; email: string; name?: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  if (m.status === 'canceled') throw stateError(m, 'given family members');
  const tier = await findTier(ctx, customerId, m.tierId);
  const opts = tier ? familyOptionsOf(tier) : { enabled: false, maxMembers: 0 };
  if (!opts.enabled) throw membershipErrors.fail('family_not_enabled', `The tier "${tier?.name ?? m.tierId}" has no family option`);
  const renter = await getRenterInTenant(ctx, input.renterId);
  if (m.renterId === renter.id) throw membershipErrors.fail('already_member', 'The renter is the primary member of this membership');
  const [own, otherFamily] = await Promise.all([
    ctx.db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.customerId, customerId), eq(memberships.renterId, renter.id), inArray(memberships.status, [...LIVE_STATUSES])))
      .get(),
    ctx.db
      .select({ id: membershipFamily.membershipId })
      .from(membershipFamily)
      .innerJoin(memberships, eq(memberships.id, membershipFamily.membershipId))
      .where(and(eq(membershipFamily.customerId, customerId), eq(membershipFamily.renterId, renter.id), inArray(memberships.status, [...LIVE_STATUSES])))
      .get(),
  ]);
  if (otherFamily?.id === m.id) throw membershipErrors.fail('already_member', 'The renter is already a family member of this membership');
  if (own || otherFamily)
    throw membershipErrors.fail('already_member', 'The renter is already a member (own membership or another family)', {
      extra: { membershipId: own?.id ?? otherFamily?.id },
    });
  const rowId = newId('mfam');
  const nowIso = clockIso(ctx);
  // Columns in the table's order: id, customer_id, membership_id, renter_id, email, name, created_at.
  const insert = ctx.db.insert(membershipFamily).select(
    sql`SELECT ${rowId}, ${customerId}, ${m.id},
      CASE WHEN (SELECT count(*) FROM membership_family WHERE membership_id = ${m.id}) < ${opts.maxMembers} THEN ${renter.id} END,
      ${input.email}, ${input.name ?? `${renter.firstName} ${renter.lastName}`}, ${nowIso}`,
  );
  try {
    await commit(ctx, [insert, historyStmt(ctx, m, 'family_added', { renterId: renter.id, email: input.email }, actorOf(ctx))], {
      audit: { action: 'membership.family_add', targetType: 'membership', targetId: m.id, details: { renterId: renter.id } },
    });
  } catch (err) {
    const t = errText(err);
    if (/NOT NULL constraint failed: membership_family\.renter_id/i.test(t)) {
      throw membershipErrors.fail('member_limit_reached', `The family already has its maximum of ${opts.maxMembers} member(s)`, {
        extra: { maxMembers: opts.maxMembers },
      });
    }
    if (/UNIQUE constraint failed: membership_family/i.test(t))
      throw membershipErrors.fail('already_member', 'The renter is already a family member of this membership');
    throw err;
  }
  return membershipView(ctx, m);
}

export async function removeFamilyMember(ctx: Ctx, id: string, renterId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requireManage(ctx);
  const m = await getMembershipInTenant(ctx, customerId, id);
  const row = await ctx.db
    .select({ id: membershipFamily.id })
    .from(membershipFamily)
    .where(and(eq(membershipFamily.customerId, customerId), eq(membershipFamily.membershipId, m.id), eq(membershipFamily.renterId, renterId)))
    .get();
  if (!row) throw notFound('Family member');
  await commit(
    ctx,
    [
      ctx.db.delete(membershipFamily).where(and(eq(membershipFamily.id, row.id), eq(membershipFamily.customerId, customerId))),
      historyStmt(ctx, m, 'family_removed', { renterId }, actorOf(ctx)),
    ],
    { audit: { action: 'membership.family_remove', targetType: 'membership', targetId: m.id, details: { renterId } } },
  );
  return membershipView(ctx, m);
}
