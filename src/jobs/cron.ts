import type { Env } from '../env';
import { fixedClock, withClock, type Clock } from '../lib/clock';
import { systemCtx, type Ctx, type Hooks } from '../lib/context';
import type { CronJob, ModuleDef } from '../lib/module';
import { settleLater } from './later';

/** The jobs of every module for one cron expression (as in wrangler.toml [triggers]). */
export function jobsFor(modules: ModuleDef[], cron: string): CronJob[] {
  return modules.flatMap((m) => m.jobs ?? []).filter((j) => j.cron === cron);
}

/** Runs jobs one after the other on `ctx`'s clock; a failing job is logged and does not stop the others. */
export async function runJobList(ctx: Ctx, jobs: CronJob[], later: ReturnType<typeof settleLater>): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  for (const job of jobs) {
    try {
      results[job.name] = await withClock(ctx.clock, () => job.run(ctx));
    } catch (err) {
      results[job.name] = { error: String(err) };
      ctx.log.error('cron job failed', { job: job.name, error: String(err) });
    }
  }
  await later.settle(ctx);
  return results;
}

/**
 * Runs the jobs of one schedule as of `at` (the trigger's scheduled time) for every operator that is
 * not on a sandbox test clock (those run when their clock advances: jobs/advance.ts).
 */
export async function runJobs(modules: ModuleDef[], hooks: Hooks, cron: string, env: Env, at: Date | Clock) {
  const clock = at instanceof Date ? fixedClock(at.getTime()) : at;
  const later = settleLater();
  const ctx = systemCtx(env, { hooks, requestId: `cron_${clock.now()}`, clock, waitUntil: later.add });
  const results = await runJobList(ctx, jobsFor(modules, cron), later);
  ctx.log.info('cron', { cron, at: new Date(clock.now()).toISOString(), results });
  return results;
}
