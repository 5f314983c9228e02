import type { Ctx } from '../../lib/context';

// ------------------------------------------------------------------------------------------------
// Released capacity

export interface CapacityReleased {
  customerId: string;
  itemId: string;
  rentalId: string;
  locationId: string;
  start: number;
  end: number;
  /** Tour seats given back (0 for rentals). */
  seats: number;
  assetIds: string[];
  reason: 'cancelled' | 'no_show';
}

type ReleaseHook = (ctx: Ctx, e: CapacityReleased) => Promise<void>;
const releaseHooks: ReleaseHook[] = [];

/**
 * Called once for every booking whose capacity was given back (cancelled or no-show), after the
 * release was committed. A waitlist registers here to offer the seats (as a hold with expiry).
 * Hooks run after the response's data is final; their failures are logged, never surfaced.
 */
export function onSeatsReleased(fn: ReleaseHook) {
  releaseHooks.push(fn);
}

export async function runReleaseHooks(ctx: Ctx, e: CapacityReleased) {
  for (const h of releaseHooks) {
    try {
      await h(ctx, e);
    } catch (err) {
      console.log(JSON.stringify({ level: 'error', msg: 'seats-released hook failed', rentalId: e.rentalId, error: String(err) }));
    }
  }
}
