/**
 * Advancing a sandbox test clock (modules/sandbox: POST /sandbox/test-clocks/{id}/advance). The
 * clock's operator runs every operator-scoped cron job as time moves from the clock's frozen time
 * to the target, step by step: each step goes to the earliest instant at which some job has work
 * (`CronJob.nextDue`: a message's send time, a hold's expiry, a renewal date), to the next daily
 * run when a job cannot tell, or to the target. So work runs at its own time and in time order.
 *
 * The work runs in queue messages (`sandbox.clock_advance`) of a bounded length each; the clock
 * stays `advancing` until the target is reached, then it is `ready`. After each step the clock's
 * frozen time is that step's instant, the last one fully processed: a job that fails stops the
 * advance there, with the status `failed` and the job, instant and error in `failure`.
 */
import { and, eq } from 'drizzle-orm';
import type { Env } from '../env';
import { fixedClock, stopwatch, withClock } from '../lib/clock';
import { systemCtx, type Hooks } from '../lib/context';
import { nextScheduledRun, type CronJob, type ModuleDef, type QueueHandler } from '../lib/module';
import { enqueue } from '../lib/queue';
import { getDb } from '../db/client';
import { testClocks } from '../db/schema/sandbox';
import { settleLater } from './later';
import { CLOCK_ADVANCE_KIND } from '../modules/sandbox/types';

export { CLOCK_ADVANCE_KIND };

/** Real time one queue message spends advancing before it hands on to the next. */
const SLICE_MS = 15_000;

/** The next daily run strictly after `t`. */
export const nextDailyRun = (t: number): number => nextScheduledRun('0 3 * * *', t);

/** Jobs that run for a test clock's operator. */
export const operatorJobs = (modules: ModuleDef[]): CronJob[] => modules.flatMap((m) => m.jobs ?? []).filter((j) => (j.scope ?? 'operator') === 'operator');

type Progress = { steps: number; ran: Record<string, number> };

/** Whether a job's result says it did something (counts and lists above zero). */
function didWork(result: unknown): boolean {
  if (result == null || result === false) return false;
  if (typeof result === 'number') return result > 0;
  if (Array.isArray(result)) return result.length > 0;
  if (typeof result === 'object') return Object.values(result as Record<string, unknown>).some((v) => didWork(v));
  return result === true;
}

export interface AdvanceDeps {
  modules: ModuleDef[];
  hooks: Hooks;
}

/** The instant of the next step after `t` (never past `target`). */
async function nextStep(deps: AdvanceDeps, env: Env, operatorId: string, clockId: string, jobs: CronJob[], t: number, target: number) {
  const ctx = systemCtx(env, { customerId: operatorId, hooks: deps.hooks, clock: fixedClock(t, clockId) });
  let next = target;
  if (jobs.some((j) => !j.nextDue)) next = Math.min(next, nextDailyRun(t));
  const dues = await Promise.all(
    jobs
      .filter((j) => j.nextDue)
      .map((j) =>
        withClock(ctx.clock, () => j.nextDue!(ctx)).catch((err) => {
          // The job still runs at every step (and daily); a broken query must not stop the clock, but it is logged.
          ctx.log.error('nextDue failed', { job: j.name, clockId, error: String(err) });
          return null;
        }),
      ),
  );
  for (const d of dues) if (d != null && Number.isFinite(d) && d > t && d < next) next = d;
  return next;
}

/** Runs the advance of one clock for up to SLICE_MS; queues the rest. */
export async function advanceClock(deps: AdvanceDeps, env: Env, clockId: string): Promise<void> {
  const db = getDb(env.DB);
  const clock = await db.select().from(testClocks).where(eq(testClocks.id, clockId)).get();
  if (!clock || clock.status !== 'advancing' || !clock.targetTime) return;
  const target = Date.parse(clock.targetTime);
  const jobs = operatorJobs(deps.modules);
  const progress: Progress = clock.progress ?? { steps: 0, ran: {} };
  const elapsed = stopwatch();
  let t = Date.parse(clock.frozenTime);
  const save = (set: Partial<typeof testClocks.$inferInsert>) =>
    db
      .update(testClocks)
      .set({ ...set, progress, updatedAt: new Date(t).toISOString() })
      .where(and(eq(testClocks.id, clockId), eq(testClocks.status, 'advancing')))
      .run();

  while (t < target) {
    if (elapsed() > SLICE_MS) {
      await save({ frozenTime: new Date(t).toISOString() });
      await enqueue(systemCtx(env), { kind: CLOCK_ADVANCE_KIND, clockId });
      return;
    }
    const next = await nextStep(deps, env, clock.operatorId, clockId, jobs, t, target);
    const later = settleLater();
    const ctx = systemCtx(env, {
      customerId: clock.operatorId,
      hooks: deps.hooks,
      clock: fixedClock(next, clockId),
      requestId: `clock_${clockId}_${next}`,
      waitUntil: later.add,
    });
    for (const job of jobs) {
      try {
        const result = await withClock(ctx.clock, () => job.run(ctx));
        if (didWork(result)) progress.ran[job.name] = (progress.ran[job.name] ?? 0) + 1;
      } catch (err) {
        await later.settle(ctx);
        ctx.log.warn('test clock advance stopped', { clockId, job: job.name, error: String(err) });
        await save({
          status: 'failed',
          frozenTime: new Date(t).toISOString(),
          targetTime: null,
          failure: { job: job.name, at: new Date(next).toISOString(), error: String(err).slice(0, 500) },
        });
        return;
      }
    }
    await later.settle(ctx);
    t = next;
    progress.steps++;
    await save({ frozenTime: new Date(t).toISOString() });
  }
  await save({ status: 'ready', frozenTime: new Date(target).toISOString(), targetTime: null });
}

/** The queue handler of `sandbox.clock_advance`. */
export const clockAdvanceHandler =
  (deps: AdvanceDeps): QueueHandler =>
  (ctx, msg) =>
    advanceClock(deps, ctx.env, String(msg.clockId));
