import type { MiddlewareHandler } from 'hono';
import type { ZodType } from 'zod';
import type { AppEnv } from './context';

/** The names under which core routes take the caller's operator account (the API's "customer"). */
const OPERATOR_FIELDS = ['customer_id', 'customerId'] as const;

interface ZodDef {
  type?: string;
  shape?: Record<string, unknown>;
  in?: ZodType;
  innerType?: ZodType;
  options?: ZodType[];
  left?: ZodType;
  right?: ZodType;
}

const defOf = (s: ZodType): ZodDef => (s as unknown as { _zod?: { def?: ZodDef } })._zod?.def ?? {};

/** The top-level keys an object schema declares, through refinements, pipes, wrappers, unions and intersections. */
export function declaredKeys(schema: ZodType | undefined, depth = 0): Set<string> {
  const out = new Set<string>();
  if (!schema || depth > 8) return out;
  const def = defOf(schema);
  const add = (s: ZodType | undefined) => declaredKeys(s, depth + 1).forEach((k) => out.add(k));
  if (def.type === 'object' && def.shape) Object.keys(def.shape).forEach((k) => out.add(k));
  else if (def.type === 'pipe') add(def.in);
  else if (def.type === 'union') def.options?.forEach(add);
  else if (def.type === 'intersection') [def.left, def.right].forEach(add);
  else if (def.innerType) add(def.innerType);
  return out;
}

const operatorKeys = (schema: ZodType | undefined) => OPERATOR_FIELDS.filter((k) => declaredKeys(schema).has(k));

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * For a request the partner gateway dispatches with an operator-bound access token (an `app`
 * principal with its operator): the operator fields the route declares (`customer_id` or
 * `customerId`, in its query or JSON body) default to the token's operator, so an app never has
 * to repeat the `customer_id` of its token response. A value the app does send is kept (another
 * operator's still answers 403). Every other caller (an API key, a user, a platform key) must name
 * the operator where the route requires it, as before (400 without it). Undefined when the route
 * declares no such field. Runs after authentication, before validation.
 */
export function operatorFieldDefaults(query: ZodType | undefined, body: ZodType | undefined): MiddlewareHandler<AppEnv> | undefined {
  const inQuery = operatorKeys(query);
  const inBody = operatorKeys(body);
  if (!inQuery.length && !inBody.length) return undefined;
  return async (c, next) => {
    const p = c.get('principal');
    const customerId = p?.kind === 'app' ? p.customerId : null;
    if (!customerId) return next();
    const url = new URL(c.req.url);
    if (inQuery.length && !inQuery.some((k) => url.searchParams.has(k))) {
      // The query names the operator once, under the first name the route declares; a body stays in hono's cache.
      url.searchParams.set(inQuery[0], customerId);
      const hasBody = !['GET', 'HEAD'].includes(c.req.method);
      if (hasBody) await c.req.text();
      c.req.raw = new Request(url.toString(), { method: c.req.method, headers: c.req.raw.headers });
    }
    if (inBody.length && JSON_TYPE.test(c.req.header('content-type') ?? '')) await defaultBody(c.req, inBody, customerId);
    await next();
  };
}

type Req = Parameters<MiddlewareHandler<AppEnv>>[0]['req'];

/** Sets the body's operator field (the first the route declares) when the JSON object names none; other bodies are left to validation. */
async function defaultBody(req: Req, keys: readonly string[], customerId: string) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await req.text());
  } catch {
    return;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return;
  const obj = parsed as Record<string, unknown>;
  if (keys.some((k) => obj[k] !== undefined)) return;
  (req as unknown as { bodyCache: Record<string, Promise<string>> }).bodyCache = { text: Promise.resolve(JSON.stringify({ ...obj, [keys[0]]: customerId })) };
}
