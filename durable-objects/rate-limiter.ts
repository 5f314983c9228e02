import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import { getDb, type DB } from '../src/db/client';
import { wallClock } from '../src/lib/clock';
import { CREDENTIAL_ROW_TTL_MS, LAST_USED_EVERY_MS, readApiKeyRow } from '../src/lib/credentials';
import { readChannelKeyRecord } from '../src/modules/channel/service';
import type { ApiKeyAuth, ApiKeyRow, ChannelKeyAuth, ChannelKeyRecord, RateCount, RateLimiterRpc } from '../src/lib/rate-limiter-protocol';

/**
 * Rate-limit windows, the held row's freshness and the last-used throttle run on real time, never an
 * operator's sandbox clock: they measure how fast requests really come (lib/clock.ts).
 */
const realNow = (): number => wallClock.now();

interface Window {
  start: number;
  count: number;
}

interface Held {
  kind: 'api_key' | 'channel_key';
  hash: string;
  row: unknown;
  readAt: number;
  /** When this object last answered `touch` (API keys). */
  touchedAt: number;
}

/**
 * One object per credential (API key, identity, channel key, partner-portal token), named by a
 * hash of the credential so the count can start before the credential is looked up. A Durable
 * Object runs one request at a time, so the count is exact. Fixed one-minute windows.
 *
 * The object of an operator API key or a channel key also holds the key's row
 * (src/lib/credentials.ts), so an authenticated request is one call and no D1 read.
 */
export class RateLimiter extends DurableObject<Env> implements RateLimiterRpc {
  private window: Window | undefined;
  /** The credential's row as last read (one credential per object: the object is named by its hash). */
  private held: Held | undefined;
  /** Counts `forget` calls: a read that a forget overtook is answered but not held. */
  private epoch = 0;

  /** The held row of this credential, or a fresh read of it (held unless a forget came while D1 answered). */
  private async row<T>(kind: Held['kind'], hash: string, read: (db: DB, hash: string) => Promise<T | undefined>): Promise<Held | null> {
    const now = realNow();
    const h = this.held;
    if (h && h.kind === kind && h.hash === hash && now - h.readAt < CREDENTIAL_ROW_TTL_MS) return h;
    const epoch = this.epoch;
    const row = await read(getDb(this.env.DB), hash);
    if (!row) return null;
    const fresh: Held = { kind, hash, row, readAt: now, touchedAt: h?.kind === kind && h.hash === hash ? h.touchedAt : 0 };
    if (epoch === this.epoch) this.held = fresh;
    return fresh;
  }

  async authenticate(hash: string, windowMs = 60_000): Promise<ApiKeyAuth> {
    const count = await this.count(windowMs);
    const held = await this.row('api_key', hash, readApiKeyRow);
    if (!held) return { count, row: null, touch: false };
    const row = held.row as ApiKeyRow;
    const now = realNow();
    const touch = now - Math.max(held.touchedAt, row.key.lastUsedAt ? Date.parse(row.key.lastUsedAt) : 0) > LAST_USED_EVERY_MS;
    if (touch) held.touchedAt = now;
    return { count, row, touch };
  }

  async authenticateChannel(hash: string, windowMs = 60_000): Promise<ChannelKeyAuth> {
    const count = await this.count(windowMs);
    const held = await this.row('channel_key', hash, readChannelKeyRecord);
    return { count, row: held ? (held.row as ChannelKeyRecord) : null };
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
    const start = Math.floor(realNow() / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    if (this.window.start !== start) this.window = { start, count: 0 };
    return this.window;
  }

  /** The state of the window without counting a request (a limit that only some answers consume, such as failed guesses). */
  async peek(limit: number, windowMs = 60_000): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }> {
    const now = realNow();
    const start = Math.floor(now / windowMs) * windowMs;
    if (!this.window) this.window = this.ctx.storage.kv.get<Window>('w') ?? { start, count: 0 };
    const count = this.window.start === start ? this.window.count : 0;
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), reset: Math.ceil((start + windowMs) / 1000) };
  }
}
