import { OpenAPIHono, createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ZodError, ZodType } from 'zod';
import { bodyLimit } from 'hono/body-limit';
import type { Access, AppEnv } from './context';
import { ApiError, errorBody, type ErrorDetail } from './errors';
import { IDEMPOTENCY_DOC, idempotency } from './idempotency';
import { bindRequestClock } from './operator-clock';
import { operatorFieldDefaults } from './operator-fields';
import { isCalendarDate, isoDate } from './time';

/** JSON bodies are capped at 1 MiB; multipart upload routes at 50 MiB unless they declare their own `bodyLimit`. */
export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 50 * 1024 * 1024;
/** Nesting of a JSON body (objects and arrays, the body itself counting as 1): deeper answers 400 before any work. */
export const JSON_MAX_DEPTH = 32;

/** A credential scheme of its own (channel keys, portal tokens, OAuth tokens): its OpenAPI security and the middleware that checks it. */
export interface AuthScheme {
  security: NonNullable<RouteConfig['security']>;
  middleware: MiddlewareHandler<AppEnv>;
}

/** Turns zod issues into the `details` of a 400 `validation_failed`. */
export function validationError(error: ZodError, target: string): ApiError {
  const details: ErrorDetail[] = error.issues.map((i) => {
    const field = i.path.map(String).join('.') || (target === 'json' ? 'body' : target);
    const missing = i.code === 'invalid_type' && /received undefined/.test(i.message);
    return {
      field,
      location: target === 'json' ? 'body' : target,
      code: missing ? 'required' : i.code,
      message: missing ? `${field} is required` : i.message,
    };
  });
  const summary = details
    .map((d) => d.message)
    .slice(0, 3)
    .join('; ');
  return new ApiError('validation_failed', `Invalid request: ${summary}`, { details });
}

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error as ZodError, result.target);
    },
  });
}

export type Router = ReturnType<typeof createRouter>;

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ example: 'validation_failed' }),
    message: z.string().openapi({ example: 'Invalid request: name is required' }),
    requestId: z.string(),
    details: z.array(z.object({ field: z.string().optional(), message: z.string(), code: z.string().optional() }).passthrough()).optional(),
  })
  .passthrough()
  .openapi('Error');

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: malformed JSON or an invalid field (named in `details`)',
  401: 'Missing or invalid credentials',
  402: 'Payment authorization failed',
  403: "Valid credentials without the needed permission, or a `customerId` that is not the caller's",
  404: "Not found (another operator's records also answer 404)",
  409: 'Conflict: the resource state prevents the action',
  410: 'Expired',
  413: 'Body larger than the documented cap',
  422: 'Unprocessable',
  429: 'Rate limited; `Retry-After` gives the seconds to wait',
  503: 'Temporarily unavailable; retry',
};

export const AnyObject = z.record(z.string(), z.unknown()).openapi({ type: 'object' });
export const Ok = z.object({ success: z.boolean() }).passthrough().openapi('Success');

