/**
 * Which operators a cron job works on. On the wall clock (the `scheduled` handler, `npm start`'s
 * timer) a job works for every operator except those on a sandbox test clock, whose time moves only
 * when their clock is advanced; while a test clock advances, the job runs with a context acting for
 * that clock's operator and works for it alone.
 */
import { and, eq, gt, min, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Ctx } from './context';
import { TEST_CLOCK_OPERATOR_PREFIX } from './clock';

/** The condition a job's query adds on its operator column (`customer_id`). */
export function inJobScope(ctx: Ctx, customerColumn: SQLiteColumn): SQL {
  const id = ctx.principal.customerId;
  if (id) return eq(customerColumn, id);
  return sql`substr(${customerColumn}, 1, ${TEST_CLOCK_OPERATOR_PREFIX.length}) <> ${TEST_CLOCK_OPERATOR_PREFIX}`;
}

/** The same test for an operator id already read (jobs that filter rows in code). */
export function operatorInJobScope(ctx: Ctx, customerId: string): boolean {
  const id = ctx.principal.customerId;
  return id ? customerId === id : !customerId.startsWith(TEST_CLOCK_OPERATOR_PREFIX);
}

/**
 * A job's `nextDue` over one column of instants (ISO text or ms integers): the earliest value after
 * the clock's now among the rows in job scope that also match `where` (a pending message's send
 * time, an active hold's expiry), as ms, or null when none is due.
 */
export async function nextDueAt(ctx: Ctx, from: { table: SQLiteTable; due: SQLiteColumn; customer: SQLiteColumn }, where?: SQL): Promise<number | null> {
  const now = ctx.clock.now();
  const inMs = from.due.dataType === 'number';
  const row = await ctx.db
    .select({ at: min(from.due) })
    .from(from.table)
    .where(and(where, gt(from.due, inMs ? now : new Date(now).toISOString()), inJobScope(ctx, from.customer)))
    .get();
  if (row?.at == null) return null;
  return inMs ? Number(row.at) : Date.parse(String(row.at));
}

/** The earliest of several `nextDue` answers (null when none). */
export const earliest = (...dues: (number | null | undefined)[]): number | null =>
  dues.reduce<number | null>((a, d) => (d == null ? a : a == null ? d : Math.min(a, d)), null);
