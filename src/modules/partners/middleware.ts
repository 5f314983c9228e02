import type { Context } from 'hono';
import { ctxOf, type AppEnv, type Principal } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import type { AuthScheme } from '../../lib/openapi';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { PARTNER_RATE_LIMIT, partnerPrincipal, resolvePartnerToken } from './accounts';

/** Partner tokens: `Authorization: Bearer bpt_...`; 300 requests per minute per partner account. */
async function authenticatePartner(c: Context<AppEnv>): Promise<Record<string, string>> {
  const authz = c.req.header('authorization');
  const token = authz ? /^Bearer\s+(\S+)$/i.exec(authz.trim())?.[1] : undefined;
  if (!token) throw new ApiError('unauthenticated', 'Send the partner token as "Authorization: Bearer bpt_..."');
  const { partner, tokenId } = await resolvePartnerToken(ctxOf(c), token);
  c.set('principal', partnerPrincipal(partner, tokenId));
  return enforceRateLimit(c, `partner:${partner.id}`, PARTNER_RATE_LIMIT);
}

const PLATFORM: Principal = {
  kind: 'platform',
  credentialId: 'platform:key',
  userId: null,
  customerId: null,
  role: null,
  permissions: [],
  plan: 'enterprise',
  name: 'Berth platform staff',
};

/**
 * Platform staff: the platform key (`x-platform-key`, the PLATFORM_API_KEY secret), or any
 * operator-side credential the app's authenticator resolves to a `platform` principal.
 * Missing credentials 401; anyone else 403.
 */
async function authenticatePlatform(c: Context<AppEnv>): Promise<Record<string, string>> {
  const key = c.req.header('x-platform-key');
  if (key !== undefined) {
    const expected = c.env.PLATFORM_API_KEY;
    if (!expected || !timingSafeEqual(await sha256Hex(key), await sha256Hex(expected))) throw new ApiError('unauthenticated', 'Invalid platform key');
    c.set('principal', PLATFORM);
    return enforceRateLimit(c, PLATFORM.credentialId, 500);
  }
  const headers = await c.get('authenticate')(c, 'operator');
  if (c.get('principal').kind !== 'platform') throw new ApiError('forbidden', 'Only Berth platform staff may review apps');
  return headers;
}

/** Partner tokens (`Authorization: Bearer bpt_...`), for partner-owned routes of any module (apps, coverage offerings, the channel portal). */
export const partnerAuth: AuthScheme = {
  security: [{ PartnerToken: [] }],
  middleware: async (c, next) => {
    const headers = await authenticatePartner(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};

/** Berth platform staff (`x-platform-key`, or a platform principal from the identity provider). */
export const platformAuth: AuthScheme = {
  security: [{ PlatformKey: [] }],
  middleware: async (c, next) => {
    const headers = await authenticatePlatform(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};
