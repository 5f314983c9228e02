/**
 * The short-links module's face. Others use it for:
 * - cart recovery's links in messages: createShortLink, httpUrl, publicBaseUrl.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Env } from '../../env';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { randomString } from '../../lib/ids';
import { nowIso, nowMs } from '../../lib/clock';
import { formatLocalDateTime } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { operatorTimeZone } from '../locations/service';
import { shortLinks } from '../../db/schema/short-links';
import { shortLinkOut } from './views';

/** Short link validity (spec Limits). */
export const SHORT_LINK_DAYS = 30;
const CODE_LENGTH = 8;

/** Where public links point: PUBLIC_BASE_URL, else the request's origin, else the local development server. */
export function publicBaseUrl(env: Env, origin?: string): string {
  return (env.PUBLIC_BASE_URL || origin || 'http://127.0.0.1:8787').replace(/\/$/, '');
}

/** An absolute http(s) URL (400 otherwise): short links never point at javascript:, data: or other schemes. */
export function httpUrl(raw: string, field = 'originalUrl'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('validation_failed', `${field} must be an absolute http(s) URL`, { details: [{ field, message: 'not an absolute URL' }] });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ApiError('validation_failed', `${field} must use http or https`, { details: [{ field, message: `scheme ${url.protocol} is not allowed` }] });
  if (url.username || url.password)
    throw new ApiError('validation_failed', `${field} must not carry credentials`, { details: [{ field, message: 'credentials in URL' }] });
  return url;
}

/** Creates a short link of the caller's operator, valid 30 days. */
export async function createShortLink(ctx: Ctx, input: { originalUrl: string; metadata?: Record<string, unknown>; baseUrl: string }) {
  const customerId = tenantOf(ctx);
  const url = httpUrl(input.originalUrl).toString();
  const now = nowMs(ctx);
  const expiresAt = new Date(now + SHORT_LINK_DAYS * 86_400_000).toISOString();
  for (let attempt = 0; ; attempt++) {
    const row = {
      code: randomString(CODE_LENGTH),
      customerId,
      originalUrl: url,
      metadata: input.metadata ?? {},
      clicks: 0,
      lastClickedAt: null,
      expiresAt,
      createdAt: new Date(now).toISOString(),
    };
    try {
      await ctx.db.insert(shortLinks).values(row);
      return shortLinkOut(row, input.baseUrl, now);
    } catch (err) {
      // 62^8 codes: a collision is rare; try a new code a few times.
      if (attempt < 3 && /UNIQUE|constraint/i.test(String((err as Error)?.message ?? err))) continue;
      throw err;
    }
  }
}

/**
 * The redirect target of a code, counting the click in the same statement: 404 unknown, 410 expired
 * (on the clock of the link's operator).
 */
export async function followShortLink(ctx0: Ctx, code: string): Promise<string> {
  const link = await ctx0.db
    .select({ customerId: shortLinks.customerId, expiresAt: shortLinks.expiresAt })
    .from(shortLinks)
    .where(eq(shortLinks.code, code))
    .get();
  if (!link) throw notFound('Short link');
  const ctx = await onOperatorClock(ctx0, link.customerId);
  const at = nowIso(ctx);
  const hit = await ctx.db
    .update(shortLinks)
    .set({ clicks: sql`${shortLinks.clicks} + 1`, lastClickedAt: at })
    .where(and(eq(shortLinks.code, code), gt(shortLinks.expiresAt, at)))
    .returning({ originalUrl: shortLinks.originalUrl })
    .get();
  if (hit) return hit.originalUrl;
  const tz = await operatorTimeZone(ctx, link.customerId);
  throw new ApiError('expired', `This link expired on ${formatLocalDateTime(link.expiresAt, tz)}`);
}

export async function getShortLink(ctx: Ctx, code: string, baseUrl: string) {
  const row = await ctx.db
    .select()
    .from(shortLinks)
    .where(and(eq(shortLinks.code, code), eq(shortLinks.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Short link');
  return shortLinkOut(row, baseUrl, nowMs(ctx));
}
