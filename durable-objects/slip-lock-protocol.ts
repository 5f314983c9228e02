/**
 * The RPC interface of the per-unit SlipLock Durable Object (durable-objects/slip-lock.ts). It
 * imports only the slip reservations' protocol types (a leaf file): `src/env.ts` types the
 * `SLIP_LOCK` binding with it without importing the object's class (no import cycle).
 */
import type { SlipReserveRequest, SlipReserveResult } from '../src/modules/slip-reservations/types';

export interface SlipLockRpc extends Rpc.DurableObjectBranded {
  reserve(req: SlipReserveRequest): Promise<SlipReserveResult>;
  release(lockId: string): Promise<boolean>;
  pendingCount(): Promise<number>;
}
