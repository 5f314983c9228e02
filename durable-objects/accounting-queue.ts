import { DurableObject } from 'cloudflare:workers';
import type { Env } from '../src/env';
import { accountingProvider } from '../src/adapters/accounting';
import { wallClock } from '../src/lib/clock';
import { MAX_ATTEMPTS, sendExport } from '../src/modules/accounting/service';
import type { AccountingJob, AccountingQueueRpc, AccountingQueueStatus } from './accounting-queue-protocol';

export type { AccountingJob, AccountingQueueStatus };

interface QueuedJob extends AccountingJob {
  attempts: number;
  /** Epoch milliseconds before which the job is not tried (backoff, provider's Retry-After). */
  notBefore: number;
  queuedAt: number;
}

interface Window {
  start: number;
  used: number;
}

const JOBS = 'jobs';
const WINDOW = 'window';
/**
 * The provider's request window, backoff and the object's alarms run on real time: they pace calls
 * to an outside service. The exports themselves are stamped on their operator's clock (sendExport).
 */
const paceNow = (): number => wallClock.now();

const DEFAULT_LIMITS = { requests: 30, windowMs: 60_000, perJournal: 1 };

/**
 * One object per operator (`idFromName(customerId)`): the operator's journal exports are sent to
 * the accounting provider one at a time, in order, at most `limits.requests` provider requests per
 * `limits.windowMs` (each export costs `perJournal`). Jobs wait in the object's storage; an alarm
 * wakes the object when the next one may go (window reset, backoff, or the provider's
 * Retry-After on a 429). A transient failure is retried with exponential backoff (30 s doubling)
 * up to MAX_ATTEMPTS, then the export is marked failed; the export's row in D1 is the record of
 * the outcome. Enqueuing the same export twice queues it once.
 */
export class AccountingQueue extends DurableObject<Env> implements AccountingQueueRpc {
  private chain: Promise<unknown> = Promise.resolve();

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private jobs(): QueuedJob[] {
    return this.ctx.storage.kv.get<QueuedJob[]>(JOBS) ?? [];
  }

  private saveJobs(jobs: QueuedJob[]) {
    if (jobs.length) this.ctx.storage.kv.put(JOBS, jobs);
    else this.ctx.storage.kv.delete(JOBS);
  }

  private limits() {
    return accountingProvider(this.env)?.limits ?? DEFAULT_LIMITS;
  }

  private window(now: number): Window {
    const w = this.ctx.storage.kv.get<Window>(WINDOW);
    return w && now - w.start < this.limits().windowMs ? w : { start: now, used: 0 };
  }

  private async wakeAt(when: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current == null || current > when) await this.ctx.storage.setAlarm(when);
  }

  async enqueue(job: AccountingJob): Promise<{ queued: number }> {
    return this.exclusive(async () => {
      const jobs = this.jobs();
      const now = paceNow();
      if (!jobs.some((j) => j.exportId === job.exportId)) jobs.push({ ...job, attempts: 0, notBefore: now, queuedAt: now });
      this.saveJobs(jobs);
      await this.wakeAt(now);
      return { queued: jobs.length };
    });
  }

  async status(): Promise<AccountingQueueStatus> {
    return this.exclusive(async () => {
      const now = paceNow();
      const w = this.window(now);
      const alarm = await this.ctx.storage.getAlarm();
      const l = this.limits();
      return {
        pending: this.jobs().map((j) => ({
          exportId: j.exportId,
          attempts: j.attempts,
          notBefore: j.notBefore > now ? new Date(j.notBefore).toISOString() : null,
        })),
        sentInWindow: w.used,
        windowStartedAt: w.used ? new Date(w.start).toISOString() : null,
        limit: { requests: l.requests, windowMs: l.windowMs },
        nextAttemptAt: alarm != null ? new Date(alarm).toISOString() : null,
      };
    });
  }

  async alarm(): Promise<void> {
    await this.exclusive(() => this.drain());
  }

  /** Sends what the window allows; schedules the next wake-up for the rest. */
  private async drain(): Promise<void> {
    const limits = this.limits();
    for (;;) {
      const jobs = this.jobs();
      if (!jobs.length) return;
      const now = paceNow();
      const ready = jobs.filter((j) => j.notBefore <= now);
      if (!ready.length) {
        await this.wakeAt(Math.min(...jobs.map((j) => j.notBefore)));
        return;
      }
      const w = this.window(now);
      if (w.used + limits.perJournal > limits.requests) {
        await this.wakeAt(w.start + limits.windowMs);
        return;
      }
      const job = ready[0];
      w.used += limits.perJournal;
      this.ctx.storage.kv.put(WINDOW, w);
      let out;
      try {
        out = await sendExport(this.env, job.exportId, job.attempts + 1 >= MAX_ATTEMPTS);
      } catch (err) {
        out = { outcome: 'retry' as const, error: String(err) };
      }
      const rest = this.jobs();
      const i = rest.findIndex((j) => j.exportId === job.exportId);
      if (i < 0) continue;
      if (out.outcome === 'rate_limited') {
        // The provider says slow down: nothing more this window, this job first when it reopens.
        rest[i].notBefore = paceNow() + out.retryAfterMs;
        this.ctx.storage.kv.put(WINDOW, { start: w.start, used: limits.requests });
      } else if (out.outcome === 'retry') {
        rest[i].attempts++;
        rest[i].notBefore = paceNow() + Math.min(30_000 * 2 ** (rest[i].attempts - 1), 3_600_000);
        // Others go ahead meanwhile.
        rest.push(rest.splice(i, 1)[0]);
      } else {
        rest.splice(i, 1);
      }
      this.saveJobs(rest);
    }
  }
}
