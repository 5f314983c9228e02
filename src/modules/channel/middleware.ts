import type { MiddlewareHandler } from 'hono';
import { channelFail } from './errors';
import { and, eq } from 'drizzle-orm';
import { ctxOf, type AppEnv } from '../../lib/context';
import { resolvePartnerToken } from '../partners/service';
import { getDb } from '../../db/client';
import { channels } from '../../db/schema/channel';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { markAuthenticated } from '../../lib/round-trips';
import { applyRateLimit, lookupAndCount } from '../../middleware/rate-limit';
import type { RateCount } from '../../lib/rate-limiter-protocol';
import { authenticateChannelKey, type ChannelPrincipal, type ChannelRow } from './keys';

export const CHANNEL_RATE_LIMIT = 300;

/** The calling key holder, set by `channelAuth`. */
export const channelOf = (c: { get: (k: 'channel') => unknown }) => c.get('channel') as ChannelPrincipal;
/** The reseller signed in to the partner portal, set by `portalAuth`. */
export const portalOf = (c: { get: (k: 'channel') => unknown }) => c.get('channel') as ChannelRow;

/**
 * Channel keys: `Authorization: Bearer rtc_...` or `X-Channel-Key: rtc_...`. Missing → 401
 * `missing_api_key`; unknown or rotated → 401 `invalid_api_key`; paused → 403 `connection_paused`.
 * 300 requests per minute per key (a key holder has one active key per mode: rotation revokes the
 * old one) with X-RateLimit-* on every answer. One round trip: the key's rate-limiter object counts
 * the request and answers the key's record (`authenticateChannelKey`); rotation, pausing and every
 * other change make that object forget the record, so a rotated key stops at once.
 */
export const channelAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const authz = c.req.header('authorization');
  const bearer = authz ? /^Bearer\s+(.+)$/i.exec(authz.trim())?.[1] : undefined;
  const key = (bearer ?? c.req.header('x-channel-key') ?? '').trim();
  if (!key) throw channelFail('missing_api_key', 'Send your channel key as "Authorization: Bearer rtc_..." or "X-Channel-Key: rtc_..."');
  const { principal, count } = await authenticateChannelKey(c.env, key);
  c.set('channel', principal);
  markAuthenticated(c.env);
  const headers = applyRateLimit(count, CHANNEL_RATE_LIMIT);
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

/** The channel of a partner token (`bpt_...`): the partner account's channel, or the one named by `X-Channel-Id` when it owns several. */
async function partnerChannel(c: Parameters<MiddlewareHandler<AppEnv>>[0], token: string): Promise<ChannelRow> {
  const { partner } = await resolvePartnerToken(ctxOf(c), token).catch(() => {
    throw channelFail('invalid_api_key', 'Invalid, expired or revoked partner token');
  });
  const wanted = c.req.header('x-channel-id');
  const owned = await getDb(c.env.DB)
    .select()
    .from(channels)
    .where(and(eq(channels.partnerAccountId, partner.id), wanted ? eq(channels.id, wanted) : undefined))
    .all();
  if (!owned.length) throw channelFail('invalid_api_key', 'This partner account has no reseller channel; register one with POST /channel/v1/portal/register');
  if (owned.length > 1) throw channelFail('invalid_api_key', 'This partner account owns several channels: name one with X-Channel-Id');
  return owned[0];
}

/** Partner-portal token (`Authorization: Bearer rtp_...`) of a registered reseller channel, or the partner token (`bpt_...`) of the account that owns it. */
export const portalAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const authz = c.req.header('authorization');
  const partnerToken = authz ? /^Bearer\s+(bpt_[A-Za-z0-9]{40})$/i.exec(authz.trim())?.[1] : undefined;
  const token = authz ? /^Bearer\s+(rtp_[A-Za-z0-9]{16,120})$/i.exec(authz.trim())?.[1] : undefined;
  if (!token && !partnerToken) throw channelFail('missing_api_key', 'Send the partner-portal token as "Authorization: Bearer rtp_..." (or your partner token)');
  // The token's rate count (bucketed by the token's hash) runs in parallel with its lookup.
  const hash = await sha256Hex((partnerToken ?? token)!);
  let channel: ChannelRow | undefined;
  let count: RateCount;
  if (partnerToken) [channel, count] = await lookupAndCount(c, `portal:${hash}`, partnerChannel(c, partnerToken));
  else {
    const [row, counted] = await lookupAndCount(c, `portal:${hash}`, getDb(c.env.DB).select().from(channels).where(eq(channels.portalTokenHash, hash)).get());
    if (!row || !timingSafeEqual(row.portalTokenHash, hash)) throw channelFail('invalid_api_key', 'Unknown partner-portal token');
    [channel, count] = [row, counted];
  }
  c.set('channel', channel);
  markAuthenticated(c.env);
  const headers = applyRateLimit(count, CHANNEL_RATE_LIMIT);
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};
