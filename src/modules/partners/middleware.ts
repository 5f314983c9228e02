import type { Context } from 'hono';
import { ctxOf, type AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
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

/** Partner tokens (`Authorization: Bearer bpt_...`), for partner-owned routes of any module (apps, coverage offerings, the channel portal). */
export const partnerAuth: AuthScheme = {
  security: [{ PartnerToken: [] }],
  middleware: async (c, next) => {
    const headers = await authenticatePartner(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};
