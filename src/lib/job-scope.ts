/**
 * Which operators a cron job works on. On the wall clock (the `scheduled` handler, `npm start`'s
 * timer) a job works for every operator except those on a sandbox test clock, whose time moves only
 * when their clock is advanced; while a test clock advances, the job runs with a context acting for
 * that clock's operator and works for it alone.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
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
