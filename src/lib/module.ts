import { hooksOf, type AppEnv, type Ctx, type HookListeners, type Hooks } from './context';
import type { ErrorTable } from './errors';
import type { SaleExtension } from './sale-extensions';
import type { Hono } from 'hono';

/** The cron schedules declared in wrangler.toml `[triggers]`. */
export type CronSchedule = '*/5 * * * *' | '0 3 * * *';

/** The next instant (ms) strictly after `after` at which a schedule fires (UTC, as Cloudflare's cron triggers). */
export function nextScheduledRun(cron: CronSchedule, after: number): number {
  const step = cron === '*/5 * * * *' ? 5 * 60_000 : 86_400_000;
  const offset = cron === '*/5 * * * *' ? 0 : 3 * 3_600_000;
  return Math.floor((after - offset) / step) * step + offset + step;
}

/**
 * A cron job. It reads "now" from `ctx.clock` (the schedule's instant, or a sandbox test clock's
 * instant while the clock advances) and limits the operators it works on with `inJobScope`
 * (lib/job-scope.ts): on the wall clock it works for every operator not on a test clock; while a
 * test clock advances, for that clock's operator only.
 */
export interface CronJob {
  /** `module.job`, unique. */
  name: string;
  cron: CronSchedule;
  /**
   * `operator` (the default): business work per operator, also run for a sandbox test clock's operator
   * as the clock advances. `platform`: the platform's own housekeeping (purging expired keys,
   * seeding), run on the wall clock only.
   */
  scope?: 'operator' | 'platform';
  run: (ctx: Ctx) => Promise<unknown>;
  /**
   * The earliest instant (ms) after `ctx.clock.now()` at which this job has work for the operators
   * in scope (a message's send time, a hold's expiry, a renewal date), or null when none is known.
   * A test clock's advance steps from one such instant to the next, so work runs at its own time
   * and in time order. A job without it runs at every step and at least once a day.
   */
  nextDue?: (ctx: Ctx) => Promise<number | null>;
}

/** A queue message: `kind` routes it to the one module that consumes it. */
export interface QueueMessage {
  kind: string;
  [field: string]: unknown;
}

export type QueueHandler = (ctx: Ctx, message: QueueMessage) => Promise<void>;

/**
 * The one place a module plugs into the app. `src/modules/index.ts` lists every definition;
 * the app mounts the routers, the cron dispatcher runs the jobs, the queue consumer routes
 * messages by kind, the hooks are handed to every context, and `/docs` lists the error codes.
 */
export interface ModuleDef {
  /** Folder name, kebab-case. */
  name: string;
  router?: Hono<AppEnv>;
  jobs?: CronJob[];
  /** Queue message kinds this module consumes. */
  queue?: Record<string, QueueHandler>;
  /** Hooks of other modules this one listens to. */
  hooks?: HookListeners;
  /** Discounts or payment sources this module plugs into the booking sale (lib/sale-extensions.ts). */
  sale?: SaleExtension[];
  /** Error codes this module throws (besides the shared ones in lib/errors). */
  errors?: ErrorTable;
  /** OpenAPI tags this module's routes use, with their descriptions. */
  tags?: { name: string; description: string }[];
}

export function defineModule(def: ModuleDef): ModuleDef {
  return def;
}

/** The hook listeners of a module list, ready to hand to contexts. */
export function moduleHooks(modules: ModuleDef[]): Hooks {
  return hooksOf(
    modules.filter((m) => m.hooks).map((m) => ({ module: m.name, hooks: m.hooks! })),
    modules.flatMap((m) => m.sale ?? []),
  );
}