export interface RouteSpec<B extends ZodType | undefined, Q extends ZodType | undefined, P extends ZodType | undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tags: string[];
  /** Unique across the API, camelCase verbNoun (`listRenters`, `cancelBooking`): generated clients name their methods after it. */
  operationId: string;
  /** One line, shown in lists; no trailing period. */
  summary: string;
  /** Markdown; long text in a template literal (line breaks inside a paragraph are fine). */
  description?: string;
  /** Who may call: operator credentials (default), operator admin, public (credentials optional), none. */
  access?: Access;
  /** The route's own credential scheme (with `access: 'none'`): checked by its middleware, documented by its security. */
  auth?: AuthScheme;
  /** Body size cap in bytes (default 1 MiB for JSON, 50 MiB for multipart). */
  bodyLimit?: number;
  body?: B;
  /**
   * A `multipart/form-data` body (file uploads), documented in OpenAPI from this zod schema but not
   * validated by the router: the handler reads `c.req.formData()` itself, so it can sniff, size-check
   * and refuse files with its own 400s (a JSON body is not answered with a generic 415).
   */
  multipart?: ZodType;
  /**
   * An HTML-form body (`application/x-www-form-urlencoded`, also accepted as JSON): OAuth
   * endpoints (RFC 6749) and the pages' forms. Documented from this schema; the handler parses
   * and validates it (the module's own form reader).
   */
  form?: ZodType;
  query?: Q;
  params?: P;
  /** Success response schema and status (200 unless given). */
  ok?: ZodType;
  status?: number;
  /** Extra documented error statuses (400, 401 and 429 are added where they apply). */
  errors?: number[];
  /** Non-JSON success media types (PDFs, CSV exports, stored files): one, or every type the route may answer (with `application/json`, documented by `ok`). */
  produces?: string | readonly string[];
  hide?: boolean;
  /** OpenAPI security requirement when it differs from the access default (for example none on an open registration). */
  security?: RouteConfig['security'];
  /** Honours `Idempotency-Key` (src/lib/idempotency.ts): for every operation that creates a booking or moves money. */
  idempotent?: boolean;
  /** The body of the documented errors when a family answers in its own error shape (the OCTO API); default the `Error` envelope. */
  errorSchema?: ZodType;
}

type Infer<T> = T extends ZodType ? z.output<T> : undefined;

export interface Input<B, Q, P> {
  body: Infer<B>;
  query: Infer<Q>;
  params: Infer<P>;
}

const SECURITY = [{ ApiKey: [] }, { BearerJwt: [] }];

type AnySpec = RouteSpec<ZodType | undefined, ZodType | undefined, ZodType | undefined>;
type RequestParts = NonNullable<RouteConfig['request']>;

export function toRouteConfig(spec: AnySpec): RouteConfig {
  const access = spec.access ?? 'operator';
  const status = spec.status ?? 200;
  const errors = new Set(spec.errors ?? []);
  if (spec.body || spec.multipart || spec.form || spec.query || spec.params) errors.add(400);
  if (access === 'operator' || access === 'admin') {
    errors.add(401);
    errors.add(429);
  }
  if (access === 'admin') errors.add(403);
  if (spec.idempotent) {
    errors.add(409);
    errors.add(422);
  }
  const responses: RouteConfig['responses'] = {
    [status]: spec.produces
      ? {
          description: 'Success',
          // A route that answers JSON among other types (format negotiation) documents its JSON with the `ok` schema.
          content: Object.fromEntries(
            [spec.produces].flat().map((media) => [media, { schema: media === 'application/json' && spec.ok ? spec.ok : z.string() }]),
          ),
        }
      : { description: 'Success', content: { 'application/json': { schema: spec.ok ?? AnyObject } } },
  };
  for (const code of [...errors].sort()) {
    responses[code] = { description: ERROR_TEXT[code] ?? 'Error', content: { 'application/json': { schema: spec.errorSchema ?? ErrorSchema } } };
  }
  // The body's limits come first, at the edge: size (413) and JSON nesting (400) are checked before
  // any credential lookup, body-reading signature check, validation or handler runs.
  const middleware: MiddlewareHandler[] = [];
  if (spec.body || spec.multipart || spec.form) {
    middleware.push(sizeLimit(spec.bodyLimit ?? (spec.multipart ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT)));
    middleware.push(jsonDepthLimit as MiddlewareHandler);
  }
  middleware.push(authMiddleware(access, spec.auth) as MiddlewareHandler);
  const operatorDefaults = operatorFieldDefaults(spec.query, spec.body);
  if (operatorDefaults) middleware.push(operatorDefaults as MiddlewareHandler);
  if (spec.body) middleware.push(requireJson as MiddlewareHandler);
  if (spec.idempotent) middleware.push(idempotency as MiddlewareHandler);
  return createRoute({
    method: spec.method,
    path: spec.path,
    tags: spec.tags,
    summary: spec.summary,
    description: spec.description,
    operationId: spec.operationId,
    hide: spec.hide,
    security: spec.security ?? spec.auth?.security ?? (access === 'operator' || access === 'admin' ? SECURITY : access === 'public' ? [{}, ...SECURITY] : []),
    middleware,
    request: {
      ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } }, required: true } } : {}),
      ...(spec.multipart && !spec.body ? { body: { content: { 'multipart/form-data': { schema: documentedOnly(spec.multipart) } }, required: true } } : {}),
      ...(spec.query ? { query: spec.query as RequestParts['query'] } : {}),
      ...(spec.params ? { params: spec.params as RequestParts['params'] } : {}),
      ...(spec.idempotent ? { headers: IdempotencyHeaders } : {}),
      ...(spec.form && !spec.body
        ? {
            body: {
              content: {
                'application/x-www-form-urlencoded': { schema: documentedOnly(spec.form) },
                'application/json': { schema: documentedOnly(spec.form) },
              },
              required: true,
            },
          }
        : {}),
    },
    responses,
  });
}

