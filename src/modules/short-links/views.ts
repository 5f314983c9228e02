import type { z } from '@hono/zod-openapi';
import type { shortLinks } from '../../db/schema/short-links';
import type * as s from './schemas';

export type ShortLinkRow = typeof shortLinks.$inferSelect;

/** `now` (ms, the operator's clock) tells whether the link has expired. */
export function shortLinkOut(row: ShortLinkRow, baseUrl: string, now: number): z.output<typeof s.ShortLink> {
  return {
    code: row.code,
    shortUrl: `${baseUrl}/s/${row.code}`,
    originalUrl: row.originalUrl,
    metadata: row.metadata ?? {},
    clicks: row.clicks,
    lastClickedAt: row.lastClickedAt,
    expiresAt: row.expiresAt,
    expired: Date.parse(row.expiresAt) <= now,
    createdAt: row.createdAt,
  };
}
