import type { Env } from '../env';
import { sweepWebhooks } from '../modules/webhooks/service';
import { purgeDeletedLocations } from '../modules/locations/service';
import { expireHolds } from '../modules/holds/service';
import { sweepWaitlist } from '../modules/waitlist/service';
import { purgeExpiredKeys } from '../modules/channel/idempotency';
import { getDb } from '../db/client';

export type Job = { name: string; run: (env: Env, now: Date) => Promise<unknown> };

/**
 * Cron expression (as in wrangler.toml [triggers]) to the jobs it runs. Modules register their
 * sweeps here; `scheduled()` dispatches by `controller.cron`.
 */
export const JOBS: Record<string, Job[]> = {
  '*/5 * * * *': [
    { name: 'webhooks.sweep', run: (env) => sweepWebhooks(env) },
    { name: 'holds.expire', run: (env, now) => expireHolds(env, now) },
    { name: 'waitlist.sweep', run: (env, now) => sweepWaitlist(env, now) },
  ],
  '0 3 * * *': [
    { name: 'locations.purge', run: (env, now) => purgeDeletedLocations(env, now) },
    { name: 'channel.idempotency_purge', run: (env, now) => purgeExpiredKeys(getDb(env.DB), now.getTime()) },
  ],
};

export function registerJob(cron: string, job: Job) {
  (JOBS[cron] ??= []).push(job);
}

export async function runJobs(cron: string, env: Env, now = new Date()) {
  const jobs = JOBS[cron] ?? [];
  const results: Record<string, unknown> = {};
  for (const job of jobs) {
    try {
      results[job.name] = await job.run(env, now);
    } catch (err) {
      results[job.name] = { error: String(err) };
      console.log(JSON.stringify({ level: 'error', msg: 'cron job failed', job: job.name, error: String(err) }));
    }
  }
  console.log(JSON.stringify({ level: 'info', msg: 'cron', cron, results }));
  return results;
}

export async function runScheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext) {
  ctx.waitUntil(runJobs(controller.cron, env, new Date(controller.scheduledTime)));
}