const IdempotencyHeaders = z.object({
  'idempotency-key': z.string().max(255).optional().openapi({ description: IDEMPOTENCY_DOC, example: '6f1c2a9e-3b7d-4e0a-9f51-1d2c3b4a5e6f' }),
});

/**
 * Authentication of one route, before validation (so an anonymous caller gets 401, never 400):
 * operator credentials through the app's authenticator for operator, admin and public routes (on a
 * public route they are optional, but invalid ones are refused), or the route's own scheme.
 */
function authMiddleware(access: Access, scheme: AuthScheme | undefined): MiddlewareHandler<AppEnv> {
  if (scheme) return (c, next) => scheme.middleware(c, async () => (await bindRequestClock(c), await next()));
  if (access === 'none') return async (_c, next) => next();
  return async (c, next) => {
    const headers = await c.get('authenticate')(c, access);
    await bindRequestClock(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  };
}

function sizeLimit(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      const err = new ApiError('payload_too_large', `Request body exceeds the ${Math.round(maxSize / 1024)} KiB limit`);
      return c.json(errorBody(err, c.get('requestId') ?? 'unknown'), 413);
    },
  });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * True when JSON text nests objects and arrays deeper than `max` (a linear scan, no parse: a
 * body nested thousands of levels deep never reaches `JSON.parse`, zod or a handler, whose
 * recursion it would exhaust). Brackets inside strings do not count.
 */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 || ch === 91) {
      if (++depth > max) return true;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return false;
}

/** A JSON body nested deeper than JSON_MAX_DEPTH answers 400 `validation_failed` (the text stays cached for the validator). */
const jsonDepthLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.req.raw.body || !JSON_TYPE.test(c.req.header('content-type') ?? '')) return next();
  if (jsonTooDeep(await c.req.text())) {
    const message = `nests objects and arrays more than ${JSON_MAX_DEPTH} levels deep`;
    throw new ApiError('validation_failed', `Invalid request: the body ${message}`, {
      details: [{ field: 'body', location: 'body', code: 'too_deep', message: `body ${message}` }],
    });
  }
  await next();
};

/** JSON endpoints take `Content-Type: application/json` only (415 otherwise); an absent body is left to validation. */
const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header('content-type');
  const length = c.req.header('content-length');
  const hasBody = type !== undefined || (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined;
  if (hasBody && !JSON_TYPE.test(type ?? '')) {
    throw new ApiError('unsupported_media_type', `Content-Type must be application/json (got ${type ? `"${type.slice(0, 80)}"` : 'none'})`);
  }
  await next();
};

