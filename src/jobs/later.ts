import type { Ctx } from '../lib/context';

/**
 * `waitUntil` for the queue consumer and cron jobs: the promises handed to it are collected and
 * awaited before the handler returns (a queue consumer or a scheduled run has no life after it).
 */
export function settleLater() {
  const pending: Promise<unknown>[] = [];
  return {
    add: (p: Promise<unknown>) => void pending.push(p),
    async settle(ctx: Pick<Ctx, 'log'>): Promise<void> {
      while (pending.length) {
        const batch = pending.splice(0);
        for (const r of await Promise.allSettled(batch)) {
          if (r.status === 'rejected') ctx.log.warn('deferred work failed', { error: String(r.reason) });
        }
      }
    },
  };
}
