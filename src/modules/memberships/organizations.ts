/**
 * Organizations, their authorized renters (up to `maxAuthorizedRenters`, enforced by the INSERT
 * itself as for family members) and their one live membership. An organization with a membership
 * that is not canceled cannot be deleted (the DELETE re-checks it in SQL).
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { memberships, organizationMembers, organizations } from '../../db/schema/memberships';
import { getRenterInTenant } from '../renters/service';
import { membershipErrors } from './errors';
import { requireManage } from './access';
import { openMembership } from './create';
import { getOrgInTenant, getTierInTenant, liveOrgMembership, membershipView, orgMembersOf } from './queries';
import { LIVE_STATUSES, type BillingCycle } from './types';
import { orgOut, type OrgRow } from './views';
import { nowIso as clockIso } from '../../lib/clock';

const errText = (err: unknown) => String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '');

async function orgView(ctx: Ctx, o: OrgRow) {
  const [members, live] = await Promise.all([orgMembersOf(ctx, o.customerId, o.id), liveOrgMembership(ctx, o.customerId, o.id)]);
  return orgOut(o, members, live?.id ?? null);
}

export async function listOrganizations(ctx: Ctx, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const rows = await ctx.db.select().from(organizations).where(eq(organizations.customerId, customerId)).orderBy(asc(organizations.name)).limit(500).all();
  const data = [];
  for (const o of rows) data.push(await orgView(ctx, o));
  return { data, total: data.length };
}

export async function getOrganization(ctx: Ctx, orgId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  return orgView(ctx, await getOrgInTenant(ctx, customerId, orgId));
}

export async function createOrganization(
  ctx: Ctx,
  input: {
    customerId: string;
    name: string;
    contactEmail: string;
    contactName: string;
    contactPhone?: string;
    billingAddress?: Record<string, unknown>;
    maxAuthorizedRenters?: number;
  },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const now = clockIso(ctx);
  const row: OrgRow = {
    id: newId('org'),
    customerId,
    name: input.name,
    contactEmail: input.contactEmail,
    contactName: input.contactName,
    contactPhone: input.contactPhone ?? null,
    billingAddress: input.billingAddress ?? null,
    maxAuthorizedRenters: input.maxAuthorizedRenters ?? 10,
    createdAt: now,
    updatedAt: now,
  };
  await commit(ctx, [ctx.db.insert(organizations).values(row)], {
    audit: { action: 'organization.create', targetType: 'organization', targetId: row.id, details: { name: row.name } },
  });
  return orgOut(row, [], null);
}

export async function updateOrganization(
  ctx: Ctx,
  orgId: string,
  input: {
    customerId: string;
    name?: string;
    contactEmail?: string;
    contactName?: string;
    contactPhone?: string | null;
    billingAddress?: Record<string, unknown> | null;
    maxAuthorizedRenters?: number;
  },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  const patch: Partial<OrgRow> = {};
  for (const k of ['name', 'contactEmail', 'contactName', 'contactPhone', 'billingAddress', 'maxAuthorizedRenters'] as const) {
    if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
  }
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give at least one field to update');
  const conds = [eq(organizations.id, o.id), eq(organizations.customerId, customerId)];
  if (patch.maxAuthorizedRenters !== undefined) {
    conds.push(sql`(SELECT count(*) FROM ${organizationMembers} WHERE ${organizationMembers.organizationId} = ${o.id}) <= ${patch.maxAuthorizedRenters}`);
  }
  const now = clockIso(ctx);
  const res = await commit(
    ctx,
    [
      ctx.db
        .update(organizations)
        .set({ ...patch, updatedAt: now })
        .where(and(...conds)),
    ],
    {
      audit: { action: 'organization.update', targetType: 'organization', targetId: o.id, details: { fields: Object.keys(patch) } },
    },
  );
  if (!((res.results[0] as { meta?: { changes?: number } })?.meta?.changes ?? 0)) {
    throw new ApiError('bad_request', 'maxAuthorizedRenters is below the number of authorized renters; remove some first', {
      details: [{ field: 'maxAuthorizedRenters', message: 'below the current number of authorized renters' }],
    });
  }
  return orgView(ctx, { ...o, ...patch, updatedAt: now });
}

export async function deleteOrganization(ctx: Ctx, orgId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requireManage(ctx);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  const inUse = () => membershipErrors.fail('organization_in_use', 'The organization has a membership that is not canceled; cancel it first');
  if (await liveOrgMembership(ctx, customerId, o.id)) throw inUse();
  const live = sql`EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.customerId} = ${customerId} AND ${memberships.memberKey} = ${`org:${o.id}`} AND ${inArray(memberships.status, [...LIVE_STATUSES])})`;
  const res = await commit(
    ctx,
    [
      ctx.db.delete(organizations).where(and(eq(organizations.id, o.id), eq(organizations.customerId, customerId), sql`NOT ${live}`)),
      ctx.db
        .delete(organizationMembers)
        .where(
          and(
            eq(organizationMembers.customerId, customerId),
            eq(organizationMembers.organizationId, o.id),
            sql`NOT EXISTS (SELECT 1 FROM ${organizations} WHERE ${organizations.id} = ${o.id})`,
          ),
        ),
    ],
    { audit: { action: 'organization.delete', targetType: 'organization', targetId: o.id } },
  );
  if (!((res.results[0] as { meta?: { changes?: number } })?.meta?.changes ?? 0)) throw inUse();
  return { orgId: o.id, deleted: true };
}

export async function listOrgMembers(ctx: Ctx, orgId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  return { orgId: o.id, maxAuthorizedRenters: o.maxAuthorizedRenters, data: await orgMembersOf(ctx, customerId, o.id) };
}

/** Authorizes a renter; past `maxAuthorizedRenters` the INSERT puts NULL in a NOT NULL column and fails (parallel adds included). */
export async function addOrgMember(ctx: Ctx, orgId: string, input: { customerId: string; renterId: string }) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  const renter = await getRenterInTenant(ctx, input.renterId);
  const id = newId('orgm');
  const nowIso = clockIso(ctx);
  // Columns in the table's order: id, customer_id, organization_id, renter_id, email, first_name, last_name, created_at.
  const insert = ctx.db.insert(organizationMembers).select(
    sql`SELECT ${id}, ${customerId}, ${o.id},
      CASE WHEN (SELECT count(*) FROM organization_members WHERE organization_id = ${o.id})
        < (SELECT max_authorized_renters FROM organizations WHERE id = ${o.id}) THEN ${renter.id} END,
      ${renter.email}, ${renter.firstName}, ${renter.lastName}, ${nowIso}`,
  );
  try {
    await commit(ctx, [insert], { audit: { action: 'organization.member_add', targetType: 'organization', targetId: o.id, details: { renterId: renter.id } } });
  } catch (err) {
    const t = errText(err);
    if (/NOT NULL constraint failed: organization_members\.renter_id/i.test(t)) {
      const n = await ctx.db.select({ n: count() }).from(organizationMembers).where(eq(organizationMembers.organizationId, o.id)).get();
      throw membershipErrors.fail('member_limit_reached', `The organization already has its maximum of ${o.maxAuthorizedRenters} authorized renter(s)`, {
        extra: { maxAuthorizedRenters: o.maxAuthorizedRenters, authorized: Number(n?.n ?? 0) },
      });
    }
    if (/UNIQUE constraint failed: organization_members/i.test(t))
      throw membershipErrors.fail('already_member', 'The renter is already authorized for this organization');
    throw err;
  }
  return listOrgMembers(ctx, o.id, { customerId });
}

