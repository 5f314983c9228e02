/** Tenant-scoped reads of the memberships module (another operator's ids answer 404). */
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import {
  membershipCredits,
  membershipEvents,
  membershipFamily,
  membershipInvoices,
  membershipPayments,
  memberships,
  membershipTiers,
  organizationMembers,
  organizations,
} from '../../db/schema/memberships';
import { operatorTimeZone } from '../locations/service';
import { moneyOfSales } from '../bookings/service';
import { LIVE_STATUSES } from './types';
import { invoiceOut, membershipOut, type FamilyView, type InvoiceRow, type MembershipRow, type OrgMemberView, type OrgRow, type TierRow } from './views';

export async function getTierInTenant(ctx: Ctx, customerId: string, tierId: string): Promise<TierRow> {
  const row = await ctx.db
    .select()
    .from(membershipTiers)
    .where(and(eq(membershipTiers.id, tierId), eq(membershipTiers.customerId, customerId), isNull(membershipTiers.deletedAt)))
    .get();
  if (!row) throw notFound('Membership tier');
  return row;
}

/** A tier even when deleted (a canceled membership's history). */
export async function findTier(ctx: Ctx, customerId: string, tierId: string): Promise<TierRow | undefined> {
  return ctx.db
    .select()
    .from(membershipTiers)
    .where(and(eq(membershipTiers.id, tierId), eq(membershipTiers.customerId, customerId)))
    .get();
}

/** A membership of the operator; the transient `incomplete` claim of a create in flight answers 404. */
export async function getMembershipInTenant(ctx: Ctx, customerId: string, membershipId: string): Promise<MembershipRow> {
  const row = await ctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, membershipId), eq(memberships.customerId, customerId), ne(memberships.status, 'incomplete')))
    .get();
  if (!row) throw notFound('Membership');
  return row;
}

export async function creditBalanceOf(ctx: Ctx, membershipId: string): Promise<number> {
  const row = await ctx.db
    .select({ total: sql<number>`coalesce(sum(${membershipCredits.amount}), 0)` })
    .from(membershipCredits)
    .where(eq(membershipCredits.membershipId, membershipId))
    .get();
  return Number(row?.total ?? 0);
}

export async function familyOf(ctx: Ctx, customerId: string, membershipId: string): Promise<FamilyView[]> {
  const rows = await ctx.db
    .select()
    .from(membershipFamily)
    .where(and(eq(membershipFamily.customerId, customerId), eq(membershipFamily.membershipId, membershipId)))
    .orderBy(asc(membershipFamily.createdAt))
    .all();
  return rows.map((f) => ({ renterId: f.renterId, email: f.email, name: f.name, addedAt: f.createdAt }));
}

/** The Membership view of a row (credit balance and family members read alongside). */
export async function membershipView(ctx: Ctx, m: MembershipRow) {
  const [creditBalance, family] = await Promise.all([creditBalanceOf(ctx, m.id), familyOf(ctx, m.customerId, m.id)]);
  return membershipOut(m, { creditBalance, family });
}

/** Views of many rows with two grouped queries. */
export async function membershipViews(ctx: Ctx, customerId: string, rows: MembershipRow[]): Promise<ReturnType<typeof membershipOut>[]> {
  if (!rows.length) return [];
  // D1 binds at most 100 parameters per statement: read in chunks.
  if (rows.length > 40) {
    const out: ReturnType<typeof membershipOut>[] = [];
    for (let i = 0; i < rows.length; i += 40) out.push(...(await membershipViews(ctx, customerId, rows.slice(i, i + 40))));
    return out;
  }
  const ids = rows.map((r) => r.id);
  const [balances, fam] = await Promise.all([
    ctx.db
      .select({ id: membershipCredits.membershipId, total: sql<number>`coalesce(sum(${membershipCredits.amount}), 0)` })
      .from(membershipCredits)
      .where(inArray(membershipCredits.membershipId, ids))
      .groupBy(membershipCredits.membershipId)
      .all(),
    ctx.db
      .select()
      .from(membershipFamily)
      .where(and(eq(membershipFamily.customerId, customerId), inArray(membershipFamily.membershipId, ids)))
      .orderBy(asc(membershipFamily.createdAt))
      .all(),
  ]);
  const bal = new Map(balances.map((b) => [b.id, Number(b.total)]));
  return rows.map((m) =>
    membershipOut(m, {
      creditBalance: bal.get(m.id) ?? 0,
      family: fam.filter((f) => f.membershipId === m.id).map((f) => ({ renterId: f.renterId, email: f.email, name: f.name, addedAt: f.createdAt })),
    }),
  );
}

