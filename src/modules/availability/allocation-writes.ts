/**
 * Every write of the `allocations` table: availability alone writes allocations (GUIDE, "Selling";
 * the lint rule in eslint.config.mjs keeps it so). The rows to insert come out of the item's lock
 * (`reserve()` in lock.ts: `Reservation.allocations`); the updates and deletes are named by what
 * they mean. Each builder returns drizzle statements, never results, so a caller keeps its one
 * `commit`/`db.batch`; every UPDATE and DELETE is tenant-scoped (the operator's `customer_id`, or a
 * cron job's scope).
 */
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import { insertRows, type Stmt } from '../../db/client';
import type { Ctx } from '../../lib/context';
import { inJobScope } from '../../lib/job-scope';
import { allocations } from '../../db/schema/inventory';
import type { Reservation } from './types';

/** The builders only need the database (some callers hold `db` alone). */
type DbOf = Pick<Ctx, 'db'>;

/** An operator's allocations owned by one source (a booking, hold or drydock id) or by several. */
export type AllocationSources = { customerId: string } & ({ sourceId: string } | { sourceIds: string[] });

const ofSources = (s: AllocationSources) => ('sourceId' in s ? eq(allocations.sourceId, s.sourceId) : inArray(allocations.sourceId, s.sourceIds));

/** Inserts the rows reserved in the item's lock (one reservation's or several, in order), stamped `createdAt`. */
export function allocationInserts(ctx: DbOf, from: Pick<Reservation, 'allocations'> | Pick<Reservation, 'allocations'>[], createdAt: string): Stmt[] {
  const rows = Array.isArray(from) ? from.flatMap((r) => r.allocations) : from.allocations;
  return rows.map((a) => insertRows(ctx.db, allocations, { ...a, createdAt }));
}

/** Gives the sources' time back (cancel, reschedule, a hold ended or consumed): their active rows (of `kind` only, when given) stop counting. */
export const releaseAllocationsOf = (ctx: DbOf, s: AllocationSources & { kind?: 'hold' }): Stmt =>
  ctx.db
    .update(allocations)
    .set({ active: false })
    .where(and(eq(allocations.customerId, s.customerId), ofSources(s), s.kind ? eq(allocations.kind, s.kind) : undefined, eq(allocations.active, true)));

/** A rental returned early: its active asset rows still running at `at` end then (never before they start), keeping their turnaround buffer. */
export const endAllocationsEarly = (ctx: DbOf, s: { customerId: string; sourceId: string }, at: number): Stmt =>
  ctx.db
    .update(allocations)
    .set({
      end: sql`max(${allocations.start}, ${at})`,
      blockedEnd: sql`max(${allocations.start}, ${at}) + (${allocations.blockedEnd} - ${allocations.end})`,
    })
    .where(
      and(
        eq(allocations.customerId, s.customerId),
        eq(allocations.sourceId, s.sourceId),
        eq(allocations.active, true),
        gt(allocations.end, at),
        sql`${allocations.assetId} IS NOT NULL`,
      ),
    );

/**
 * Deletes the sources' rows outright: sandbox resets of test sales only (a live sale's rows are
 * released, never deleted). Answers the deleted rows (`DeletedAllocation[]` in the batch's results):
 * hand them to `forgetDeleted` (lock.ts) after the batch.
 */
export const deleteAllocationsOf = (ctx: DbOf, s: AllocationSources): Stmt =>
  ctx.db
    .delete(allocations)
    .where(and(eq(allocations.customerId, s.customerId), ofSources(s)))
    .returning({ id: allocations.id, itemId: allocations.itemId });

/** A row `deleteAllocationsOf` deleted. */
export type DeletedAllocation = { id: string; itemId: string };

/** Cron: active `hold` rows past their expiry at `at` stop counting (holds, waitlist offers, marketplace and OCTO holds), for the job's operators. */
export const expireLapsedHoldAllocations = (ctx: Ctx, at: number): Stmt =>
  ctx.db
    .update(allocations)
    .set({ active: false })
    .where(and(eq(allocations.kind, 'hold'), eq(allocations.active, true), lte(allocations.expiresAt, at), inJobScope(ctx, allocations.customerId)));

/** Cron: these sources' active rows past their expiry at `at` stop counting (lapsed OCTO holds), for the job's operators. */
export const expireAllocationsOf = (ctx: Ctx, sourceIds: string[], at: number): Stmt =>
  ctx.db
    .update(allocations)
    .set({ active: false })
    .where(
      and(inArray(allocations.sourceId, sourceIds), eq(allocations.active, true), lte(allocations.expiresAt, at), inJobScope(ctx, allocations.customerId)),
    );
