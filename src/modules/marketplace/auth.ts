/**
 * The marketplace's credential: its API key in the `exp-api-key` header (or `X-Marketplace-Key`),
 * or `data.ApiKey` inside an /ota/api request. Inputs are validated first (400), then the key
 * (401 missing or unknown, 403 inactive configuration); 300 requests per minute per configuration.
 */
import type { MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import type { AppEnv } from '../../lib/context';
import type { AuthScheme } from '../../lib/openapi';
import { readBodyText, validatedScheme } from '../../lib/provider-auth';
import { getDb } from '../../db/client';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { marketplacePrincipal } from './config';
import { configByKey } from './queries';

export const MARKETPLACE_RATE_LIMIT = 300;
const security = [{ MarketplaceKey: [] }];

async function authenticate(c: Parameters<MiddlewareHandler<AppEnv>>[0], key: string | undefined) {
  const cfg = await configByKey(getDb(c.env.DB), key?.trim());
  c.set('principal', marketplacePrincipal(cfg));
  return enforceRateLimit(c, `ota:${cfg.id}`, MARKETPLACE_RATE_LIMIT);
}

const headerKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const headers = await authenticate(c, c.req.header('exp-api-key') ?? c.req.header('x-marketplace-key'));
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

/** The key in a header, for the supplier routes (inputs validated first). */
export const marketplaceKey = (body?: ZodType): AuthScheme => validatedScheme({ security, check: headerKey }, { body });

/** /ota/api: the key in `data.ApiKey` (a header is accepted too). */
const bodyKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = JSON.parse(await readBodyText(c)) as { data?: { ApiKey?: unknown } };
  const fromBody = typeof body.data?.ApiKey === 'string' ? body.data.ApiKey : undefined;
  const headers = await authenticate(c, fromBody ?? c.req.header('exp-api-key') ?? c.req.header('x-marketplace-key'));
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

export const dispatcherKey = (body: ZodType, checkType: MiddlewareHandler<AppEnv>): AuthScheme =>
  validatedScheme(
    {
      security,
      check: async (c, next) =>
        checkType(c, async () => {
          await bodyKey(c, next);
        }),
    },
    { body },
  );