export async function getInvoiceInTenant(ctx: Ctx, customerId: string, membershipId: string, invoiceId: string): Promise<InvoiceRow> {
  const row = await ctx.db
    .select()
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.id, invoiceId), eq(membershipInvoices.customerId, customerId), eq(membershipInvoices.membershipId, membershipId)))
    .get();
  if (!row) throw notFound('Invoice');
  return row;
}

export async function invoiceView(ctx: Ctx, inv: InvoiceRow) {
  const payments = await ctx.db
    .select()
    .from(membershipPayments)
    .where(and(eq(membershipPayments.customerId, inv.customerId), eq(membershipPayments.invoiceId, inv.id)))
    .orderBy(asc(membershipPayments.createdAt))
    .all();
  const money = await moneyOfSales(ctx, inv.customerId, [inv.id]);
  return invoiceOut(inv, payments, money.get(inv.id)!);
}

export async function invoicesOf(ctx: Ctx, customerId: string, membershipId: string, o: { limit: number; offset?: number }) {
  const rows = await ctx.db
    .select()
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.customerId, customerId), eq(membershipInvoices.membershipId, membershipId)))
    .orderBy(desc(membershipInvoices.createdAt), desc(membershipInvoices.id))
    .limit(o.limit)
    .offset(o.offset ?? 0)
    .all();
  if (!rows.length) return [];
  const [payments, money] = await Promise.all([
    ctx.db
      .select()
      .from(membershipPayments)
      .where(
        and(
          eq(membershipPayments.customerId, customerId),
          inArray(
            membershipPayments.invoiceId,
            rows.map((r) => r.id),
          ),
        ),
      )
      .orderBy(asc(membershipPayments.createdAt))
      .all(),
    moneyOfSales(
      ctx,
      customerId,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((r) =>
    invoiceOut(
      r,
      payments.filter((p) => p.invoiceId === r.id),
      money.get(r.id)!,
    ),
  );
}

export async function invoiceCount(ctx: Ctx, customerId: string, membershipId: string): Promise<number> {
  const row = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(membershipInvoices)
    .where(and(eq(membershipInvoices.customerId, customerId), eq(membershipInvoices.membershipId, membershipId)))
    .get();
  return Number(row?.n ?? 0);
}

export async function historyOf(ctx: Ctx, customerId: string, membershipId: string, limit = 100) {
  const rows = await ctx.db
    .select()
    .from(membershipEvents)
    .where(and(eq(membershipEvents.customerId, customerId), eq(membershipEvents.membershipId, membershipId)))
    .orderBy(desc(membershipEvents.createdAt), desc(membershipEvents.id))
    .limit(limit)
    .all();
  return rows.map((e) => ({ type: e.type, details: e.details ?? null, actor: e.actor, at: e.createdAt }));
}

export async function getOrgInTenant(ctx: Ctx, customerId: string, orgId: string): Promise<OrgRow> {
  const row = await ctx.db
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, orgId), eq(organizations.customerId, customerId)))
    .get();
  if (!row) throw notFound('Organization');
  return row;
}

export async function orgMembersOf(ctx: Ctx, customerId: string, orgId: string): Promise<OrgMemberView[]> {
  const rows = await ctx.db
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.customerId, customerId), eq(organizationMembers.organizationId, orgId)))
    .orderBy(asc(organizationMembers.createdAt))
    .all();
  return rows.map((r) => ({ renterId: r.renterId, firstName: r.firstName, lastName: r.lastName, email: r.email, addedAt: r.createdAt }));
}

/** The organization's live (not canceled) membership, if any. */
export async function liveOrgMembership(ctx: Ctx, customerId: string, orgId: string): Promise<MembershipRow | undefined> {
  return ctx.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.memberKey, `org:${orgId}`), inArray(memberships.status, [...LIVE_STATUSES])))
    .get();
}

/** The operator's time zone: the dates of membership e-mails and invoice lines (a membership belongs to no one location). */
export const memberZone = (ctx: Ctx, customerId: string): Promise<string> => operatorTimeZone(ctx, customerId);
