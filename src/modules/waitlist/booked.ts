/** Booked: an offer whose hold a booking consumed (checked when entries are read, and by the sweep). */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { systemCtxFor, type Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { nowIso as clockIso } from '../../lib/clock';
import { waitlistEntries } from '../../db/schema/waitlist';
import { bookings, holds } from '../../db/schema/bookings';
import { changes, chunks } from './d1-results';
import type { EntryRow } from './types';

export async function syncOne(ctx: Ctx, e: EntryRow): Promise<EntryRow> {
  if (e.status !== 'offered') return e;
  return (await syncBooked(ctx, [e])).get(e.id) ?? e;
}

/**
 * Marks `booked` the offered entries whose hold was consumed by a booking of the same e-mail, with
 * the booking that used it when it can be identified. Returns the rows as they are now.
 */
export async function syncBooked(ctx: Ctx, rows: EntryRow[]): Promise<Map<string, EntryRow>> {
  const out = new Map(rows.map((r) => [r.id, r]));
  const offered = rows.filter((r) => r.status === 'offered' && r.offerId);
  if (!offered.length) return out;
  const db = ctx.db;
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
    const nowIso = clockIso(ctx);
    const set = { status: 'booked' as const, bookedAt: nowIso, bookedRentalId: rental?.id ?? null, activeKey: null, updatedAt: nowIso };
    const sctx = systemCtxFor(ctx, e.customerId);
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
