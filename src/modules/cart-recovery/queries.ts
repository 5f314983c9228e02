import { and, desc, eq, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { cartRecoveryItems } from '../../db/schema/cart-recovery';
import { locations } from '../../db/schema/locations';
import { cartOut, type CartRow } from './views';

const t = cartRecoveryItems;

/** A cart of the caller's operator (404 otherwise). */
export async function getCartInTenant(ctx: Ctx, id: string): Promise<CartRow> {
  const row = await ctx.db
    .select()
    .from(t)
    .where(and(eq(t.id, id), eq(t.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Cart recovery item');
  return row;
}

export const getCartAnyTenant = (ctx: Ctx, id: string) => ctx.db.select().from(t).where(eq(t.id, id)).get();

/** A live location by id, whoever owns it (public endpoints); null when unknown or scheduled for deletion. */
export async function publicLocation(ctx: Ctx, locationId: string, customerId?: string) {
  const row = await ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.id, locationId), customerId ? eq(locations.customerId, customerId) : undefined))
    .get();
  return row && row.status === 'active' ? row : null;
}

/** Items needing contact: active, not contacted, contact-on time passed. */
export const needingContact = (now: string): SQL => and(eq(t.status, 'active'), isNull(t.contactedAt), lte(t.contactOn, now))!;

export async function pageOf(ctx: Ctx, where: SQL | undefined, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    ctx.db.select().from(t).where(where).orderBy(desc(t.createdAt), desc(t.id)).limit(page.limit).offset(page.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(t)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(cartOut), total: Number(total?.n ?? 0), limit: page.limit, offset: page.offset };
}

/** Counts of carts matching `where` (all time or a period). */
export async function cartCounts(ctx: Ctx, where: SQL | undefined, nowIso: string) {
  const recovered = sql`(${t.status} = 'completed' AND ${t.contactedAt} IS NOT NULL AND ${t.completedAt} >= ${t.contactedAt})`;
  const row = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(${t.status} = 'active'), 0)`,
      needingContact: sql<number>`coalesce(sum(${t.status} = 'active' AND ${t.contactedAt} IS NULL AND ${t.contactOn} <= ${nowIso}), 0)`,
      contacted: sql<number>`coalesce(sum(${t.contactedAt} IS NOT NULL), 0)`,
      completed: sql<number>`coalesce(sum(${t.status} = 'completed'), 0)`,
      completedUncontacted: sql<number>`coalesce(sum(${t.status} = 'completed' AND ${t.contactedAt} IS NULL), 0)`,
      expired: sql<number>`coalesce(sum(${t.status} = 'expired'), 0)`,
      recovered: sql<number>`coalesce(sum(${recovered}), 0)`,
      revenue: sql<number>`coalesce(sum(CASE WHEN ${recovered} THEN coalesce(${t.revenue}, 0) ELSE 0 END), 0)`,
    })
    .from(t)
    .where(where)
    .get();
  const n = (v: unknown) => Number(v ?? 0);
  return {
    total: n(row?.total),
    active: n(row?.active),
    needingContact: n(row?.needingContact),
    contacted: n(row?.contacted),
    completed: n(row?.completed),
    completedUncontacted: n(row?.completedUncontacted),
    expired: n(row?.expired),
    recovered: n(row?.recovered),
    revenueCents: n(row?.revenue),
  };
}

export const rate = (recovered: number, contacted: number) => (contacted ? Math.round((recovered / contacted) * 10_000) / 100 : 0);
