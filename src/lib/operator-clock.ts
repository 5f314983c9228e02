/**
 * The clock of an operator: the wall clock, or for the private operator of a sandbox test clock
 * (an id starting with `cus_tclk_`) that clock's frozen time, read from D1. Live operators never
 * cost a read: the id alone tells.
 */
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { getDb, type DB } from '../db/client';
import { testClocks } from '../db/schema/sandbox';
import { bindAmbientClock, frozenClock, isTestClockOperator, wallClock, type Clock } from './clock';
import type { AppEnv, Ctx } from './context';

export async function loadOperatorClock(db: DB, customerId: string | null | undefined): Promise<Clock> {
  if (!customerId || !isTestClockOperator(customerId)) return wallClock;
  const row = await db.select({ id: testClocks.id, frozenTime: testClocks.frozenTime }).from(testClocks).where(eq(testClocks.operatorId, customerId)).get();
  return row ? frozenClock(row.id, Date.parse(row.frozenTime)) : wallClock;
}

/**
 * `ctx` on the clock of `customerId`'s operator: for code that learns the operator only after the
 * request began (the booking widget, public pages, the channel API acting for a seller).
 */
export async function onOperatorClock(ctx: Ctx, customerId: string): Promise<Ctx> {
  if (!isTestClockOperator(customerId)) {
    if (!ctx.clock.testClockId) return ctx;
    // A test-clock operator's credentials acting on a live operator's pages: that operator's time is real.
    bindAmbientClock(wallClock);
    return { ...ctx, clock: wallClock };
  }
  // Already on this operator's clock (its own requests, and its jobs while the clock advances, whose instant is the step's).
  if (ctx.clock.testClockId && ctx.principal.customerId === customerId) return ctx;
  const clock = await loadOperatorClock(ctx.db, customerId);
  if (clock.testClockId === ctx.clock.testClockId) return ctx;
  bindAmbientClock(clock);
  return { ...ctx, clock };
}

/**
 * After authentication: a request whose principal acts for a test-clock operator runs on that
 * operator's clock (one D1 read, for those operators only).
 */
export async function bindRequestClock(c: Context<AppEnv>): Promise<void> {
  const id = c.get('principal')?.customerId;
  if (!isTestClockOperator(id)) return;
  const clock = await loadOperatorClock(getDb(c.env.DB), id);
  c.set('clock', clock);
  bindAmbientClock(clock);
}
