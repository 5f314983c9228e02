/**
 * Common ground of the integration adapters: whether the real providers are called, and the
 * storage of the offline simulators.
 *
 * Staging and production always call the real providers (an integration whose secrets are
 * missing answers 503). Development and tests run the simulators, which need no network and keep
 * the provider's side of the conversation (issued codes, revoked tokens, calendar events,
 * reservations, journals) as JSON documents in R2 under `simulators/`, so a restart of
 * `wrangler dev` keeps them, like a remote service would. `INTEGRATIONS_LIVE=on` makes
 * development call the real providers with the configured secrets.
 */
import type { Env } from '../env';
import { isProduction } from '../env';
import { wallClock } from '../lib/clock';

export const liveIntegrations = (env: Env) => isProduction(env) || env.INTEGRATIONS_LIVE === 'on';

const PREFIX = 'simulators/';

/**
 * A provider's own clock: real time. What a provider (or its simulator) stamps or checks on its side
 * (token lifetimes, codes used, journals posted, notifications received, its rate windows) is its
 * time, never a Berth operator's sandbox clock.
 */
export const providerNow = (): number => wallClock.now();
export const providerNowIso = (): string => new Date(providerNow()).toISOString();

/** The simulated providers' storage (R2 JSON documents). Read-modify-write is fine here: each simulated account is used by one caller at a time. */
export const simStore = {
  async get<T>(env: Env, key: string): Promise<T | null> {
    const obj = await env.FILES.get(PREFIX + key);
    return obj ? ((await obj.json()) as T) : null;
  },
  async put(env: Env, key: string, value: unknown): Promise<void> {
    await env.FILES.put(PREFIX + key, JSON.stringify(value), { httpMetadata: { contentType: 'application/json' } });
  },
  async delete(env: Env, key: string): Promise<void> {
    await env.FILES.delete(PREFIX + key);
  },
  async update<T>(env: Env, key: string, init: T, fn: (doc: T) => T | void): Promise<T> {
    const doc = (await simStore.get<T>(env, key)) ?? init;
    const next = fn(doc) ?? doc;
    await simStore.put(env, key, next);
    return next;
  },
};

/** An error answered by a provider (or its simulator), classified for retries. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'not_found' | 'gone' | 'rate_limited' | 'invalid' | 'transient',
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** Classifies a non-2xx provider answer. */
export function providerError(what: string, res: Response, text = ''): ProviderError {
  const s = res.status;
  const retryAfter = Number(res.headers.get('retry-after'));
  const detail = text ? `: ${text.slice(0, 200)}` : '';
  if (s === 401 || s === 403) return new ProviderError(`${what} refused the credentials (${s})${detail}`, 'auth', s);
  if (s === 404) return new ProviderError(`${what}: not found${detail}`, 'not_found', s);
  if (s === 410) return new ProviderError(`${what}: gone${detail}`, 'gone', s);
  if (s === 429)
    return new ProviderError(`${what}: rate limited`, 'rate_limited', s, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 60_000);
  if (s >= 500) return new ProviderError(`${what} is unavailable (${s})`, 'transient', s);
  return new ProviderError(`${what} refused the request (${s})${detail}`, 'invalid', s);
}
