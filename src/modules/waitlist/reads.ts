import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { systemCtx, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { notFound } from '../../lib/errors';
import type { Env } from '../../env';
import { getDb } from '../../db/client';
import { waitlistEntries } from '../../db/schema/waitlist';
import { bookings, holds } from '../../db/schema/bookings';
import { changes, chunks, entryOut, type EntryRow, type Status } from './entries';

// ------------------------------------------------------------------------------------------------
// Operator reads

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
  return entryOut(await syncOne(ctx.env, await getEntryRow(ctx, id)));
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
    ctx.env,
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

// ------------------------------------------------------------------------------------------------
// Booked: an offer whose hold a booking consumed

export async function syncOne(env: Env, e: EntryRow): Promise<EntryRow> {
  if (e.status !== 'offered') return e;
  return (await syncBooked(env, [e])).get(e.id) ?? e;
}

/**
 * Marks `booked` the offered entries whose hold was consumed by a booking of the same e-mail, with
 * the booking that used it when it can be identified. Returns the rows as they are now.
 */
export async function syncBooked(env: Env, rows: EntryRow[], now = new Date()): Promise<Map<string, EntryRow>> {
  const out = new Map(rows.map((r) => [r.id, r]));
  const offered = rows.filter((r) => r.status === 'offered' && r.offerId);
  if (!offered.length) return out;
  const db = getDb(env.DB);
  const consumed = new Set<string>();
  for (const part of chunks(offered.map((r) => r.offerId as string))) {
    const hs = await db
      .select({ id: holds.id })
      .from(holds)
      .where(and(inArray(holds.id, part), eq(holds.status, 'consumed')))
      .all();
    for (const h of hs) consumed.add(h.id);
  }
  for (const e of offered.filter((r) => consumed.has(r.offerId as string))) {
    const rental = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          eq(bookings.customerId, e.customerId),
          eq(bookings.itemId, e.inventoryId),
          sql`lower(json_extract(${bookings.customerInfo}, '$.email')) = ${e.email}`,
          sql`${bookings.createdAt} >= ${e.offeredAt ?? e.createdAt}`,
        ),
      )
      .orderBy(sql`${bookings.start} = ${e.offerStart ?? 0} DESC`, asc(bookings.createdAt))
      .limit(1)
      .get();
    const nowIso = now.toISOString();
    const set = { status: 'booked' as const, bookedAt: nowIso, bookedRentalId: rental?.id ?? null, activeKey: null, updatedAt: nowIso };
    const sctx = systemCtx(env, { customerId: e.customerId });
    const { results } = await commit(
      sctx,
      [
        db
          .update(waitlistEntries)
          .set(set)
          .where(and(eq(waitlistEntries.id, e.id), eq(waitlistEntries.customerId, e.customerId), eq(waitlistEntries.status, 'offered'))),
      ],
      {
        audit: {
          action: 'waitlist.booked',
          targetType: 'waitlist_entry',
          targetId: e.id,
          customerId: e.customerId,
          details: { offerId: e.offerId, rentalId: set.bookedRentalId },
        },
      },
    );
    if (changes(results[0])) out.set(e.id, { ...e, ...set });
    else {
      const now2 = await db.select().from(waitlistEntries).where(eq(waitlistEntries.id, e.id)).get();
      if (now2) out.set(e.id, now2);
    }
  }
  return out;
}
