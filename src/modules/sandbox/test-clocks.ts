/**
 * Sandbox test clocks, the way Stripe's test clocks let developers simulate time: a clock drives a
 * private sandbox operator (seeded with the demo data as of the clock's time) whose "now" is the
 * clock's frozen time (lib/operator-clock.ts). Advancing runs the operator's scheduled work due in
 * between, in time order (src/jobs/advance.ts, through the queue).
 */
import { and, count, desc, eq, ne, or } from 'drizzle-orm';
import { frozenClock, withClock } from '../../lib/clock';
import { requireAdmin, systemCtx, tenantOf, type Ctx } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { forgetApiKeys } from '../../lib/credentials';
import { newId } from '../../lib/ids';
import { enqueue } from '../../lib/queue';
import { TEST_CLOCK_OPERATOR_PREFIX } from '../../lib/clock';
import { testClocks } from '../../db/schema/sandbox';
import { purgeTenant } from '../../db/tenant-purge';
import { getOwnCustomer } from '../customers/service';
import { seedDemoOperator } from '../../seed';
import { sandboxErrors } from './errors';
import { CLOCK_ADVANCE_KIND, MAX_CLOCK_SPAN_YEARS } from './types';
import { testClockOut, type TestClockRow } from './views';

/** The caller must be an admin of a sandbox operator. */
async function requireSandboxAdmin(ctx: Ctx): Promise<string> {
  requireAdmin(ctx);
  const me = await getOwnCustomer(ctx);
  if (!me.isSandbox) throw new ApiError('not_sandbox', 'Test clocks are for sandbox operators; this is a live operator');
  return me.id;
}

/** `ms` moved by whole calendar years (UTC). */
function yearsFrom(ms: number, years: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.getTime();
}

const invalidTime = (message: string) => sandboxErrors.fail('invalid_time', message, { details: [{ field: 'frozenTime', message }] });

/** A clock the caller may see: one it created, or its own operator's. */
async function visibleClock(ctx: Ctx, id: string): Promise<TestClockRow> {
  const me = tenantOf(ctx);
  const row = await ctx.db
    .select()
    .from(testClocks)
    .where(and(eq(testClocks.id, id), or(eq(testClocks.customerId, me), eq(testClocks.operatorId, me))))
    .get();
  if (!row) throw notFound('Test clock');
  return row;
}

export async function createTestClock(ctx: Ctx, input: { frozenTime: string; name?: string }) {
  const owner = await requireSandboxAdmin(ctx);
  const at = Date.parse(input.frozenTime);
  const now = ctx.clock.now();
  if (at > yearsFrom(now, MAX_CLOCK_SPAN_YEARS) || at < yearsFrom(now, -MAX_CLOCK_SPAN_YEARS))
    throw invalidTime(`frozenTime must be within ${MAX_CLOCK_SPAN_YEARS} years of now (${new Date(now).toISOString()})`);
  const id = newId('clk');
  const operatorId = newId(TEST_CLOCK_OPERATOR_PREFIX.slice(0, -1));
  const frozenTime = new Date(at).toISOString();
  const clock = frozenClock(id, at);
  const seedCtx = systemCtx(ctx.env, { customerId: operatorId, clock, hooks: ctx.hooks, waitUntil: ctx.waitUntil, requestId: ctx.requestId });
  await ctx.db
    .insert(testClocks)
    .values({ id, customerId: owner, operatorId, name: input.name ?? null, frozenTime, createdAt: frozenTime, updatedAt: frozenTime });
  try {
    const seeded = await withClock(clock, () =>
      seedDemoOperator(seedCtx, { customerId: operatorId, name: input.name ? `${input.name} (test clock)` : 'Demo Marina (test clock)' }),
    );
    const row = await visibleClock(ctx, id);
    return { ...testClockOut(row), apiKey: seeded.adminKey };
  } catch (err) {
    // Nothing half-written: the operator's rows and the clock go together.
    await purgeTenant(ctx.db, operatorId).catch(() => undefined);
    await ctx.db.delete(testClocks).where(eq(testClocks.id, id));
    throw err;
  }
}

export async function listTestClocks(ctx: Ctx, q: { limit: number; offset: number }) {
  await requireSandboxAdmin(ctx);
  const me = tenantOf(ctx);
  const mine = or(eq(testClocks.customerId, me), eq(testClocks.operatorId, me));
  const [rows, total] = await ctx.db.batch([
    ctx.db.select().from(testClocks).where(mine).orderBy(desc(testClocks.createdAt), desc(testClocks.id)).limit(q.limit).offset(q.offset),
    ctx.db.select({ n: count() }).from(testClocks).where(mine),
  ]);
  return { data: rows.map(testClockOut), total: total[0]?.n ?? 0, limit: q.limit, offset: q.offset };
}

export async function getTestClock(ctx: Ctx, id: string) {
  await requireSandboxAdmin(ctx);
  return testClockOut(await visibleClock(ctx, id));
}

export async function advanceTestClock(ctx: Ctx, id: string, input: { frozenTime: string }) {
  await requireSandboxAdmin(ctx);
  const clock = await visibleClock(ctx, id);
  if (clock.status === 'advancing')
    throw sandboxErrors.fail('clock_advancing', 'This clock is still advancing; poll GET /sandbox/test-clocks/{id} until it is ready');
  const current = Date.parse(clock.frozenTime);
  const target = Date.parse(input.frozenTime);
  if (target <= current) throw invalidTime(`frozenTime must be after the clock's current time (${clock.frozenTime})`);
  if (target > yearsFrom(current, MAX_CLOCK_SPAN_YEARS))
    throw invalidTime(`frozenTime must be at most ${MAX_CLOCK_SPAN_YEARS} years after the clock's current time (${clock.frozenTime})`);
  const started = await ctx.db
    .update(testClocks)
    .set({ status: 'advancing', targetTime: new Date(target).toISOString(), failure: null, progress: { steps: 0, ran: {} }, updatedAt: clock.frozenTime })
    .where(and(eq(testClocks.id, id), ne(testClocks.status, 'advancing')))
    .returning()
    .get();
  if (!started) throw sandboxErrors.fail('clock_advancing', 'This clock is already advancing');
  await enqueue(ctx, { kind: CLOCK_ADVANCE_KIND, clockId: id });
  return testClockOut(started);
}

export async function deleteTestClock(ctx: Ctx, id: string) {
  await requireSandboxAdmin(ctx);
  const clock = await visibleClock(ctx, id);
  await forgetApiKeys(ctx, { customerId: clock.operatorId });
  await purgeTenant(ctx.db, clock.operatorId);
  await ctx.db.delete(testClocks).where(eq(testClocks.id, id));
  return { id, object: 'test_clock' as const, deleted: true as const };
}
