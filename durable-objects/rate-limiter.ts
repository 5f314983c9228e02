import { DurableObject } from 'cloudflare:workers';
import type { RateCount, RateLimiterRpc } from '../src/lib/rate-limiter-protocol';

interface Window {
  start: number;
  count: number;
}

/**
 * One object per credential (API key, identity, channel key, partner-portal token), named by a
 * hash of the credential so the count can start before the credential is looked up. A Durable
 * Object runs one request at a time, so the count is exact. Fixed one-minute windows.
 */
export class RateLimiter extends DurableObject implements RateLimiterRpc {
  private window: Window | undefined;

  async count(windowMs = 60_000): Promise<RateCount> {
    const w = this.current(windowMs);
    w.count++;
    this.ctx.storage.kv.put('w', w);
    return { count: w.count, reset: Math.ceil((w.start + windowMs) / 1000) };
  }

  async hit(limit: number, windowMs = 60_000): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }> {
    const w = this.current(windowMs);
    const reset = Math.ceil((w.start + windowMs) / 1000);
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, reset };
    w.count++;
    this.ctx.storage.kv.put('w', w);
    return { allowed: true, limit, remaining: limit - w.count, reset };
  }

  private current(windowMs: number): Window {
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    if (this.window.start !== start) this.window = { start, count: 0 };
    return this.window;
  }

  /** The state of the window without counting a request (a limit that only some answers consume, such as failed guesses). */
  async peek(limit: number, windowMs = 60_000): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }> {
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    const count = this.window.start === start ? this.window.count : 0;
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), reset: Math.ceil((start + windowMs) / 1000) };
  }
}
