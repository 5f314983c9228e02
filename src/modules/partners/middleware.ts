import type { AuthScheme } from '../../lib/openapi';
import { authenticatePartner } from './accounts';
import { authenticatePlatform } from './review';

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
