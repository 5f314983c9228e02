/**
 * The drydock module's face. No other module calls it today: its router reaches the periods defined here.
 *
 * Drydock periods: an item (every asset, and assets added later) or chosen assets out of rental.
 * Taken through the item's lock like a sale; a period that overlaps bookings, holds or another
 * drydock period of the same assets is refused with 409 `unavailable` listing the conflicts (move
 * or cancel those first), so a drydock never silently strands a paid booking.
 *
 * Dates: `YYYY-MM-DD` are whole local days in the location's zone (endDate inclusive), or ISO 8601
 * instants with offset. The drydock id is answered as `rentalId` (the spec's name).
 */
import { and, asc, eq } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import { type Ctx, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { addDays, localDate, wallTimeToUtc } from '../../lib/time';
import { isCalendarDate } from '../inventory/types';
import { drydocks } from '../../db/schema/bookings';
import {
  allocationInserts,
  loadItemContext,
  releaseAllocationsOf,
  reserve,
  sell,
  type ItemContext,
  type Reservation,
  type SaleJournal,
  type SalePolicy,
} from '../availability/service';

type DrydockRow = typeof drydocks.$inferSelect;

export function drydockOut(d: DrydockRow) {
  return {
    rentalId: d.id,
    boatId: d.itemId,
    inventoryId: d.itemId,
    assetIds: d.assetIds ?? [],
    wholeItem: !(d.assetIds ?? []).length,
    startDate: d.startDate,
    endDate: d.endDate,
    start: new Date(d.start).toISOString(),
    end: new Date(d.end).toISOString(),
    notes: d.notes,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
}

const badDate = (field: string, message: string) => new ApiError('bad_request', message, { details: [{ field, message }] });
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** The period as instants: local days (end inclusive) or ISO instants. */
export function periodOf(item: ItemContext, startDate: string, endDate: string): { start: number; end: number; startDate: string; endDate: string } {
  const tz = item.item.timezone;
  const parse = (v: string, field: string, isEnd: boolean) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
      if (!isCalendarDate(v)) throw badDate(field, `${field} is not a real date`);
      return wallTimeToUtc(isEnd ? addDays(v, 1) : v, '00:00', tz);
    }
    if (!ISO_WITH_OFFSET.test(v) || Number.isNaN(Date.parse(v))) throw badDate(field, `${field} must be YYYY-MM-DD or an ISO 8601 date-time with offset`);
    return Date.parse(v);
  };
  const start = parse(startDate, 'startDate', false);
  const end = parse(endDate, 'endDate', true);
  if (!(end > start)) throw badDate('endDate', 'endDate must not be before startDate');
  if (end - start > 3 * 366 * 86_400_000) throw badDate('endDate', 'A drydock period lasts at most three years');
  return { start, end, startDate: localDate(start, tz), endDate: localDate(end - 1, tz) };
}

async function drydockInTenant(ctx: Ctx, id: string): Promise<DrydockRow> {
  const row = await ctx.db
    .select()
    .from(drydocks)
    .where(and(eq(drydocks.id, id), eq(drydocks.customerId, tenantOf(ctx))))
    .get();
  if (!row) throw notFound('Drydock period');
  return row;
}

