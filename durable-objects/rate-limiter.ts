import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import { getDb } from '../src/db/client';
import { API_KEY_ROW_TTL_MS, LAST_USED_EVERY_MS, readApiKeyRow } from '../src/lib/credentials';
import type { ApiKeyAuth, ApiKeyRow, RateCount, RateLimiterRpc } from '../src/lib/rate-limiter-protocol';

interface Window {
  start: number;
  count: number;
}

/**
 * One object per credential (API key, identity, channel key, partner-portal token), named by a
 * hash of the credential so the count can start before the credential is looked up. A Durable
 * Object runs one request at a time, so the count is exact. Fixed one-minute windows.
 *
 * The object of an operator API key also holds the key's row (src/lib/credentials.ts), so an
 * authenticated request is one call and no D1 read.
 */
export class RateLimiter extends DurableObject<Env> implements RateLimiterRpc {
  private window: Window | undefined;
  private held: { row: ApiKeyRow; readAt: number; touchedAt: number } | undefined;
  /** Counts `forget` calls: a read that a forget overtook is answered but not held. */
  private epoch = 0;

  async authenticate(hash: string, windowMs = 60_000): Promise<ApiKeyAuth> {
    const count = await this.count(windowMs);
    const now = Date.now();
    let held = this.held && now - this.held.readAt < API_KEY_ROW_TTL_MS && this.held.row.key.keyHash === hash ? this.held : undefined;
    if (!held) {
      // Other calls may run while D1 answers (a forget among them): the row is held only if none did forget.
      const epoch = this.epoch;
      const row = (await readApiKeyRow(getDb(this.env.DB), hash)) ?? null;
      if (!row) return { count, row: null, touch: false };
      const lastUsed = row.key.lastUsedAt ? Date.parse(row.key.lastUsedAt) : 0;
      held = { row, readAt: now, touchedAt: Math.max(lastUsed, this.held?.row.key.id === row.key.id ? this.held.touchedAt : 0) };
      if (epoch === this.epoch) this.held = held;
    }
    const touch = now - held.touchedAt > LAST_USED_EVERY_MS;
    if (touch) held.touchedAt = now;
    return { count, row: held.row, touch };
  }

  async forget(): Promise<void> {
    this.epoch++;
    this.held = undefined;
  }

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
