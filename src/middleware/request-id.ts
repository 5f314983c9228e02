import type { MiddlewareHandler } from 'hono';
import { logLevelOf, type AppEnv } from '../lib/context';
import { newId } from '../lib/ids';
import { createLogger } from '../lib/logger';
import { stopwatch, wallClock, withClock } from '../lib/clock';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane `X-Request-Id` or makes one; sets it on every response; gives the request its logger; writes one JSON log line per request. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header('x-request-id');
  const requestId = given && VALID.test(given) ? given : newId('req');
  c.set('requestId', requestId);
  const log = createLogger({ requestId }, logLevelOf(c.env));
  c.set('log', log);
  const elapsed = stopwatch();
  c.set('clock', wallClock);
  // The request's ambient clock scope: authentication binds the operator's clock into it.
  await withClock(wallClock, next);
  c.res.headers.set('X-Request-Id', requestId);
  const principal = c.get('principal');
  const line = c.res.status >= 500 ? log.error : log.info;
  line('request', {
    method: c.req.method,
    route: c.req.routePath,
    path: new URL(c.req.url).pathname,
    status: c.res.status,
    durationMs: elapsed(),
    customerId: principal?.customerId ?? undefined,
    actor: principal && principal.kind !== 'anonymous' ? `${principal.kind}:${principal.userId ?? principal.credentialId}` : undefined,
  });
};
