import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { todayIn } from '../../lib/clock';
import { slipDocuments as D } from '../../db/schema/slip-documents';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { getReservationRow, type ReservationRow } from '../slip-reservations/service';
import type * as s from './schemas';
import { documentOut, type DocumentRow } from './views';

export async function getDocumentRow(ctx: Ctx, id: string): Promise<DocumentRow> {
  const row = await ctx.db
    .select()
    .from(D)
    .where(and(eq(D.id, id), eq(D.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Document');
  return row;
}

const RANK: Record<string, number> = { approved: 4, submitted: 3, pending_upload: 2, rejected: 1 };

/** The location's required documents and how far the reservation's documents cover them. */
export async function requirementsOf(ctx: Ctx, r: ReservationRow) {
  const [settings, loc, rows] = await Promise.all([
    getSlipSettings(ctx, r.locationId),
    getLocationInTenant(ctx, r.locationId),
    ctx.db
      .select()
      .from(D)
      .where(and(eq(D.customerId, r.customerId), eq(D.reservationId, r.id)))
      .orderBy(asc(D.createdAt))
      .all(),
  ]);
  const today = todayIn(ctx, loc.timezone);
  const requirements = settings.requiredDocuments.map((raw) => {
    const type = raw.trim().toLowerCase();
    const best = rows.filter((d) => d.type === type).sort((a, b) => RANK[b.status] - RANK[a.status] || b.createdAt.localeCompare(a.createdAt))[0];
    const expired = best && (best.status === 'approved' || best.status === 'submitted') && best.expiresOn != null && best.expiresOn < today;
    return {
      type,
      status: best ? (expired ? ('expired' as const) : best.status) : ('missing' as const),
      documentId: best?.id ?? null,
      expiresOn: best?.expiresOn ?? null,
    };
  });
  return {
    reservationId: r.id,
    requirements,
    documents: rows.map(documentOut),
    complete: requirements.every((q) => q.status === 'approved' || q.status === 'submitted'),
  };
}

export async function listDocuments(ctx: Ctx, q: z.output<typeof s.ListQuery>) {
  const customerId = tenantOf(ctx);
  if (!q.locationId && !q.reservationId)
    throw new ApiError('validation_failed', 'Give locationId or reservationId', {
      details: [{ field: 'locationId', code: 'required', message: 'locationId or reservationId is required' }],
    });
  if (q.locationId) await getLocationInTenant(ctx, q.locationId);
  if (q.reservationId) await getReservationRow(ctx, q.reservationId);
  const conds: SQL[] = [eq(D.customerId, customerId)];
  if (q.locationId) conds.push(eq(D.locationId, q.locationId));
  if (q.reservationId) conds.push(eq(D.reservationId, q.reservationId));
  if (q.status) conds.push(eq(D.status, q.status));
  if (q.type) conds.push(eq(D.type, q.type.trim().toLowerCase()));
  const where = and(...conds);
  const [rows, count] = await Promise.all([
    ctx.db.select().from(D).where(where).orderBy(desc(D.createdAt), desc(D.id)).limit(q.limit).offset(q.offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(D)
      .where(where)
      .get(),
  ]);
  return { data: rows.map(documentOut), total: Number(count?.n ?? 0), limit: q.limit, offset: q.offset };
}

export const getDocument = async (ctx: Ctx, id: string) => documentOut(await getDocumentRow(ctx, id));
