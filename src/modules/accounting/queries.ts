/** Reads of accounting: the operator's link, the ledger of a location's day, active locations, exports. */
import { and, count, desc, eq, gte, isNull, lt } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { acctExports, acctLinks } from '../../db/schema/accounting';
import { ledgerEntries } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { exportOut, type LinkRow } from './views';

export type LocationRow = typeof locations.$inferSelect;

export async function linkOf(ctx: Ctx, customerId: string): Promise<LinkRow | undefined> {
  return ctx.db.select().from(acctLinks).where(eq(acctLinks.customerId, customerId)).get();
}

/** Every connected link of the operators in the job's scope (the daily job). */
export async function connectedLinks(ctx: Ctx): Promise<LinkRow[]> {
  return ctx.db
    .select()
    .from(acctLinks)
    .where(and(eq(acctLinks.status, 'connected'), inJobScope(ctx, acctLinks.customerId)))
    .all();
}

/** The ledger entries of a location in [start, end) (epoch ms), not deleted. */
export async function ledgerOfDay(ctx: Ctx, loc: LocationRow, start: number, end: number) {
  return ctx.db
    .select({
      entryType: ledgerEntries.entryType,
      amount: ledgerEntries.amount,
      source: ledgerEntries.source,
      description: ledgerEntries.description,
      currency: ledgerEntries.currency,
    })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.customerId, loc.customerId),
        eq(ledgerEntries.locationId, loc.id),
        gte(ledgerEntries.occurredAt, new Date(start).toISOString()),
        lt(ledgerEntries.occurredAt, new Date(end).toISOString()),
        isNull(ledgerEntries.deletedAt),
      ),
    )
    .all();
}

/** The active locations of an operator (the daily job exports each). */
export async function activeLocations(ctx: Ctx, customerId: string): Promise<LocationRow[]> {
  return ctx.db
    .select()
    .from(locations)
    .where(and(eq(locations.customerId, customerId), eq(locations.status, 'active')))
    .all();
}

/** GET /acct/journal-exports */
export async function listExports(ctx: Ctx, q: { businessId: string; locationId?: string; date?: string; limit: number; offset: number }) {
  const customerId = ownCustomer(ctx, q.businessId);
  requirePermission(ctx, 'accounting');
  const where = and(
    eq(acctExports.customerId, customerId),
    q.locationId ? eq(acctExports.locationId, q.locationId) : undefined,
    q.date ? eq(acctExports.date, q.date) : undefined,
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(acctExports).where(where).orderBy(desc(acctExports.date), desc(acctExports.createdAt)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(acctExports).where(where).get(),
  ]);
  const queue = await ctx.env.ACCOUNTING_QUEUE.get(ctx.env.ACCOUNTING_QUEUE.idFromName(customerId)).status();
  return { data: rows.map(exportOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset, queue };
}
