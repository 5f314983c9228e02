import type { Context } from 'hono';
import type { AppEnv } from '../lib/context';
import { ApiError } from '../lib/errors';
import { wallClock } from '../lib/clock';
import type { RateCount } from '../lib/rate-limiter-protocol';

export interface RateState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

export function rateHeaders(s: RateState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(s.limit),
    'X-RateLimit-Remaining': String(s.remaining),
    'X-RateLimit-Reset': String(s.reset),
  };
}

/**
 * Starts counting one request for `bucket` in its Durable Object (exact; one-minute windows, the first
 * opened by the bucket's first request: durable-objects/rate-limiter.ts). The bucket is known before
 * the credential is looked up (a hash of the credential), so authentication runs the count and the
 * lookup in parallel: one round trip, not two. Settle it with `applyRateLimit`.
 */
export function countRequest(c: Context<AppEnv>, bucket: string): Promise<RateCount> {
  return c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(bucket)).count(60_000);
}

/** The rate-limit headers of a counted request; 429 `rate_limited` with `Retry-After` when over `limit`. */
export function applyRateLimit(count: RateCount, limit: number): Record<string, string> {
  const state: RateState = { allowed: count.count <= limit, limit, remaining: Math.max(0, limit - count.count), reset: count.reset };
  const headers = rateHeaders(state);
  if (!state.allowed) {
    // Real time: rate-limit windows are counted in real time by the RateLimiter objects.
    const retryAfter = Math.max(1, state.reset - Math.floor(wallClock.now() / 1000));
    throw new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter}s`, {
      headers: { ...headers, 'Retry-After': String(retryAfter) },
    });
  }
  return headers;
}

/** Counts one request for `bucket` and applies `limit` (when the limit is known before the count). */
export async function enforceRateLimit(c: Context<AppEnv>, bucket: string, limit: number): Promise<Record<string, string>> {
  return applyRateLimit(await countRequest(c, bucket), limit);
}

/**
 * Runs a credential lookup and the credential's rate count in parallel. When the lookup fails
 * (unknown or revoked credential), its error wins; the count of a refused credential is harmless.
 */
export async function lookupAndCount<T>(c: Context<AppEnv>, bucket: string, lookup: Promise<T>): Promise<[T, RateCount]> {
  const counting = countRequest(c, bucket);
  const [found, counted] = await Promise.allSettled([lookup, counting]);
  if (found.status === 'rejected') throw found.reason;
  if (counted.status === 'rejected') throw counted.reason;
  return [found.value, counted.value];
}
