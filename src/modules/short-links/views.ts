import type { z } from '@hono/zod-openapi';
import type { shortLinks } from '../../db/schema/short-links';
import type * as s from './schemas';

export type ShortLinkRow = typeof shortLinks.$inferSelect;

export function shortLinkOut(row: ShortLinkRow, baseUrl: string, now = Date.now()): z.output<typeof s.ShortLink> {
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