export async function removeOrgMember(ctx: Ctx, orgId: string, renterId: string, q: { customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requireManage(ctx);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  const row = await ctx.db
    .select({ id: organizationMembers.id })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.customerId, customerId), eq(organizationMembers.organizationId, o.id), eq(organizationMembers.renterId, renterId)))
    .get();
  if (!row) throw notFound('Authorized renter');
  await commit(ctx, [ctx.db.delete(organizationMembers).where(and(eq(organizationMembers.id, row.id), eq(organizationMembers.customerId, customerId)))], {
    audit: { action: 'organization.member_remove', targetType: 'organization', targetId: o.id, details: { renterId } },
  });
  return listOrgMembers(ctx, o.id, { customerId });
}

/** POST /memberships/organizations/{orgId}/membership: 400 when the tier does not support organizations or the organization has a membership. */
export async function createOrgMembership(
  ctx: Ctx,
  orgId: string,
  input: { customerId: string; tierId: string; billingCycle: BillingCycle; paymentMethodId?: string; staffId?: string; notes?: string },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requireManage(ctx);
  const o = await getOrgInTenant(ctx, customerId, orgId);
  const tier = await getTierInTenant(ctx, customerId, input.tierId);
  if (!(tier.allowedMemberTypes ?? []).includes('organization')) {
    throw membershipErrors.fail('tier_not_for_organizations', `The tier "${tier.name}" does not support organizations (allowedMemberTypes)`);
  }
  if (await liveOrgMembership(ctx, customerId, o.id)) throw membershipErrors.fail('already_member', 'The organization already has a membership');
  const out = await openMembership(ctx, {
    customerId,
    tier,
    billingCycle: input.billingCycle,
    memberType: 'organization',
    member: { kind: 'organization', org: o },
    memberEmail: o.contactEmail,
    memberName: o.name,
    memberPhone: o.contactPhone,
    paymentMethodId: input.paymentMethodId,
    staffId: input.staffId ?? ctx.principal.userId,
    notes: input.notes,
    via: 'operator',
  });
  return membershipView(ctx, out.membership);
}