function checkAssets(item: ItemContext, assetIds: string[] | undefined, field: string): string[] | null {
  if (!assetIds?.length) return null;
  if (item.item.kind === 'tour')
    throw new ApiError('bad_request', 'Tours have no assets: leave assetIds out to block the tour', { details: [{ field, message: 'not for tours' }] });
  const ids = [...new Set(assetIds)];
  const known = new Set(item.item.assets.map((a) => a.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw new ApiError('bad_request', `Not assets of this item: ${unknown.join(', ')}`, { details: [{ field, message: 'unknown asset' }] });
  return ids;
}

export async function createDrydock(ctx: Ctx, input: { boatId: string; startDate: string; endDate: string; assetIds?: string[]; notes?: string }) {
  const customerId = tenantOf(ctx);
  requirePermission(ctx, 'inventory');
  const item = await loadItemContext(ctx.db, input.boatId, customerId);
  const p = periodOf(item, input.startDate, input.endDate);
  const assetIds = checkAssets(item, input.assetIds, 'assetIds');
  return sell(ctx, { customerId, itemId: item.row.id, sourceId: newId('dd'), period: p, assetIds, notes: input.notes }, drydockCreateSale);
}

export async function listDrydocks(ctx: Ctx, q: { boatId: string; assetId?: string }) {
  const customerId = tenantOf(ctx);
  const item = await loadItemContext(ctx.db, q.boatId, customerId);
  if (q.assetId && !item.item.assets.some((a) => a.id === q.assetId)) throw notFound('Asset of this item');
  const rows = await ctx.db
    .select()
    .from(drydocks)
    .where(and(eq(drydocks.customerId, customerId), eq(drydocks.itemId, item.row.id)))
    .orderBy(asc(drydocks.start))
    .all();
  const data = rows.filter((r) => !q.assetId || !(r.assetIds ?? []).length || r.assetIds.includes(q.assetId)).map(drydockOut);
  return { data, total: data.length };
}

export async function updateDrydock(ctx: Ctx, input: { rentalId: string; startDate: string; endDate: string; assetId?: string; notes?: string }) {
  requirePermission(ctx, 'inventory');
  const row = await drydockInTenant(ctx, input.rentalId);
  const item = await loadItemContext(ctx.db, row.itemId, row.customerId);
  const p = periodOf(item, input.startDate, input.endDate);
  const assetIds = input.assetId ? checkAssets(item, [input.assetId], 'assetId') : (row.assetIds ?? []).length ? row.assetIds : null;
  return sell(ctx, { customerId: row.customerId, itemId: row.itemId, sourceId: row.id, period: p, assetIds, notes: input.notes, moves: row }, drydockMoveSale);
}

export async function deleteDrydock(ctx: Ctx, input: { rentalId: string }) {
  requirePermission(ctx, 'inventory');
  const row = await drydockInTenant(ctx, input.rentalId);
  await commit(
    ctx,
    [
      releaseAllocationsOf(ctx, { customerId: row.customerId, sourceId: row.id }),
      ctx.db.delete(drydocks).where(and(eq(drydocks.id, row.id), eq(drydocks.customerId, row.customerId))),
    ],
    {
      audit: {
        action: 'drydock.delete',
        targetType: 'drydock',
        targetId: row.id,
        details: { boatId: row.itemId, startDate: row.startDate, endDate: row.endDate },
      },
    },
  );
  return { success: true, rentalId: row.id, deleted: drydockOut(row) };
}

/**
 * A drydock period's sale, for a new period or one moved: the period reserved in the item's lock
 * (the period moved does not count against itself), then written with its allocations.
 */
interface DrydockSale {
  customerId: string;
  itemId: string;
  sourceId: string;
  period: ReturnType<typeof periodOf>;
  assetIds: string[] | null;
  notes: string | undefined;
  /** The period moved (an update). */
  moves?: DrydockRow;
  res?: Reservation;
  out?: ReturnType<typeof drydockOut>;
}

async function reserveDrydock(ctx: Ctx, s: DrydockSale, journal: SaleJournal) {
  const { start, end } = s.period;
  const exclude = s.moves ? { excludeSourceIds: [s.sourceId] } : {};
  s.res = await reserve(ctx, {
    customerId: s.customerId,
    itemId: s.itemId,
    line: { kind: 'drydock', sourceId: s.sourceId, start, end, assetIds: s.assetIds, ...exclude },
  });
  journal.held(s.res);
}

/** POST: a new period, its row and allocations in one commit. */
const drydockCreateSale: SalePolicy<DrydockSale, DrydockSale, ReturnType<typeof drydockOut>> = {
  name: 'drydock',
  begin: (_ctx, order) => ({ ...order }),
  reserve: reserveDrydock,
  async write(ctx, s, journal) {
    const p = s.period;
    const at = nowIso(ctx);
    const row: DrydockRow = {
      id: s.sourceId,
      customerId: s.customerId,
      itemId: s.itemId,
      assetIds: s.assetIds ?? [],
      start: p.start,
      end: p.end,
      startDate: p.startDate,
      endDate: p.endDate,
      notes: s.notes ?? null,
      createdAt: at,
      updatedAt: at,
    };
    await commit(ctx, [ctx.db.insert(drydocks).values(row), ...allocationInserts(ctx, s.res!, at)], {
      audit: {
        action: 'drydock.create',
        targetType: 'drydock',
        targetId: row.id,
        details: { boatId: row.itemId, assetIds: row.assetIds, startDate: row.startDate, endDate: row.endDate },
      },
      via: journal.writer(ctx),
    });
    journal.written();
    s.out = drydockOut(row);
  },
  answer: (s) => s.out!,
};

/** PUT: the period moved, its allocations swapped for the new ones in one commit. */
const drydockMoveSale: SalePolicy<DrydockSale, DrydockSale, ReturnType<typeof drydockOut>> = {
  name: 'drydock.move',
  begin: (_ctx, order) => ({ ...order }),
  reserve: reserveDrydock,
  async write(ctx, s, journal) {
    const row = s.moves!;
    const p = s.period;
    const at = nowIso(ctx);
    const patch = {
      start: p.start,
      end: p.end,
      startDate: p.startDate,
      endDate: p.endDate,
      assetIds: s.assetIds ?? [],
      ...(s.notes !== undefined ? { notes: s.notes } : {}),
      updatedAt: at,
    };
    await commit(
      ctx,
      [
        releaseAllocationsOf(ctx, { customerId: row.customerId, sourceId: row.id }),
        ...allocationInserts(ctx, s.res!, at),
        ctx.db
          .update(drydocks)
          .set(patch)
          .where(and(eq(drydocks.id, row.id), eq(drydocks.customerId, row.customerId))),
      ],
      {
        audit: {
          action: 'drydock.update',
          targetType: 'drydock',
          targetId: row.id,
          details: { startDate: p.startDate, endDate: p.endDate, assetIds: patch.assetIds },
        },
        via: journal.writer(ctx),
      },
    );
    journal.written();
    s.out = drydockOut({ ...row, ...patch });
  },
  answer: (s) => s.out!,
};
