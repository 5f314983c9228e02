import { and, eq, sql } from 'drizzle-orm';
import { type Ctx, requirePermission } from '../../lib/context';
import { commit, type AuditEntry } from '../../lib/commit';
import { nowIso as clockIso } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { waitlistEntries } from '../../db/schema/waitlist';
import { releaseAllocationsOf } from '../availability/service';
import { holds } from '../../db/schema/bookings';
import { entryOut } from './views';
import type { EntryRow } from './types';
import { changes } from './d1-results';
import { getEntryRow } from './queries';
import { syncOne } from './booked';
import { cascadeSpot } from './offers';

// ------------------------------------------------------------------------------------------------
// Cancel

/** Statements that end an offer's hold (idempotent: a consumed hold is left alone). */
export function endHold(db: Ctx['db'], e: EntryRow, status: 'expired' | 'released'): Stmt[] {
  return [
    db
      .update(holds)
      .set({ status })
      .where(and(eq(holds.id, e.offerId as string), eq(holds.customerId, e.customerId), eq(holds.status, 'active'))),
    releaseAllocationsOf({ db }, { customerId: e.customerId, sourceId: e.offerId as string, kind: 'hold' }),
  ];
}

/** Still the same offer, and its hold not used by a booking. */
export const offerStillOpen = (e: EntryRow) =>
  and(
    eq(waitlistEntries.id, e.id),
    eq(waitlistEntries.customerId, e.customerId),
    eq(waitlistEntries.status, 'offered'),
    eq(waitlistEntries.offerId, e.offerId as string),
    sql`NOT EXISTS (SELECT 1 FROM holds WHERE holds.id = ${e.offerId} AND holds.status = 'consumed')`,
  );

export async function cancelEntry(ctx: Ctx, id: string) {
  requirePermission(ctx, 'bookings');
  for (let attempt = 0; attempt < 3; attempt++) {
    const e = await syncOne(ctx, await getEntryRow(ctx, id));
    if (e.status === 'cancelled') return { ...entryOut(e), alreadyCancelled: true };
    if (e.status !== 'waiting' && e.status !== 'offered')
      throw new ApiError('invalid_state', `The entry is ${e.status} and can no longer be cancelled`, { extra: { status: e.status } });
    const nowIso = clockIso(ctx);
    const set = { status: 'cancelled' as const, cancelledAt: nowIso, activeKey: null, updatedAt: nowIso };
    const audit: AuditEntry = {
      action: 'waitlist.cancel',
      targetType: 'waitlist_entry',
      targetId: e.id,
      customerId: e.customerId,
      details: { from: e.status, offerId: e.offerId },
    };
    if (e.status === 'waiting') {
      const { results } = await commit(
        ctx,
        [
          ctx.db
            .update(waitlistEntries)
            .set(set)
            .where(and(eq(waitlistEntries.id, e.id), eq(waitlistEntries.customerId, e.customerId), eq(waitlistEntries.status, 'waiting'))),
        ],
        { audit },
      );
      if (changes(results[0])) return { ...entryOut({ ...e, ...set }), alreadyCancelled: false };
      continue;
    }
    const { results } = await commit(ctx, [ctx.db.update(waitlistEntries).set(set).where(offerStillOpen(e)), ...endHold(ctx.db, e, 'released')], { audit });
    if (!changes(results[0])) continue;
    // The held spot goes to the next waiting entry.
    await cascadeSpot(ctx, {
      customerId: e.customerId,
      itemId: e.inventoryId,
      start: e.offerStart as number,
      end: e.offerEnd as number,
      trigger: 'offer_cancelled',
      triggerSourceId: e.offerId,
    });
    return { ...entryOut({ ...e, ...set }), alreadyCancelled: false };
  }
  throw new ApiError('version_conflict', 'The entry changed while it was being cancelled; retry');
}
