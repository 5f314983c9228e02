/**
 * Device authentication for GPS ingest: each tracker has its own key (`gpd_...`, stored as its
 * SHA-256), sent as `Authorization: Bearer gpd_...` or `X-Device-Key`. The body is validated first
 * (400), then the key (401); 120 requests per minute per device.
 */
import type { MiddlewareHandler } from 'hono';
import { and, eq } from 'drizzle-orm';
import type { AppEnv } from '../../lib/context';
import { sha256Hex } from '../../lib/crypto';
import type { AuthScheme } from '../../lib/openapi';
import { validatedScheme } from '../../lib/provider-auth';
import { getDb } from '../../db/client';
import { gpsDevices } from '../../db/schema/gps';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { gpsFail } from './errors';
import { IngestBody } from './schemas';

export const DEVICE_RATE_LIMIT = 120;

const check: MiddlewareHandler<AppEnv> = async (c, next) => {
  const authz = c.req.header('authorization');
  const key = ((authz ? /^Bearer\s+(.+)$/i.exec(authz.trim())?.[1] : undefined) ?? c.req.header('x-device-key') ?? '').trim();
  if (!key) throw gpsFail('missing_device_key', 'Send the device key as "Authorization: Bearer gpd_..." or "X-Device-Key"');
  const device = await getDb(c.env.DB)
    .select()
    .from(gpsDevices)
    .where(and(eq(gpsDevices.keyHash, await sha256Hex(key)), eq(gpsDevices.status, 'active')))
    .get();
  if (!device) throw gpsFail('invalid_device_key', 'Unknown device key');
  c.set('principal', {
    kind: 'system',
    credentialId: `gps_device:${device.id}`,
    subject: device.id,
    userId: null,
    customerId: device.customerId,
    role: null,
    permissions: [],
    plan: 'enterprise',
    name: device.deviceName,
  });
  const headers = await enforceRateLimit(c, `gps:${device.id}`, DEVICE_RATE_LIMIT);
  await next();
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
};

export const deviceKey: AuthScheme = validatedScheme({ security: [{ DeviceKey: [] }], check }, { body: IngestBody });
