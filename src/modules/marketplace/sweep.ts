import { and, eq, lt } from 'drizzle-orm';
import { getDb } from '../../db/client';
import type { Env } from '../../env';
import { marketplaceReservations } from '../../db/schema/marketplace';
import { bookingIdByTransaction } from './queries';

/**
 * Cron: holds past their expiry become `expired` (their allocations already stopped counting);
 * a confirmation interrupted half-way (`confirming` for over 2 minutes) is settled: confirmed if
 * its booking was written, else back on hold (or expired).
 */
export async function sweepReservations(env: Env, now = Date.now()) {
  const db = getDb(env.DB);
  const expired = await db
    .update(marketplaceReservations)
    .set({ status: 'expired' })
    .where(and(eq(marketplaceReservations.status, 'held'), lt(marketplaceReservations.expiresAt, now)))
    .run();
  const stale = await db
    .select()
    .from(marketplaceReservations)
    .where(and(eq(marketplaceReservations.status, 'confirming'), lt(marketplaceReservations.updatedAt, new Date(now - 120_000).toISOString())))
    .limit(100)
    .all();
  for (const r of stale) {
    const bookingId = r.transactionId ? await bookingIdByTransaction(db, r.customerId, r.transactionId) : undefined;
    await db
      .update(marketplaceReservations)
      .set(bookingId ? { status: 'confirmed', rentalId: bookingId } : { status: r.expiresAt > now ? 'held' : 'expired', bookingRef: null, transactionId: null })
      .where(and(eq(marketplaceReservations.id, r.id), eq(marketplaceReservations.status, 'confirming')));
  }
  return { expired: expired.meta.changes ?? 0, settled: stale.length };
}
