/**
 * The RPC interface of the per-credential RateLimiter Durable Object (durable-objects/rate-limiter.ts).
 * This file imports nothing: `src/env.ts` types the `RATE_LIMITER` binding with it and the client
 * (src/middleware/rate-limit.ts) calls it, without importing the object's class.
 */

/** The state of a credential's current window after counting one request. */
export interface RateCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Unix seconds when the window resets. */
  reset: number;
}

export interface RateLimiterRpc extends Rpc.DurableObjectBranded {
  /**
   * Counts one request in the current fixed window and answers the window's count. The caller
   * compares it with the credential's limit (known only after the credential is read, so the count
   * can run in parallel with that read): counts only grow within a window, so "refuse when the
   * count exceeds the limit" refuses exactly the requests that "refuse without counting when the
   * count has reached the limit" would.
   */
  count(windowMs?: number): Promise<RateCount>;
  /** Counts one request unless the window already holds `limit` (refused requests are not counted); for callers that know the limit up front. */
  hit(limit: number, windowMs?: number): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }>;
  /** The state of the window without counting a request (a limit that only some answers consume, such as unknown guest-pass codes). */
  peek(limit: number, windowMs?: number): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }>;
}
