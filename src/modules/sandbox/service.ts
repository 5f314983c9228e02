/**
 * The sandbox module's face. No other module calls it today; its module.ts runs ensureSandbox
 * (defined here) and its router reaches the test clocks (test-clocks.ts).
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { customers } from '../../db/schema/accounts';
import { SEED, seedSandbox } from '../../seed';

/**
 * Seeds the sandbox tenant when it is missing (one indexed read when it is there). Runs unless
 * `SANDBOX_AUTOSEED` is `off` (the test pool turns it off: tests build their own operators).
 */
export async function ensureSandbox(ctx: Ctx): Promise<{ seeded: Record<string, boolean> | false }> {
  if (ctx.env.SANDBOX_AUTOSEED === 'off') return { seeded: false };
  const done = await ctx.db.select({ id: customers.id }).from(customers).where(eq(customers.id, SEED.demo.customerId)).get();
  if (done) return { seeded: false };
  return { seeded: await seedSandbox(ctx.env) };
}
