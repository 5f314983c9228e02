import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { slipReservationChanges, slipReservations } from '../../db/schema/slip-reservations';
import type { ReservationRow } from './views';

/**
 * The UPDATE of a reservation from its version to the next, with the change-log row of that next
 * version (same batch). Two changes racing from one version: the second batch fails on the change
 * row's primary key and lands not at all (`isReservationRace`).
 */
export function reservationChange(
  ctx: Ctx,
  r: ReservationRow,
  patch: Partial<ReservationRow>,
  action: string,
  details?: Record<string, unknown>,
): { stmts: Stmt[]; row: ReservationRow } {
  const version = r.version + 1;
  const row: ReservationRow = { ...r, ...patch, version, updatedAt: nowIso(ctx) };
  return {
    row,
    stmts: [
      ctx.db.insert(slipReservationChanges).values({
        id: `${r.id}_v${version}`,
        customerId: r.customerId,
        reservationId: r.id,
        version,
        action,
        details: details ?? null,
        actorId: ctx.principal.userId ?? ctx.principal.credentialId,
      }),
      ctx.db
        .update(slipReservations)
        .set({ ...patch, version })
        .where(and(eq(slipReservations.id, r.id), eq(slipReservations.customerId, r.customerId), eq(slipReservations.version, r.version))),
    ],
  };
}

export function isReservationRace(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /UNIQUE constraint failed: (slip_reservation_changes|ledger_entries)\.id/.test(`${e?.message ?? err} ${String(e?.cause ?? '')}`);
}

export const raceError = () => new ApiError('version_conflict', 'The reservation was changed by another request meanwhile; reload and retry');
