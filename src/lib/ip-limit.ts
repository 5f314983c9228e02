/**
 * Per-client-IP limits of anonymous public endpoints (uploads, AI helpers, funnel events), counted
 * exactly in RateLimiter Durable Objects (fixed windows). Over the limit: 429 `rate_limited` with
 * `Retry-After`. The IP is the edge's `CF-Connecting-IP`; without one (local tools) all callers share
 * the `unknown` bucket.
 */
import type { Ctx } from './context';
import { ApiError } from './errors';
import { wallClock } from './clock';

export async function limitIp(ctx: Ctx, q: { kind: string; ip: string | null; limit: number; windowMs: number }): Promise<void> {
  const ns = ctx.env.RATE_LIMITER;
  const state = await ns.get(ns.idFromName(`public:${q.kind}:${q.ip ?? 'unknown'}`)).hit(q.limit, q.windowMs);
  if (state.allowed) return;
  // Real time: the limiter's windows are real time (a rate limit, not business time).
  const retryAfter = Math.max(1, state.reset - Math.floor(wallClock.now() / 1000));
  throw new ApiError('rate_limited', `Too many requests from this address; retry in ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
}
