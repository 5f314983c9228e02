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
 * Object runs one request at a time, so the count is exact. Fixed windows (one minute unless the
 * caller says otherwise), each starting at the first request after the previous one ended, not at a
 * multiple of the window on the epoch: a credential's first request always opens a whole window, and
 * `reset` (X-RateLimit-Reset, Retry-After) is when that window ends.
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

  /** The window in force at `now`, if any: it started at most `windowMs` ago. */
  private open(now: number, windowMs: number): Window | undefined {
    this.window ??= this.ctx.storage.kv.get<Window>('w');
    const w = this.window;
    return w && w.start <= now && now < w.start + windowMs ? w : undefined;
  }

  /** The window in force, or a new one starting now. */
  private current(windowMs: number): Window {
    const now = realNow();
    return this.open(now, windowMs) ?? (this.window = { start: now, count: 0 });
  }

  /** The state of the window without counting a request (a limit that only some answers consume, such as failed guesses). */
  async peek(limit: number, windowMs = 60_000): Promise<{ allowed: boolean; limit: number; remaining: number; reset: number }> {
    const now = realNow();
    const w = this.open(now, windowMs);
    const count = w?.count ?? 0;
    // No window in force: the next counted request opens one now.
    const start = w?.start ?? now;
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), reset: Math.ceil((start + windowMs) / 1000) };
  }
}