/** A zod schema as a plain OpenAPI schema object: documented, but the router adds no validator for it. */
function documentedOnly(schema: ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** Declares a route (zod schemas for validation and OpenAPI at once). */
export function route<B extends ZodType | undefined = undefined, Q extends ZodType | undefined = undefined, P extends ZodType | undefined = undefined>(
  spec: RouteSpec<B, Q, P>,
): RouteSpec<B, Q, P> {
  return spec;
}

/** Mounts a declared route with its thin handler: validated input in, Response out. */
export function mount<B extends ZodType | undefined, Q extends ZodType | undefined, P extends ZodType | undefined>(
  app: Router,
  spec: RouteSpec<B, Q, P>,
  handler: (c: Context<AppEnv>, input: Input<B, Q, P>) => Response | Promise<Response>,
): void {
  const config = toRouteConfig(spec as AnySpec);
  // The declared schemas are checked by the router's validators; the handler reads what they produced.
  const openapi = app.openapi as unknown as (route: RouteConfig, h: (c: Context<AppEnv>) => Response | Promise<Response>) => Router;
  openapi.call(app, config, async (c) => {
    const valid = (target: 'json' | 'query' | 'param') => (c.req as unknown as { valid(t: string): unknown }).valid(target);
    const input = {
      body: spec.body ? valid('json') : undefined,
      query: spec.query ? valid('query') : undefined,
      params: spec.params ? valid('param') : undefined,
    } as Input<B, Q, P>;
    return handler(c, input);
  });
}

type JsonNode = unknown;
const ANNOTATIONS = new Set(['type', 'description', 'title', 'default', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * The generator documents a nullable reference (`Pin.nullable()` of a registered `Pin`) as
 * `allOf: [{$ref}, {type: ['object', 'null']}]`, which no `null` can satisfy (the `$ref` branch
 * rejects it). This rewrites each such node as `anyOf: [{$ref}, {type: 'null'}]` (keeping any
 * description or default beside it), throughout the document.
 */
export function nullableRefsAsAnyOf<T>(doc: T): T {
  const fix = (node: JsonNode): JsonNode => {
    if (Array.isArray(node)) return node.map(fix);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, JsonNode> = {};
    for (const [k, v] of Object.entries(node)) out[k] = fix(v);
    const allOf = out.allOf;
    if (!Array.isArray(allOf) || allOf.length !== 2) return out;
    const [ref, extra] = allOf as [Record<string, JsonNode>, Record<string, JsonNode>];
    const types = extra && typeof extra === 'object' ? extra.type : undefined;
    if (typeof ref?.$ref !== 'string' || Object.keys(ref).length !== 1 || !Array.isArray(types) || !types.includes('null')) return out;
    if (!Object.keys(extra).every((k) => ANNOTATIONS.has(k))) return out;
    const { type: _type, ...meta } = extra;
    const { allOf: _allOf, ...rest } = out;
    return { ...rest, ...meta, anyOf: [ref, { type: 'null' }] };
  };
  return fix(doc) as T;
}

/** Common field helpers. */
export const zId = (example = 'id_01J0000000000000000000000') => z.string().trim().min(1).max(128).openapi({ example });
export const zEmail = () => z.string().trim().toLowerCase().max(254).email();
export const zJsonObject = () => z.record(z.string(), z.unknown());
/** A real calendar day `YYYY-MM-DD` (2027-02-30 is refused). */
export const zCalendarDay = () =>
  z
    .string()
    .trim()
    .refine((v) => isoDate.test(v) && isCalendarDate(v), 'must be a calendar date YYYY-MM-DD')
    .openapi({ example: '2026-07-01' });
/** Booleans in query strings: `true`/`false`/`1`/`0`. */
export const zQueryBool = () =>
  z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional();
export const zQueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max).optional();
export const zLimit = (max = 100, def = 50) => z.coerce.number().int().min(1).max(max).default(def);
export const zOffset = () => z.coerce.number().int().min(0).default(0);
export const zPage = () => z.coerce.number().int().min(1).max(100_000).default(1);
