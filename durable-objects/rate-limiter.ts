import { DurableObject } from 'cloudflare:workers';

interface Window {
  start: number;
  count: number;
}

/**
 * One object per credential (API key, user, gateway installation, channel connection).
 * A Durable Object runs one request at a time, so the count is exact. Fixed one-minute windows.
 */
export class RateLimiter extends DurableObject {
  private window: Window | undefined;

  async hit(limit: number, windowMs = 60_000): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }> {
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    if (this.window.start !== start) this.window = { start, count: 0 };
    const reset = Math.ceil((start + windowMs) / 1000);
    if (this.window.count >= limit) return { allowed: false, limit, remaining: 0, reset };
    this.window.count++;
    this.ctx.storage.kv.put('w', this.window);
    return { allowed: true, limit, remaining: limit - this.window.count, reset };
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
