import { and, desc, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { fromNowIso, nowIso, todayIn } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { addDays, wallTimeToUtc } from '../../lib/time';
import { slipGuestPasses as P } from '../../db/schema/slip-guest-access';
import { getLocationInTenant } from '../locations/service';
import type * as s from './schemas';
import type { PassStatus } from './types';
import { passOut, type PassRow } from './views';

export async function getPassRow(ctx: Ctx, id: string): Promise<PassRow> {
  const row = await ctx.db
    .select()
    .from(P)
    .where(and(eq(P.id, id), eq(P.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Guest pass');
  return row;
}

function statusFilter(status: PassStatus, now: string): SQL {
  if (status === 'active') return and(eq(P.status, 'active'), gt(P.validUntil, now))!;
  if (status === 'expired') return or(eq(P.status, 'expired'), and(eq(P.status, 'active'), lte(P.validUntil, now)))!;
  return eq(P.status, 'revoked');
}

export async function listPasses(ctx: Ctx, q: z.output<typeof s.ListQuery>) {
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, q.locationId);
  const now = nowIso(ctx);
  const conds: SQL[] = [eq(P.customerId, customerId), eq(P.locationId, q.locationId)];
  if (q.reservationId) conds.push(eq(P.reservationId, q.reservationId));
  if (q.status) conds.push(statusFilter(q.status, now));
  if (q.q) {
    const p = `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    conds.push(or(sql`${P.guestName} LIKE ${p} ESCAPE '\\'`, sql`coalesce(${P.vehiclePlate}, '') LIKE ${p} ESCAPE '\\'`)!);
  }
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    ctx.db.select().from(P).where(where).orderBy(desc(P.createdAt), desc(P.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(P)
      .where(where)
      .get(),
  ]);
  return { data: rows.map((p) => passOut(p, now)), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

/** Passes of one reservation, newest first (the tenant portal). */
export async function passesOfReservation(ctx: Ctx, reservationId: string, page: { limit: number; offset: number }) {
  const customerId = tenantOf(ctx);
  const where = and(eq(P.customerId, customerId), eq(P.reservationId, reservationId));
  const [rows, count] = await Promise.all([
    ctx.db.select().from(P).where(where).orderBy(desc(P.createdAt), desc(P.id)).limit(page.limit).offset(page.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(P)
      .where(where)
      .get(),
  ]);
  const now = nowIso(ctx);
  return { data: rows.map((p) => passOut(p, now)), total: Number(count?.n ?? 0), limit: page.limit, offset: page.offset };
}

export async function passStats(ctx: Ctx, q: { locationId: string }) {
  const customerId = tenantOf(ctx);
  const loc = await getLocationInTenant(ctx, q.locationId);
  const now = nowIso(ctx);
  const base = [eq(P.customerId, customerId), eq(P.locationId, q.locationId)];
  const today = todayIn(ctx, loc.timezone);
  const dayStart = new Date(wallTimeToUtc(today, '00:00', loc.timezone)).toISOString();
  const dayEnd = new Date(wallTimeToUtc(addDays(today, 1), '00:00', loc.timezone)).toISOString();
  const count = async (...extra: SQL[]) =>
    Number(
      (
        await ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(P)
          .where(and(...base, ...extra))
          .get()
      )?.n ?? 0,
    );
  const soon = fromNowIso(ctx, 86_400_000);
  const [active, expired, revoked, validNow, expiring, checkedIn, idVerified] = await Promise.all([
    count(statusFilter('active', now)),
    count(statusFilter('expired', now)),
    count(statusFilter('revoked', now)),
    count(statusFilter('active', now), lte(P.validFrom, now)),
    count(statusFilter('active', now), lte(P.validUntil, soon)),
    count(sql`${P.lastCheckInAt} >= ${dayStart}`, sql`${P.lastCheckInAt} < ${dayEnd}`),
    count(eq(P.idVerified, true)),
  ]);
  return {
    locationId: q.locationId,
    byStatus: { active, expired, revoked },
    validNow,
    expiringWithin24h: expiring,
    checkedInToday: checkedIn,
    idVerified,
    total: active + expired + revoked,
  };
}
