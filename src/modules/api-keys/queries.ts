import { and, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { apiKeys } from '../../db/schema/accounts';
import { keyOut, type KeyRow } from './views';

/** Tenant-scoped read; another operator's key answers 404. */
export async function keyInTenant(ctx: Ctx, id: string): Promise<KeyRow> {
  const row = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('API key');
  return row;
}

/** The operator's keys, newest first, without secrets. */
export async function listKeys(ctx: Ctx) {
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.customerId, tenantOf(ctx)))
    .orderBy(desc(apiKeys.createdAt))
    .all();
  return { data: rows.map(keyOut) };
}

/** A user's keys (name, prefix, dates; never the secret), for the user's data export. */
export async function userKeys(ctx: Ctx, userId: string) {
  return ctx.db
    .select({ name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.customerId, tenantOf(ctx))))
    .all();
}
