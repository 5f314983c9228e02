import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { slipWaitlistEntries as E, slipWaitlistOffers as O } from '../../db/schema/slip-waitlist';
import { slipRowsByIds } from '../slips/service';
import { entryOut, offerOut, type EntryRow, type OfferRow } from './views';

/** The place of a waiting entry in its location's queue (1 = next), computed in the same read. */
export const queuePositionSql = sql<number>`(SELECT count(*) FROM slip_waitlist_entries w2 WHERE w2.customer_id = "slip_waitlist_entries"."customer_id" AND w2.location_id = "slip_waitlist_entries"."location_id" AND w2.status = 'waiting' AND w2.position < "slip_waitlist_entries"."position") + 1`;

/** SQL for "the bottom of the queue of this location": one more than the largest position, in the statement itself. */
export const bottomOf = (customerId: string, locationId: string) =>
  sql`(SELECT coalesce(max(position), 0) + 1 FROM slip_waitlist_entries WHERE customer_id = ${customerId} AND location_id = ${locationId})`;
export const topOf = (customerId: string, locationId: string) =>
  sql`(SELECT coalesce(min(position), 1) - 1 FROM slip_waitlist_entries WHERE customer_id = ${customerId} AND location_id = ${locationId})`;

export async function getEntryRow(ctx: Ctx, id: string): Promise<EntryRow> {
  const row = await ctx.db
    .select()
    .from(E)
    .where(and(eq(E.id, id), eq(E.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Waitlist entry');
  return row;
}

export async function openOfferOf(ctx: Ctx, entryId: string): Promise<OfferRow | undefined> {
  return await ctx.db
    .select()
    .from(O)
    .where(and(eq(O.customerId, tenantOf(ctx)), eq(O.entryId, entryId), eq(O.status, 'offered')))
    .get();
}

/** Views of entries with their queue position and open offer (a handful of reads whatever the page size). */
export async function entryViews(ctx: Ctx, rows: EntryRow[]) {
  if (!rows.length) return [];
  const customerId = tenantOf(ctx);
  const ids = rows.map((r) => r.id);
  const [positions, offers] = await Promise.all([
    ctx.db
      .select({ id: E.id, pos: queuePositionSql })
      .from(E)
      .where(and(eq(E.customerId, customerId), inArray(E.id, ids)))
      .all(),
    ctx.db
      .select()
      .from(O)
      .where(and(eq(O.customerId, customerId), inArray(O.entryId, ids), eq(O.status, 'offered')))
      .all(),
  ]);
  const units = new Map(
    (
      await slipRowsByIds(
        ctx,
        offers.map((o) => o.slipId),
      )
    ).map((u) => [u.id, u.unitNumber]),
  );
  const pos = new Map(positions.map((p) => [p.id, Number(p.pos)]));
  const open = new Map(offers.map((o) => [o.entryId, offerOut(o, units.get(o.slipId) ?? null)]));
  return rows.map((r) => entryOut(r, pos.get(r.id) ?? null, open.get(r.id) ?? null));
}

export const entryView = async (ctx: Ctx, row: EntryRow) => (await entryViews(ctx, [row]))[0];

export async function entryDetail(ctx: Ctx, row: EntryRow) {
  const offers = await ctx.db
    .select()
    .from(O)
    .where(and(eq(O.customerId, row.customerId), eq(O.entryId, row.id)))
    .orderBy(desc(O.createdAt))
    .all();
  const units = new Map(
    (
      await slipRowsByIds(
        ctx,
        offers.map((o) => o.slipId),
      )
    ).map((u) => [u.id, u.unitNumber]),
  );
  return { ...(await entryView(ctx, row)), offers: offers.map((o) => offerOut(o, units.get(o.slipId) ?? null)) };
}

export async function pageOfEntries(ctx: Ctx, where: SQL, limit: number, offset: number) {
  const [rows, count] = await Promise.all([
    ctx.db.select().from(E).where(where).orderBy(asc(E.position), asc(E.id)).limit(limit).offset(offset).all(),
    ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(E)
      .where(where)
      .get(),
  ]);
  return { data: await entryViews(ctx, rows), total: Number(count?.n ?? 0), limit, offset };
}
