/**
 * The RPC interface of the per-credential RateLimiter Durable Object (durable-objects/rate-limiter.ts).
 * This file imports types only: `src/env.ts` types the `RATE_LIMITER` binding with it and the client
 * (src/middleware/rate-limit.ts) calls it, without importing the object's class.
 */
import type { channelConnections, channelKeys, channels } from '../db/schema/channel';

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
  /**
   * The object of an operator API key (named `key:<hash>`) also holds the key's row, so one call
   * authenticates: counts one request and answers the live key with this SHA-256 hex hash (read
   * from D1 when not held, or held for too long).
   */
  authenticate(hash: string, windowMs?: number): Promise<ApiKeyAuth>;
  /** The same for a channel key (named `chan:<hash>`): counts one request and answers the key with its channel or connection. */
  authenticateChannel(hash: string, windowMs?: number): Promise<ChannelKeyAuth>;
  /** Drops the held key row: the next request reads the key again. Called after every change to what the row is made of. */
  forget(): Promise<void>;
}

/** An operator API key as authentication reads it: the key, its user and its operator's plan (src/lib/credentials.ts). */
export interface ApiKeyRow {
  key: { id: string; customerId: string; keyHash: string; lastUsedAt: string | null };
  user: {
    id: string;
    customerId: string;
    role: 'admin' | 'manager' | 'staff';
    permissions: string[];
    email: string;
    name: string;
    idpSubject: string | null;
  };
  customer: { plan: 'standard' | 'enterprise' } | null;
}

/** What `authenticate` answers: the request counted, the key's row (null when no live key has this hash). */
export interface ApiKeyAuth {
  count: RateCount;
  row: ApiKeyRow | null;
  /** True once per LAST_USED_EVERY_MS: the caller records the key's `last_used_at` (after its response). */
  touch: boolean;
}

/** A channel key as authentication reads it: the key with its channel (platform key) or its connection (single-operator key). */
export interface ChannelKeyRecord {
  key: typeof channelKeys.$inferSelect;
  channel: typeof channels.$inferSelect | null;
  connection: typeof channelConnections.$inferSelect | null;
}

/** What `authenticateChannel` answers: the request counted, the key's record (null when no live key has this hash). */
export interface ChannelKeyAuth {
  count: RateCount;
  row: ChannelKeyRecord | null;
}
