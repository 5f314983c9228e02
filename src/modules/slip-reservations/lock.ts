/**
 * Client of the per-unit SlipLock Durable Object. Every write that makes a reservation hold a unit
 * for nights it did not hold before (create, transfer, date change, re-activation of an expired or
 * lapsed bill hold) follows the protocol of Berth's sales lock:
 *   1. `reserveSlip` inside the unit's object (checked against D1 and the object's pending entries);
 *   2. outside calls (a payment), then everything in one D1 batch;
 *   3. `releaseSlip` (after the write or after a failure). An entry expires by itself after 2 minutes.
 * The triggers on slip_reservations abort any batch that would still overlap (`isSlipConflict`).
 */
import type { Env } from '../../env';
import type { Ctx } from '../../lib/context';
import { ApiError, reviveError } from '../../lib/errors';
import type { SlipReserveRequest, SlipReserveResult } from './types';

export interface SlipLockEntry {
  lockId: string;
  slipId: string;
}

const lockOf = (env: Env, slipId: string) => env.SLIP_LOCK.get(env.SLIP_LOCK.idFromName(slipId));

/** Reserves the nights in the unit's lock; bill holds count as holding at the context's "now" (its clock). */
export async function reserveSlip(ctx: Ctx, req: SlipReserveRequest): Promise<SlipLockEntry> {
  const res = (await lockOf(ctx.env, req.slipId).reserve({ ...req, now: ctx.clock.now() })) as SlipReserveResult;
  if (!res.ok) throw reviveError(res, { extra: res.conflicts ? { conflicts: res.conflicts } : undefined });
  return { lockId: res.lockId, slipId: res.slipId };
}

/** Never throws: a lost release only keeps the nights pending until the entry expires. */
export async function releaseSlip(env: Env, e: SlipLockEntry | null | undefined): Promise<void> {
  if (!e) return;
  try {
    await lockOf(env, e.slipId).release(e.lockId);
  } catch (err) {
    console.log(JSON.stringify({ level: 'warn', msg: 'slip lock release failed', slipId: e.slipId, lockId: e.lockId, error: String(err) }));
  }
}

/** A D1 batch aborted by the slip_reservations triggers (the database backstop). */
export function isSlipConflict(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /slip_conflict/.test(`${e?.message ?? err} ${String(e?.cause ?? '')}`);
}

export const slipBackstopConflict = () =>
  new ApiError('unavailable', 'The unit was taken by another reservation at the last moment; nothing was charged or written');
