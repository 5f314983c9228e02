import type { Env } from '../env';
import { systemCtx, type Hooks } from '../lib/context';
import type { CronJob, ModuleDef } from '../lib/module';

/** The jobs of every module for one cron expression (as in wrangler.toml [triggers]). */
export function jobsFor(modules: ModuleDef[], cron: string): CronJob[] {
  return modules.flatMap((m) => m.jobs ?? []).filter((j) => j.cron === cron);
}

/** Runs the jobs of one schedule one after the other; a failing job is logged and does not stop the others. */
export async function runJobs(modules: ModuleDef[], hooks: Hooks, cron: string, env: Env, now = new Date()) {
  const results: Record<string, unknown> = {};
  const ctx = systemCtx(env, { hooks, requestId: `cron_${now.getTime()}` });
  for (const job of jobsFor(modules, cron)) {
    try {
      results[job.name] = await job.run(ctx, now);
    } catch (err) {
      results[job.name] = { error: String(err) };
      ctx.log.error('cron job failed', { job: job.name, error: String(err) });
    }
  }
  ctx.log.info('cron', { cron, results });
  return results;
}
