/**
 * The RPC interface of the per-unit SlipLock Durable Object (durable-objects/slip-lock.ts). It
 * imports only the slip reservations' protocol types (a leaf file): `src/env.ts` types the
 * `SLIP_LOCK` binding with it without importing the object's class (no import cycle).
 */
import type { SlipReserveRequest, SlipReserveResult } from '../src/modules/slip-reservations/types';

/**
 * A reserve request as the lock takes it: `now` is the seller's "now" (its context's clock,
 * lib/clock.ts), against which bill holds' expiry is measured; the lock's own pending entries
 * (SLIP_LOCK_TTL_MS) stay on real time. Without it the lock reads real time.
 */
export type SlipLockReserve = SlipReserveRequest & { now?: number };

export interface SlipLockRpc extends Rpc.DurableObjectBranded {
  reserve(req: SlipLockReserve): Promise<SlipReserveResult>;
  release(lockId: string): Promise<boolean>;
  pendingCount(): Promise<number>;
}
