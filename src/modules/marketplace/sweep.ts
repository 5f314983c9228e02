import { and, eq, gt, lte, min } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { marketplaceReservations } from '../../db/schema/marketplace';
import { bookingIdByTransaction } from './queries';

/** A confirmation still `confirming` this long after it started was interrupted. */
const CONFIRMING_STALE_MS = 120_000;

/**
 * Cron: holds past their expiry become `expired` (their allocations already stopped counting);
 * a confirmation interrupted half-way (`confirming` for over 2 minutes) is settled: confirmed if
 * its booking was written, else back on hold (or expired). On the job's clock, for the operators
 * in its scope.
 */
export async function sweepReservations(ctx: Ctx) {
  const db = ctx.db;
  const now = ctx.clock.now();
  const scope = inJobScope(ctx, marketplaceReservations.customerId);
  const expired = await db
    .update(marketplaceReservations)
    .set({ status: 'expired' })
    .where(and(eq(marketplaceReservations.status, 'held'), lte(marketplaceReservations.expiresAt, now), scope))
    .run();
  const stale = await db
    .select()
    .from(marketplaceReservations)
    .where(
      and(eq(marketplaceReservations.status, 'confirming'), lte(marketplaceReservations.updatedAt, new Date(now - CONFIRMING_STALE_MS).toISOString()), scope),
    )
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

/** The sweep's next work after the clock's "now": a hold's expiry or an interrupted confirmation coming of age (ms), or null. */
export async function nextDueReservations(ctx: Ctx): Promise<number | null> {
  const db = ctx.db;
  const now = ctx.clock.now();
  const scope = inJobScope(ctx, marketplaceReservations.customerId);
  const [held, confirming] = await db.batch([
    db
      .select({ at: min(marketplaceReservations.expiresAt) })
      .from(marketplaceReservations)
      .where(and(eq(marketplaceReservations.status, 'held'), gt(marketplaceReservations.expiresAt, now), scope)),
    db
      .select({ at: min(marketplaceReservations.updatedAt) })
      .from(marketplaceReservations)
      .where(
        and(eq(marketplaceReservations.status, 'confirming'), gt(marketplaceReservations.updatedAt, new Date(now - CONFIRMING_STALE_MS).toISOString()), scope),
      ),
  ]);
  const dues = [held[0]?.at ?? null, confirming[0]?.at ? Date.parse(confirming[0].at) + CONFIRMING_STALE_MS : null].filter(
    (d): d is number => d != null && d > now,
  );
  return dues.length ? Math.min(...dues) : null;
}
