import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../lib/context';
import { newId } from '../lib/ids';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane `X-Request-Id` or makes one; sets it on every response; writes one JSON log line per request. */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header('x-request-id');
  const requestId = given && VALID.test(given) ? given : newId('req');
  c.set('requestId', requestId);
  const started = Date.now();
  await next();
  c.res.headers.set('X-Request-Id', requestId);
  const principal = c.get('principal');
  console.log(
    JSON.stringify({
      level: c.res.status >= 500 ? 'error' : 'info',
      msg: 'request',
      requestId,
      method: c.req.method,
      route: c.req.routePath,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      durationMs: Date.now() - started,
      customerId: principal?.customerId ?? undefined,
      actor: principal && principal.kind !== 'anonymous' ? `${principal.kind}:${principal.userId ?? principal.credentialId}` : undefined,
    }),
  );
};
