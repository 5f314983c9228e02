import type { Ctx } from '../../lib/context';
import { insertRows, type Stmt } from '../../db/client';
import { bookingEvents } from '../../db/schema/bookings';

/**
 * The activity-log row of a booking change (`booking_events`, read by GET /events). Its id is
 * `bev_{rentalId}_v{version}`: the version a change moves the booking to. Two changes racing from
 * the same version write the same id, so the second D1 batch fails on the primary key and nothing
 * of it lands (no second refund, reversal, event or allocation change). This is the
 * compare-and-swap of every booking operation.
 */
export function activityStmt(
  ctx: Ctx,
  b: { id: string; customerId: string; transactionId: string },
  version: number,
  e: { type: string; change: string; label: string; content?: string; details?: Record<string, unknown> },
): Stmt {
  return insertRows(ctx.db, bookingEvents, {
    id: activityId(b.id, version),
    customerId: b.customerId,
    transactionId: b.transactionId,
    rentalId: b.id,
    eventType: e.type,
    eventChange: e.change,
    eventLabel: e.label,
    content: e.content ?? null,
    details: e.details ?? null,
    actorName: ctx.principal.name ?? (ctx.principal.kind === 'anonymous' ? 'renter' : ctx.principal.kind),
    actorId: ctx.principal.userId ?? ctx.principal.credentialId,
  });
}

export const activityId = (rentalId: string, version: number) => `bev_${rentalId}_v${version}`;

/**
 * The batch lost the race on a booking version: the activity row of that version (or a
 * deterministic ledger reversal `led_rev_*` of the same change) was already written.
 */
export function isVersionRace(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /UNIQUE constraint failed: (booking_events|ledger_entries)\.id/.test(`${e?.message ?? err} ${String(e?.cause ?? '')}`);
}
