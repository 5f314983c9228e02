import { hooksOf, type AppEnv, type Ctx, type HookListeners, type Hooks } from './context';
import type { ErrorTable } from './errors';
import type { Hono } from 'hono';

/** The cron schedules declared in wrangler.toml `[triggers]`. */
export type CronSchedule = '*/5 * * * *' | '0 3 * * *';

export interface CronJob {
  /** `module.job`, unique. */
  name: string;
  cron: CronSchedule;
  run: (ctx: Ctx, now: Date) => Promise<unknown>;
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
  return hooksOf(modules.filter((m) => m.hooks).map((m) => ({ module: m.name, hooks: m.hooks! })));
}
