import { DurableObject } from 'cloudflare:workers';
import type { RateCount, RateLimiterRpc } from './rate-limiter-protocol';

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
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    if (this.window.start !== start) this.window = { start, count: 0 };
    this.window.count++;
    this.ctx.storage.kv.put('w', this.window);
    return { count: this.window.count, reset: Math.ceil((start + windowMs) / 1000) };
  }
}
