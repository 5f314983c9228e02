import { and, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { nowMs } from '../../lib/clock';
import { formatLocalDateTime } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { waiverNumbers, waiverTemplates } from '../../db/schema/waivers';
import { getLocationInTenant, locationRowAnyOperator, operatorTimeZone } from '../locations/service';
import { getRenterInTenant } from '../renters/service';
import { normalizePin } from './pin';
import { isExpired, publicWaiverNumberOut, waiverNumberOut, type Status, type WaiverNumberRow } from './views';

/** Tenant-scoped read by waiver number; deleted and other operators' waiver numbers answer 404. */
export async function getWaiverNumberInTenant(ctx: Ctx, waiverNumber: string, customerId = tenantOf(ctx)): Promise<WaiverNumberRow> {
  const row = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(eq(waiverNumbers.customerId, customerId), eq(waiverNumbers.waiverNumber, waiverNumber), ne(waiverNumbers.status, 'DELETED')))
    .get();
  if (!row) throw notFound('Waiver number');
  return row;
}

/** 404 when a referenced location, template or renter is not the caller's (or is deleted). */
export async function checkRefs(ctx: Ctx, refs: { locationId?: string | null; templateId?: string | null; renterId?: string | null }) {
  if (refs.locationId) await getLocationInTenant(ctx, refs.locationId);
  if (refs.templateId) {
    const t = await ctx.db
      .select({ id: waiverTemplates.id, deletedAt: waiverTemplates.deletedAt })
      .from(waiverTemplates)
      .where(and(eq(waiverTemplates.id, refs.templateId), eq(waiverTemplates.customerId, tenantOf(ctx))))
      .get();
    if (!t || t.deletedAt) throw notFound('Waiver template');
  }
  if (refs.renterId) await getRenterInTenant(ctx, refs.renterId);
}

export async function listWaiverNumbers(
  ctx: Ctx,
  q: { transactionId?: string; customerId?: string; locationId?: string; status?: Status; limit: number; offset: number },
) {
  const customerId = ownCustomer(ctx, q.customerId);
  const conds: SQL[] = [eq(waiverNumbers.customerId, customerId), ne(waiverNumbers.status, 'DELETED')];
  if (q.transactionId) conds.push(eq(waiverNumbers.transactionId, q.transactionId));
  if (q.locationId) conds.push(eq(waiverNumbers.locationId, q.locationId));
  if (q.status) conds.push(eq(waiverNumbers.status, q.status));
  const where = and(...conds);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(waiverNumbers)
    .where(where)
    .all();
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(where)
    .orderBy(desc(waiverNumbers.createdAt), desc(waiverNumbers.id))
    .limit(q.limit)
    .offset(q.offset)
    .all();
  const now = nowMs(ctx);
  return { data: rows.map((r) => waiverNumberOut(r, now)), total: Number(n), limit: q.limit, offset: q.offset };
}

/**
 * When a waiver number's PIN expires, as its holder reads it: in its location's zone (else the
 * operator's), e.g. "Sat 12 Dec 2026, 10:00 EST".
 */
export async function pinExpiryText(ctx: Ctx, r: Pick<WaiverNumberRow, 'pinExpiresAt' | 'locationId' | 'customerId'>): Promise<string> {
  const loc = r.locationId ? await locationRowAnyOperator(ctx, r.locationId) : null;
  const tz = loc?.customerId === r.customerId && loc.timezone ? loc.timezone : await operatorTimeZone(ctx, r.customerId);
  return formatLocalDateTime(r.pinExpiresAt, tz);
}

/**
 * The pending waiver number of a PIN (public). 404 unknown or used PIN, 410 expired (on the clock of
 * the waiver number's operator). Answers it with `ctx` on that clock.
 */
export async function findPendingByPin(
  ctx: Ctx,
  pin: string,
  opts: { customerId?: string; locationId?: string } = {},
): Promise<{ row: WaiverNumberRow; ctx: Ctx }> {
  const conds: SQL[] = [eq(waiverNumbers.pin, normalizePin(pin))];
  if (opts.customerId) conds.push(eq(waiverNumbers.customerId, opts.customerId));
  if (opts.locationId) conds.push(eq(waiverNumbers.locationId, opts.locationId));
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(...conds))
    .limit(2)
    .all();
  if (rows.length !== 1 || rows[0].status !== 'PENDING') throw new ApiError('not_found', 'Invalid PIN, or the waiver was already completed');
  const octx = await onOperatorClock(ctx, rows[0].customerId);
  if (isExpired(rows[0], nowMs(octx)))
    throw new ApiError('expired', `This PIN expired on ${await pinExpiryText(octx, rows[0])}; ask the operator for a new waiver number`);
  return { row: rows[0], ctx: octx };
}

export async function validatePin(ctx0: Ctx, pin: string) {
  const { row, ctx } = await findPendingByPin(ctx0, pin);
  return publicWaiverNumberOut(row, nowMs(ctx));
}
