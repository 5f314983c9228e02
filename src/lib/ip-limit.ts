/**
 * The client's address, and per-client-IP limits of anonymous public endpoints (uploads, AI helpers,
 * funnel events), counted exactly in RateLimiter Durable Objects (fixed windows). Over the limit:
 * 429 `rate_limited` with `Retry-After`.
 *
 * Which address to trust: `CF-Connecting-IP` is set by Cloudflare's edge, which overwrites whatever
 * a client sent, so it is trusted only where something plays that edge: staging and production
 * (Cloudflare) and the test runtime (vitest's requests are the only clients, and tests give each
 * renter an address of its own). Under `wrangler dev` (development) anyone who reaches the port can
 * send any value, so there the header is ignored and every caller is the one local address:
 * rotating the header cannot rotate a per-IP limit (test/service/run.mjs proves it on `npm start`).
 */
import type { Context } from 'hono';
import type { AppEnv, Ctx } from './context';
import { ApiError } from './errors';
import { wallClock } from './clock';
import { isProduction, type Env } from '../env';

/** Every caller's address where no edge sets `CF-Connecting-IP` (development). */
export const LOCAL_CLIENT_IP = '127.0.0.1';

/** The client address of a request as the platform reports it: `CF-Connecting-IP` where the edge (or the test runtime) sets it, else LOCAL_CLIENT_IP. */
export function trustedClientIp(env: Pick<Env, 'ENVIRONMENT'>, header: string | null | undefined): string {
  if (!isProduction(env as Env) && env.ENVIRONMENT !== 'test') return LOCAL_CLIENT_IP;
  const ip = header?.trim();
  // Behind the edge the header is always present; without it the caller shares one bucket.
  return ip && ip.length <= 64 ? ip : 'unknown';
}

/** The client address of the request of `c` (see trustedClientIp). */
export const clientIp = (c: Context<AppEnv>): string => trustedClientIp(c.env, c.req.header('cf-connecting-ip'));

export async function limitIp(ctx: Ctx, q: { kind: string; ip: string | null; limit: number; windowMs: number }): Promise<void> {
  const ns = ctx.env.RATE_LIMITER;
  const state = await ns.get(ns.idFromName(`public:${q.kind}:${q.ip ?? 'unknown'}`)).hit(q.limit, q.windowMs);
  if (state.allowed) return;
  // Real time: the limiter's windows are real time (a rate limit, not business time).
  const retryAfter = Math.max(1, state.reset - Math.floor(wallClock.now() / 1000));
  throw new ApiError('rate_limited', `Too many requests from this address; retry in ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
}
