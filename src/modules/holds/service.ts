/**
 * The holds module's face, and the holds themselves. Others use it for:
 * - acting for the operator named in a public request (waitlist): asTenant.
 * - the expiry sweep and its next due instant (the holds tests): expireHolds, nextHoldExpiry.
 *
 * Holds (`/holdAsset`, the spec's waitlist entries): one unit of an item kept for an e-mail for
 * two days. Rentals: one asset free for the whole two days is taken (a `hold` allocation that
 * expires); tours: one seat on every departure of the next two days that has one. Others see one
 * unit fewer; a booking by the same e-mail may use the held unit and consumes the hold; the cron
 * sweep marks expired holds and deactivates their allocations (an expired hold stops counting at
 * once, sweep or not). Taken inside the item's lock like every sale.
 */
import { and, eq, gt, lte, min } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { onOperatorClock } from '../../lib/operator-clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { allocations } from '../../db/schema/inventory';
import { holds } from '../../db/schema/bookings';
import { customers } from '../../db/schema/accounts';
import { allocationInserts, expireLapsedHoldAllocations, loadItemContext, reserve, sell, type Reservation, type SalePolicy } from '../availability/service';

export const HOLD_TTL_MS = 2 * 86_400_000;

type HoldRow = typeof holds.$inferSelect;

function holdOut(h: HoldRow, allocs: { assetId: string | null; start: number; end: number }[]) {
  return {
    holdId: h.id,
    customerId: h.customerId,
    email: h.email,
    inventoryId: h.inventoryId,
    locationId: h.locationId,
    status: h.status,
    expiresAt: h.expiresAt,
    assetIds: allocs.filter((a) => a.assetId).map((a) => a.assetId as string),
    departures: allocs.filter((a) => !a.assetId).map((a) => ({ startTime: new Date(a.start).toISOString(), endTime: new Date(a.end).toISOString(), seats: 1 })),
    createdAt: h.createdAt,
  };
}

/** The caller acting for an operator: anonymous public callers write under the operator named in the request. */
export function asTenant(ctx: Ctx, customerId: string): Ctx {
  return ctx.principal.customerId === customerId ? ctx : { ...ctx, principal: { ...ctx.principal, customerId } };
}

export async function holdAsset(ctx: Ctx, input: { customerId: string; email: string; inventoryId: string; locationId: string }) {
  if (ctx.principal.customerId && ctx.principal.customerId !== input.customerId)
    throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  const owner = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, input.customerId)).get();
  if (!owner) throw notFound('Operator');
  const item = await loadItemContext(ctx.db, input.inventoryId, input.customerId);
  if (item.row.locationId !== input.locationId) throw notFound('Inventory item at this location');
  // The operator is known from the request's body: its clock (a sandbox test clock's time) from here on.
  ctx = await onOperatorClock(ctx, input.customerId);
  const tctx = asTenant(ctx, input.customerId);
  const now = ctx.clock.now();
  const email = input.email.trim().toLowerCase();
  const existing = await ctx.db
    .select()
    .from(holds)
    .where(
      and(
        eq(holds.customerId, input.customerId),
        eq(holds.inventoryId, item.row.id),
        eq(holds.email, email),
        eq(holds.status, 'active'),
        gt(holds.expiresAt, new Date(now).toISOString()),
      ),
    )
    .get();
  if (existing) {
    const allocs = await ctx.db
      .select()
      .from(allocations)
      .where(and(eq(allocations.customerId, input.customerId), eq(allocations.sourceId, existing.id), eq(allocations.active, true)))
      .all();
    return { hold: holdOut(existing, allocs), created: false };
  }
  return sell(ctx, { tctx, customerId: input.customerId, email, itemId: item.row.id, locationId: item.row.locationId, now }, holdSale);
}

/** A hold's order: the e-mail and the item, with the operator's now. */
interface HoldOrder {
  tctx: Ctx;
  customerId: string;
  email: string;
  itemId: string;
  locationId: string;
  now: number;
}

/** A hold's sale: one `hold` unit reserved in the item's lock for two days, written with the hold row. */
interface HoldSale {
  /** The caller acting for the operator (the commit's audit row). */
  tctx: Ctx;
  row: HoldRow;
  start: number;
  res?: Reservation;
}

const holdSale: SalePolicy<HoldOrder, HoldSale, { hold: ReturnType<typeof holdOut>; created: boolean }> = {
  name: 'hold',
  begin(_ctx, { tctx, customerId, email, itemId, locationId, now }) {
    const nowIso = new Date(now).toISOString();
    const expiresAt = new Date(now + HOLD_TTL_MS).toISOString();
    const row: HoldRow = {
      id: newId('hold'),
      customerId,
      email,
      inventoryId: itemId,
      locationId,
      status: 'active',
      expiresAt,
      createdAt: nowIso,
      updatedAt: nowIso,
    };
    return { tctx, row, start: now };
  },
  async reserve(ctx, s, journal) {
    const { row } = s;
    const expiresAt = s.start + HOLD_TTL_MS;
    s.res = await reserve(ctx, {
      customerId: row.customerId,
      itemId: row.inventoryId,
      line: { kind: 'hold', sourceId: row.id, start: s.start, end: expiresAt, expiresAt },
    });
    journal.held(s.res);
  },
  async write(ctx, s, journal) {
    const { row } = s;
    await commit(s.tctx, [ctx.db.insert(holds).values(row), ...allocationInserts(ctx, s.res!, row.createdAt)], {
      audit: {
        action: 'hold.create',
        targetType: 'hold',
        targetId: row.id,
        customerId: row.customerId,
        details: { inventoryId: row.inventoryId, email: row.email, expiresAt: row.expiresAt },
      },
      via: journal.writer(ctx),
    });
    journal.written();
  },
  answer: (s) => ({ hold: holdOut(s.row, s.res!.allocations), created: true }),
};

/**
 * Cron: marks holds past their expiry and deactivates the `hold` allocations past theirs (holds,
 * waitlist offers, marketplace and OCTO holds), as of the context's clock, for the operators in the
 * job's scope.
 */
export async function expireHolds(ctx: Ctx): Promise<{ expired: number }> {
  const db = ctx.db;
  const now = ctx.clock.now();
  const [h] = await db.batch([
    db
      .update(holds)
      .set({ status: 'expired' })
      .where(and(eq(holds.status, 'active'), lte(holds.expiresAt, new Date(now).toISOString()), inJobScope(ctx, holds.customerId))),
    expireLapsedHoldAllocations(ctx, now),
  ]);
  return { expired: (h as { meta?: { changes?: number } }).meta?.changes ?? 0 };
}

/** The job's next due instant: the first hold or `hold` allocation to expire after the clock's now, in scope. */
export async function nextHoldExpiry(ctx: Ctx): Promise<number | null> {
  const now = ctx.clock.now();
  const [[h], [a]] = await ctx.db.batch([
    ctx.db
      .select({ at: min(holds.expiresAt) })
      .from(holds)
      .where(and(eq(holds.status, 'active'), gt(holds.expiresAt, new Date(now).toISOString()), inJobScope(ctx, holds.customerId))),
    ctx.db
      .select({ at: min(allocations.expiresAt) })
      .from(allocations)
      .where(and(eq(allocations.kind, 'hold'), eq(allocations.active, true), gt(allocations.expiresAt, now), inJobScope(ctx, allocations.customerId))),
  ]);
  const dues = [h?.at ? Date.parse(h.at) : null, a?.at ?? null].filter((d): d is number => d != null && Number.isFinite(d));
  return dues.length ? Math.min(...dues) : null;
}
