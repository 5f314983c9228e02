import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { markAuthenticated } from '../../lib/round-trips';
import { applyRateLimit } from '../../middleware/rate-limit';
import { authenticateChannelKey, CHANNEL_RATE_LIMIT, type ChannelPrincipal } from '../channel/service';
import { OCTO_CAPABILITIES, type OctoCapability } from './types';

/** Who calls `/octo/v1`: the channel key holder and the capabilities negotiated for this request. */
export interface OctoCaller {
  p: ChannelPrincipal;
  capabilities: OctoCapability[];
  /** `https://host/octo/v1`: the supplier's endpoint. */
  endpoint: string;
}

export const callerOf = (c: { get: (k: 'channel') => unknown }) => c.get('channel') as OctoCaller;

/** The capabilities of `Octo-Capabilities` that Berth implements (unknown ones are ignored, as OCTO asks). */
export function negotiate(header: string | undefined): OctoCapability[] {
  const asked = (header ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return OCTO_CAPABILITIES.filter((c) => asked.includes(c));
}

function setOctoHeaders(c: Context<AppEnv>, caller: Pick<OctoCaller, 'capabilities'> & { mode?: string }, extra: Record<string, string> = {}) {
  c.res.headers.set('Octo-Capabilities', caller.capabilities.join(', '));
  if (caller.mode) c.res.headers.set('Octo-Env', caller.mode);
  if (caller.capabilities.includes('octo/content')) {
    c.res.headers.set('Content-Language', 'en');
    c.res.headers.set('Available-Languages', 'en');
  }
  for (const [k, v] of Object.entries(extra)) c.res.headers.set(k, v);
}

/**
 * OCTO credentials: a channel key as `Authorization: Bearer rtc_...` (the reseller's channel
 * connection key, live or test). The same 300 requests per minute per key as the channel API,
 * counted in the same bucket. Every answer carries `Octo-Capabilities` (what was granted of
 * the request's header), `Octo-Env` (`test` for test keys, `live` otherwise) and X-RateLimit-*.
 */
export const octoAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const capabilities = negotiate(c.req.header('octo-capabilities'));
  const authz = c.req.header('authorization')?.trim();
  const key = (authz ? /^Bearer\s+(.+)$/i.exec(authz)?.[1] : c.req.header('x-channel-key'))?.trim();
  if (!key) {
    setOctoHeaders(c, { capabilities });
    throw new ApiError('unauthenticated', 'Send your API key as "Authorization: Bearer <key>"');
  }
  // As the channel API: one call to the key's rate-limiter object counts the request and answers the key (same bucket).
  const { principal: p, count } = await authenticateChannelKey(c.env, key);
  const url = new URL(c.req.url);
  const caller: OctoCaller = { p, capabilities, endpoint: `${url.origin}/octo/v1` };
  c.set('channel', caller);
  markAuthenticated(c.env);
  const headers = applyRateLimit(count, CHANNEL_RATE_LIMIT);
  await next();
  setOctoHeaders(c, { capabilities, mode: p.mode }, headers);
};
