import { buildApp } from './app';
import { checkConfig, ConfigError, type Env } from './env';
import { moduleHooks, type ModuleDef, type QueueMessage } from './lib/module';
import { handleQueue, queueHandlers } from './jobs/queue';
import { runJobs } from './jobs/cron';
import { CLOCK_ADVANCE_KIND, clockAdvanceHandler } from './jobs/advance';
import { instrumentEnv, roundTripHeaders, roundTripsOf } from './lib/round-trips';

/** The Worker's three handlers (fetch, queue, scheduled) over a list of modules; the configuration is checked once per isolate. */
export function createWorker(modules: ModuleDef[]) {
  const app = buildApp(modules);
  const hooks = moduleHooks(modules);
  const handlers = queueHandlers(modules, { [CLOCK_ADVANCE_KIND]: clockAdvanceHandler({ modules, hooks }) });
  return {
    fetch: async (req: Request, env: Env, ctx: ExecutionContext) => {
      try {
        checkConfig(env);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        const body = { error: 'service_unavailable', message: err.message, requestId: 'config' };
        return Response.json(body, { status: 503 });
      }
      if (env.ENVIRONMENT !== 'development' && env.ENVIRONMENT !== 'test') return app.fetch(req, env, ctx);
      // Development and tests: count the request's round trips to D1 and Durable Objects (lib/round-trips.ts).
      const counted = instrumentEnv(env);
      const counter = roundTripsOf(counted)!;
      try {
        const res = await app.fetch(req, counted, ctx);
        counter.seal();
        const out = new Response(res.body, res);
        for (const [k, v] of Object.entries(roundTripHeaders(counter))) out.headers.set(k, v);
        return out;
      } finally {
        counter.seal();
      }
    },
    queue: async (batch: MessageBatch<QueueMessage>, env: Env) => {
      checkConfig(env);
      await handleQueue(handlers, hooks, batch, env);
    },
    scheduled: async (controller: ScheduledController, env: Env, ctx: ExecutionContext) => {
      checkConfig(env);
      ctx.waitUntil(runJobs(modules, hooks, controller.cron, env, new Date(controller.scheduledTime)));
    },
  } satisfies ExportedHandler<Env, QueueMessage>;
}
