import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { sha256Hex } from '../../lib/crypto';
import { wallClock } from '../../lib/clock';

/**
 * Throttle of public endpoints that lead to a message (counted exactly in RateLimiter Durable
 * Objects): per client IP per minute (over it: 429 `rate_limited`), and per target address per
 * hour (over it: the caller answers as usual but no message goes out, so the answer never tells
 * whether an address is known or was used). `address: null` counts the IP only (an update that
 * adds no new address).
 */
export const PUBLIC_SEND_LIMITS = { perIpPerMinute: 20, perAddressPerHour: 5 } as const;

export async function throttlePublicSend(ctx: Ctx, q: { kind: string; ip: string | null; address: string | null }): Promise<{ addressAllowed: boolean }> {
  const ns = ctx.env.RATE_LIMITER;
  const ipState = await ns.get(ns.idFromName(`public-send:ip:${q.kind}:${q.ip ?? 'unknown'}`)).hit(PUBLIC_SEND_LIMITS.perIpPerMinute, 60_000);
  if (!ipState.allowed) {
    // Real time: the rate limiter's windows are wall-clock windows.
    const retryAfter = Math.max(1, ipState.reset - Math.floor(wallClock.now() / 1000));
    throw new ApiError('rate_limited', `Too many requests from this address; retry in ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
  }
  if (q.address === null) return { addressAllowed: true }; // nothing new to send to: only the IP counts
  const key = await sha256Hex(q.address.trim().toLowerCase());
  const toState = await ns.get(ns.idFromName(`public-send:to:${q.kind}:${key}`)).hit(PUBLIC_SEND_LIMITS.perAddressPerHour, 3_600_000);
  return { addressAllowed: toState.allowed };
}
