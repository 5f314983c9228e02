import type { Context } from 'hono';
import type { AppEnv } from '../../lib/context';
import { ctxOf } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { markAuthenticated } from '../../lib/round-trips';
import { applyRateLimit, countRequest } from '../../middleware/rate-limit';
import { authenticateAccessToken } from '../oauth/service';
import { GATEWAY_ALIASES } from './routes-table';
import { denyText, isDeny, matchRoute } from './match';
import { gatewayFail } from './errors';

/** Spec Limits: 600 requests per minute per installation. */
export const GATEWAY_RATE_LIMIT = 600;
export const GATEWAY_PREFIX = '/api/v1';

/** Request headers the core routes must not see from a gateway call (the app's own credentials). */
const DROPPED = ['authorization', 'x-api-key', 'cookie', 'x-platform-key', 'x-channel-key'];

const unauthenticated = (message: string, error?: string) =>
  new ApiError('unauthenticated', message, { headers: { 'WWW-Authenticate': `Bearer realm="berth"${error ? `, error="${error}"` : ''}` } });

/**
 * `/api/v1/<documented path>`: the access token is checked (live in its grant, installation
 * active), counted against the installation's 600 requests per minute, the route looked up in
 * the gateway table (unknown 404, denied 403 `route_not_exposed`), its scope checked (403
 * `insufficient_scope` naming `requiredScope`), and the request served by the same route as the
 * core API, acting as the operator user who authorized the app.
 *
 * Round trips: the token check (grant object) and the principal read (D1) are one; the
 * installation's rate count is known only then. A read (GET, HEAD) runs in parallel with its
 * count and is answered only when the count allows it (over the limit: 429, the read's answer is
 * dropped), so an authenticated read of one record is 2 round trips; any other method is counted
 * before it runs.
 */
export async function handleGateway(c: Context<AppEnv>): Promise<Response> {
  const authz = c.req.header('authorization');
  const token = authz ? /^Bearer\s+(\S+)$/i.exec(authz.trim())?.[1] : undefined;
  if (!token) throw unauthenticated('Send the access token of the installation as "Authorization: Bearer bat_..."');
  const principal = await authenticateAccessToken(ctxOf(c), token);
  if (!principal?.app) throw unauthenticated('The access token is invalid, expired or revoked', 'invalid_token');
  c.set('principal', principal);
  markAuthenticated(c.env);
  const counting = countRequest(c, `inst:${principal.app.installationId}`);
  // Settles the count (429 `rate_limited` over the limit) and answers its headers.
  const counted = async () => applyRateLimit(await counting, GATEWAY_RATE_LIMIT);
  const fail = async (err: ApiError) => {
    const rate = await counted();
    Object.assign(err, { headers: { ...rate, ...(err.headers ?? {}) } });
    return err;
  };

  const url = new URL(c.req.url);
  const method = c.req.method.toUpperCase();
  let path = url.pathname.slice(GATEWAY_PREFIX.length) || '/';
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  path = GATEWAY_ALIASES[`${method === 'HEAD' ? 'GET' : method} ${path}`] ?? path;
  const match = matchRoute(method, path);
  if (!match) throw await fail(new ApiError('route_not_found', `No route for ${method} ${url.pathname} in the partner gateway`));
  if (isDeny(match.rule)) {
    throw await fail(gatewayFail('route_not_exposed', `${method} ${path} is not available through the partner gateway (${denyText(match.rule.deny)})`));
  }
  const scope = match.rule;
  if (!principal.app.scopes.includes(scope)) {
    throw await fail(
      new ApiError('insufficient_scope', `This call needs the ${scope} scope`, {
        extra: { requiredScope: scope },
        headers: { 'WWW-Authenticate': `Bearer realm="berth", error="insufficient_scope", scope="${scope}"` },
      }),
    );
  }

  url.pathname = path;
  const headers = new Headers(c.req.raw.headers);
  for (const h of DROPPED) headers.delete(h);
  headers.set('x-request-id', c.get('requestId'));
  const read = method === 'GET' || method === 'HEAD';
  const inner = new Request(url.toString(), { method, headers, body: read ? undefined : c.req.raw.body, redirect: 'manual' });
  let rate: Record<string, string>;
  let res: Response;
  if (read) {
    const [allowed, served] = await Promise.allSettled([counted(), c.get('dispatch')(inner, principal)]);
    if (allowed.status === 'rejected') {
      if (served.status === 'fulfilled') await served.value.body?.cancel();
      throw allowed.reason;
    }
    if (served.status === 'rejected') throw served.reason;
    [rate, res] = [allowed.value, served.value];
  } else {
    rate = await counted();
    res = await c.get('dispatch')(inner, principal);
  }
  const out = new Response(res.body, res);
  for (const [k, v] of Object.entries(rate)) out.headers.set(k, v);
  out.headers.set('X-Gateway-Scope', scope);
  return out;
}
