import { and, count, desc, eq, inArray, or } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { auditLogs, users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/locations';
import { auditEntryOut, userOut, type UserRow } from './views';

/** Tenant-scoped read; another operator's user answers 404. */
export async function userInTenant(ctx: Ctx, id: string): Promise<UserRow> {
  const row = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('User');
  return row;
}

/** The signed-in user; 403 `no_account` for an identity without a Berth user. */
export async function currentUser(ctx: Ctx): Promise<UserRow> {
  const id = ctx.principal.userId;
  if (!id) throw new ApiError('no_account', 'This identity has no Berth user yet; create an operator account with POST /customer');
  return userInTenant(ctx, id);
}

/** Dashboard e-mails are unique across all operators (they sign in with them). */
export async function isEmailTaken(ctx: Ctx, email: string): Promise<boolean> {
  return Boolean(await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get());
}

/** 400 listing every id that is not a location of the caller. */
export async function assertLocationsInTenant(ctx: Ctx, ids: string[] | undefined) {
  if (!ids?.length) return;
  const found = await ctx.db
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.customerId, tenantOf(ctx)), inArray(locations.id, ids)))
    .all();
  const missing = ids.filter((id) => !found.some((f) => f.id === id));
  if (missing.length)
    throw new ApiError('validation_failed', 'Unknown location ids', {
      details: missing.map((m) => ({ field: 'locations', message: `unknown location ${m}` })),
    });
}

export async function listUsers(ctx: Ctx, q: { customerId?: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const rows = await ctx.db.select().from(users).where(eq(users.customerId, customerId)).orderBy(users.createdAt).all();
  return { data: rows.map(userOut) };
}

/** What a user did and what was done to the user, newest first. */
export async function listAuditLogs(ctx: Ctx, userId: string, q: { limit: number; offset: number }) {
  const user = await userInTenant(ctx, userId);
  const where = and(
    eq(auditLogs.customerId, user.customerId),
    or(eq(auditLogs.actorId, user.id), and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, user.id))),
  );
  const [rows, total] = await Promise.all([
    ctx.db.select().from(auditLogs).where(where).orderBy(desc(auditLogs.createdAt), desc(auditLogs.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(auditLogs).where(where).get(),
  ]);
  return { data: rows.map(auditEntryOut), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

/**
 * The staff of an operator who work at a location (their `locations` include it, or are empty for
 * every location), with their skills; for public staff availability (names as shown to renters).
 */
export async function staffAtLocation(ctx: Ctx, q: { customerId: string; locationId: string }) {
  const rows = await ctx.db
    .select({ id: users.id, name: users.name, profileName: users.profileName, locations: users.locations, userSkills: users.userSkills })
    .from(users)
    .where(eq(users.customerId, q.customerId))
    .all();
  return rows
    .filter((u) => !u.locations?.length || u.locations.includes(q.locationId))
    .map((u) => ({ staffId: u.id, displayName: u.profileName?.trim() || u.name.trim().split(/\s+/)[0] || 'Staff', skills: u.userSkills ?? [] }));
}
