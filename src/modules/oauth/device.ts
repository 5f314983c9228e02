import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex } from '../../lib/crypto';
import { deviceCodes } from '../../db/schema/oauth';
import { issuePartnerToken, verifyPartnerCredentials } from '../partners/service';
import { CLI_CLIENT_ID, PARTNER_TOKEN_TTL_MS } from '../partners/types';
import { DEVICE_CODE_TTL_MS, DEVICE_POLL_INTERVAL_S } from './types';
import { oauthFail } from './errors';
import { devicePage } from './pages';
import type { Outcome } from './authorize';

/** RFC 8628 6.1: 20 consonants (no vowels: no words), 8 characters = 20^8 codes; shown as two groups of four (BCDF-GHJK). */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const normalizeUserCode = (raw: string) => raw.toUpperCase().replace(/[^A-Z]/g, '');
const displayUserCode = (c: string) => `${c.slice(0, 4)}-${c.slice(4)}`;

/** POST /oauth/device/code: a device code for the command line and the code the partner types in the browser. */
export async function createDeviceCode(ctx: Ctx, issuer: string, clientId: string) {
  if (clientId !== CLI_CLIENT_ID) throw oauthFail('unauthorized_client', `The device authorization grant is for the command-line client (${CLI_CLIENT_ID})`);
  const deviceCode = `bdc_${randomString(40)}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = randomString(8, USER_CODE_ALPHABET);
    try {
      await ctx.db.insert(deviceCodes).values({
        id: newId('dvc'),
        deviceCodeHash: await sha256Hex(deviceCode),
        userCode,
        clientId,
        status: 'pending',
        intervalSeconds: DEVICE_POLL_INTERVAL_S,
        // Device-code lifetimes run on real time (RFC 8628: the terminal polls on its own clock).
        expiresAt: wallClock.now() + DEVICE_CODE_TTL_MS,
      });
    } catch (err) {
      if (isUniqueViolation(err)) continue;
      throw err;
    }
    const shown = displayUserCode(userCode);
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: `${issuer}/device`,
      verification_uri_complete: `${issuer}/device?user_code=${shown}`,
      expires_in: Math.round(DEVICE_CODE_TTL_MS / 1000),
      interval: DEVICE_POLL_INTERVAL_S,
    };
  }
  throw new ApiError('service_unavailable', 'Could not allocate a user code; retry');
}

/** Purges device codes that expired more than a day ago (platform housekeeping, on the job's clock). */
export async function purgeDeviceCodes(ctx: Ctx) {
  await ctx.db.delete(deviceCodes).where(lt(deviceCodes.expiresAt, ctx.clock.now() - 24 * 3600_000));
}

/**
 * POST /device: the partner signs in on the approval page and approves (or denies) the code.
 * Only a pending, unexpired code can be decided, once.
 */
export async function decideDeviceCode(
  ctx: Ctx,
  input: { user_code?: string; email?: string; password?: string; action?: string },
  clientIp?: string,
): Promise<Outcome> {
  const userCode = normalizeUserCode(input.user_code ?? '');
  const show = (status: number, error: string) => ({ kind: 'page' as const, status, html: devicePage({ userCode: input.user_code ?? '', error }) });
  if (userCode.length !== 8) return show(400, 'Enter the 8-letter code your terminal shows');
  let partnerId: string;
  try {
    partnerId = (await verifyPartnerCredentials(ctx, input.email ?? '', input.password ?? '', clientIp)).id;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status >= 500) throw err;
    return show(err.status, err.message);
  }
  const status = input.action === 'deny' ? 'denied' : 'approved';
  const done = await ctx.db
    .update(deviceCodes)
    .set({ status, partnerId })
    // Device-code lifetimes run on real time (createDeviceCode).
    .where(and(eq(deviceCodes.userCode, userCode), eq(deviceCodes.status, 'pending'), gt(deviceCodes.expiresAt, wallClock.now())))
    .returning({ id: deviceCodes.id })
    .get();
  if (!done) return show(400, 'This code is unknown, expired or already used; start again with `berth login`');
  return { kind: 'page', status: 200, html: devicePage({ userCode: displayUserCode(userCode), done: status }) };
}

/**
 * The device_code grant: `authorization_pending` until the partner decides, `slow_down` (and 5
 * more seconds) when polled faster than the interval, `access_denied`, `expired_token`; once
 * approved, one partner token (single use: the row is claimed by a conditional update).
 */
export async function pollDeviceCode(ctx: Ctx, deviceCode: string | undefined) {
  if (!deviceCode) throw oauthFail('invalid_request', 'device_code is required');
  const hash = await sha256Hex(deviceCode);
  const row = await ctx.db.select().from(deviceCodes).where(eq(deviceCodes.deviceCodeHash, hash)).get();
  if (!row) throw oauthFail('invalid_grant', 'Unknown device code');
  // Device-code lifetimes and the polling interval run on real time (the terminal's clock).
  const now = wallClock.now();
  if (row.status === 'used') throw oauthFail('invalid_grant', 'The device code was already used');
  if (now > row.expiresAt) throw oauthFail('expired_token', 'The device code expired; run the login again');
  if (row.status === 'denied') throw oauthFail('access_denied', 'The partner denied the request');
  if (row.status === 'pending') {
    // Claim this poll: only a poll at least `interval` seconds after the previous one passes.
    const polled = await ctx.db
      .update(deviceCodes)
      .set({ lastPolledAt: now })
      .where(and(eq(deviceCodes.id, row.id), or(isNull(deviceCodes.lastPolledAt), lt(deviceCodes.lastPolledAt, now - row.intervalSeconds * 1000 + 250))))
      .returning({ id: deviceCodes.id })
      .get();
    if (!polled) {
      await ctx.db
        .update(deviceCodes)
        .set({ intervalSeconds: row.intervalSeconds + 5, lastPolledAt: now })
        .where(eq(deviceCodes.id, row.id));
      throw oauthFail('slow_down', `Polling too fast; wait ${row.intervalSeconds + 5} seconds between requests`, {
        extra: { interval: row.intervalSeconds + 5 },
      });
    }
    throw oauthFail('authorization_pending', 'Waiting for the partner to approve the code in the browser');
  }
  const claimed = await ctx.db
    .update(deviceCodes)
    .set({ status: 'used' })
    .where(and(eq(deviceCodes.id, row.id), eq(deviceCodes.status, 'approved')))
    .returning({ partnerId: deviceCodes.partnerId })
    .get();
  if (!claimed?.partnerId) throw oauthFail('invalid_grant', 'The device code was already used');
  const t = await issuePartnerToken(ctx, claimed.partnerId, 'cli', 'command line (device login)');
  return {
    access_token: t.token,
    token_type: 'Bearer' as const,
    expires_in: Math.round(PARTNER_TOKEN_TTL_MS / 1000),
    scope: 'partner',
  };
}
