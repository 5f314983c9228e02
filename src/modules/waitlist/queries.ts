/** Operator reads of waitlist entries (tenant-scoped). */
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { tenantOf, type Ctx } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { waitlistEntries } from '../../db/schema/waitlist';
import { entryOut } from './views';
import { syncBooked, syncOne } from './booked';
import type { EntryRow, Status } from './types';

export async function getEntryRow(ctx: Ctx, id: string): Promise<EntryRow> {
  const row = await ctx.db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, id), eq(waitlistEntries.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Waitlist entry');
  return row;
}

export async function getEntry(ctx: Ctx, id: string) {
  return entryOut(await syncOne(ctx, await getEntryRow(ctx, id)));
}

export async function listEntries(
  ctx: Ctx,
  q: { inventoryId?: string; locationId?: string; date?: string; status?: Status; email?: string; page: number; limit: number },
) {
  const customerId = tenantOf(ctx);
  const conds: SQL[] = [eq(waitlistEntries.customerId, customerId)];
  if (q.inventoryId) conds.push(eq(waitlistEntries.inventoryId, q.inventoryId));
  if (q.locationId) conds.push(eq(waitlistEntries.locationId, q.locationId));
  if (q.date) conds.push(eq(waitlistEntries.date, q.date));
  if (q.email) conds.push(eq(waitlistEntries.email, q.email.toLowerCase()));
  // Offers whose hold a booking used are reported as booked before filtering.
  await syncBooked(
    ctx,
    await ctx.db
      .select()
      .from(waitlistEntries)
      .where(and(...conds, eq(waitlistEntries.status, 'offered')))
      .limit(500)
      .all(),
  );
  if (q.status) conds.push(eq(waitlistEntries.status, q.status));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(waitlistEntries)
      .where(where)
      .orderBy(asc(waitlistEntries.date), asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .all(),
    ctx.db.select({ n: count() }).from(waitlistEntries).where(where).get(),
  ]);
  const n = Number(total?.n ?? 0);
  return { data: rows.map(entryOut), pagination: { page: q.page, limit: q.limit, total: n, totalPages: Math.ceil(n / q.limit) } };
}
