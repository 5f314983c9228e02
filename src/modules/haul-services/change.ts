import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { nowIso } from '../../lib/clock';
import { commit, type DomainEvent } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import type { Stmt } from '../../db/client';
import { haulServices as H } from '../../db/schema/haul-services';
import type { HaulRow } from './views';

const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
/** A stale write of the service (its version guard) or of the reservation it charges (its change row). */
export const isVersionRace = (err: unknown) =>
  /haul_version_conflict|UNIQUE constraint failed: (slip_reservation_changes|ledger_entries)\.id/.test(errText(err));

/** Maps a failed batch to its API error (a stale version answers 409 `version_conflict`). */
export function failed(err: unknown): never {
  if (isVersionRace(err)) throw new ApiError('version_conflict', 'The haul service was changed by another request meanwhile; reload and retry');
  throw err;
}

/** Writes a change of a service with its compare-and-swap (version + 1) and the caller's statements, audit and events. */
export async function commitChange(
  ctx: Ctx,
  h: HaulRow,
  patch: Partial<HaulRow>,
  extra: Stmt[],
  audit: { action: string; details?: Record<string, unknown> },
  events: DomainEvent[] = [],
) {
  const now = nowIso(ctx);
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(H)
          .set({ ...patch, version: h.version + 1, updatedAt: now })
          .where(and(eq(H.id, h.id), eq(H.customerId, h.customerId))),
        ...extra,
      ],
      { audit: { action: audit.action, targetType: 'haul_service', targetId: h.id, details: { from: h.status, ...(audit.details ?? {}) } }, events },
    );
  } catch (err) {
    failed(err);
  }
}
