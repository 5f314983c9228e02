import type { Context } from 'hono';
import type { AppEnv } from '../lib/context';
import { ApiError } from '../lib/errors';

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

/** Counts one request for `bucket` in its Durable Object (exact, per minute); 429 when over. */
export async function enforceRateLimit(c: Context<AppEnv>, bucket: string, limit: number): Promise<Record<string, string>> {
  const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(bucket));
  const state = await stub.hit(limit, 60_000);
  const headers = rateHeaders(state);
  if (!state.allowed) {
    const retryAfter = Math.max(1, state.reset - Math.floor(Date.now() / 1000));
    throw new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded; retry in ${retryAfter}s`, {
      headers: { ...headers, 'Retry-After': String(retryAfter) },
    });
  }
  return headers;
}
