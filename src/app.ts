import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { cors } from 'hono/cors';
import { docsPage } from './docs';
import { favicon, landingPage } from './landing';
import { ANONYMOUS, isAdmin, type AppEnv, type Authenticator, type Principal } from './lib/context';
import { ApiError, CORE_ERRORS, errorBody, errorTableMarkdown, guardError, type ErrorInfo } from './lib/errors';
import { moduleHooks, type ModuleDef } from './lib/module';
import { nullableRefsAsAnyOf } from './lib/openapi';
import { nowIso } from './lib/clock';
import { requestContext } from './middleware/request-id';
import { authenticateOperator } from './middleware/auth';

function toApiError(err: unknown, registry: Record<string, ErrorInfo>): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 400 && /json/i.test(err.message)) return new ApiError('invalid_json', 'Malformed JSON in request body');
    if (err.status === 413) return new ApiError('payload_too_large', err.message);
    if (err.status === 415) return new ApiError('unsupported_media_type', 'Content-Type must be application/json');
    if (err.status >= 500) return new ApiError('internal', err.message || 'Internal error');
    return new ApiError('bad_request', err.message || 'Bad request');
  }
  return guardError(err, registry) ?? new ApiError('internal', 'Something went wrong on our side; the error was logged with this requestId');
}

/** The authenticator of a dispatched request: the principal is already known; admin routes still need an admin. */
const actAs =
  (principal: Principal): Authenticator =>
  async (c, access) => {
    c.set('principal', principal);
    if (access === 'admin' && !isAdmin(principal)) throw new ApiError('forbidden', 'This operation needs admin permission');
    return {};
  };

/** Every error code of the API (shared and per module), each defined once with one status. */
export function errorRegistry(modules: ModuleDef[]): Record<string, ErrorInfo & { module: string }> {
  const all: Record<string, ErrorInfo & { module: string }> = {};
  for (const [code, info] of Object.entries(CORE_ERRORS)) all[code] = { ...info, module: 'shared' };
  for (const m of modules) {
    for (const [code, info] of Object.entries(m.errors ?? {})) {
      const prev = all[code];
      if (prev) throw new Error(`Error code ${code} of module ${m.name} is already defined by ${prev.module}`);
      all[code] = { ...info, module: m.name };
    }
  }
  return all;
}

type App = OpenAPIHono<AppEnv>;

/** The Hono app: middleware chain, every module's router, `/openapi.json`, `/docs` and the error envelope. */
export function buildApp(modules: ModuleDef[]) {
  const app = new OpenAPIHono<AppEnv>();
  const registry = errorRegistry(modules);
  useMiddleware(app, moduleHooks(modules));
  useErrorEnvelope(app, registry);
  registerSecuritySchemes(app);
  for (const m of modules) if (m.router) app.route('/', m.router);
  routeDocuments(app, modules, registry);
  return app;
}

/** Request context, CORS, and the principal, hooks and gateway dispatch every handler reads. */
function useMiddleware(app: App, hooks: ReturnType<typeof moduleHooks>) {
  app.use('*', requestContext);
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['content-type', 'authorization', 'x-api-key', 'idempotency-key', 'x-request-id', 'x-platform-key'],
      exposeHeaders: ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'idempotent-replayed'],
    }),
  );
  // Requests the partner gateway dispatches (`/api/v1/<path>`) run as the app principal it authenticated.
  const dispatched = new WeakMap<Request, Principal>();
  app.use('*', async (c, next) => {
    c.set('principal', ANONYMOUS);
    c.set('hooks', hooks);
    const as = dispatched.get(c.req.raw);
    c.set('authenticate', as ? actAs(as) : authenticateOperator);
    c.set('dispatch', (req, principal) => {
      dispatched.set(req, principal);
      let executionCtx: typeof c.executionCtx | undefined;
      try {
        executionCtx = c.executionCtx;
      } catch {
        executionCtx = undefined;
      }
      return Promise.resolve(app.fetch(req, c.env, executionCtx));
    });
    await next();
  });
}

/** The one error envelope: every thrown error and every unknown route. */
function useErrorEnvelope(app: App, registry: ReturnType<typeof errorRegistry>) {
  app.onError((err, c) => {
    const apiErr = toApiError(err, registry);
    const requestId = c.get('requestId') ?? 'unknown';
    if (apiErr.status >= 500) c.get('log')?.error('unhandled error', { error: String(err), stack: (err as Error)?.stack });
    const res = c.json(errorBody(apiErr, requestId), apiErr.status as 400);
    for (const [k, v] of Object.entries(apiErr.headers ?? {})) res.headers.set(k, v);
    return res;
  });
  app.notFound((c) => {
    const err = new ApiError('route_not_found', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`);
    return c.json(errorBody(err, c.get('requestId') ?? 'unknown'), 404);
  });
}

/** The credentials `/openapi.json` documents. */
const SECURITY_SCHEMES: Record<string, Parameters<App['openAPIRegistry']['registerComponent']>[2]> = {
  ApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Operator API key (Admin > API Keys); carries the permissions of the user who created it.',
  },
  ChannelKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'Reseller channel key (`rtc_live_...` or `rtc_test_...`); also accepted as `X-Channel-Key`.',
  },
  PortalToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Partner-portal token (`rtp_...`) returned when a reseller channel registers.',
  },
  PlatformKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-platform-key',
    description: "Berth's own staff (the `PLATFORM_API_KEY` secret); a bearer token whose `roles` claim holds `platform_staff` is the same role.",
  },
  MemberPortalSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'Member-portal session (`mps_...`) opened with a single-use e-mailed link (POST /public/memberships/portal/session).',
  },
  TenantPortalSession: {
    type: 'http',
    scheme: 'bearer',
    description: 'Slip tenant-portal session (`sps_...`) opened with a single-use e-mailed link (POST /slip-portal/session).',
  },
  BearerJwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token of a dashboard user, issued by the identity provider.',
  },
};

function registerSecuritySchemes(app: App) {
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) app.openAPIRegistry.registerComponent('securitySchemes', name, scheme);
}

/** `/health`, `/openapi.json`, `/docs`, the landing page and the favicon. */
function routeDocuments(app: App, modules: ModuleDef[], registry: ReturnType<typeof errorRegistry>) {
  app.get('/health', (c) => c.json({ status: 'ok', time: nowIso({ clock: c.get('clock') }) }));
  const description = `${API_DESCRIPTION}\n\n**Error codes.** Every code the API answers, with its status:\n\n${errorTableMarkdown(registry)}`;
  app.get('/openapi.json', (c) => {
    const origin = new URL(c.req.url).origin;
    const doc = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'Berth API', version: '1.0.0', description, contact: { name: 'Berth API reference', url: `${origin}/docs` } },
      servers: [{ url: origin }],
      tags: modules.flatMap((m) => m.tags ?? []),
    });
    return c.json(nullableRefsAsAnyOf(doc));
  });
  app.get('/docs', docsPage);
  app.get('/', landingPage);
  app.get('/favicon.svg', favicon);
  app.get('/favicon.ico', favicon);
}

const API_DESCRIPTION = `Berth is a rental-business platform: bookings with live availability, payments, deposits and waivers, point of sale, memberships, marina operations, a public booking widget, a reseller channel API and partner integrations.

**Authentication.** Operator endpoints take \`x-api-key: <key>\` (created under Admin > API Keys, carrying the permissions of the user who created it) or \`Authorization: Bearer <JWT>\` from the identity provider. Missing or invalid credentials answer 401; valid credentials without the permission answer 403.

**Platform staff.** Berth's own staff are a role apart from operators' admins: they authenticate with \`x-platform-key: <PLATFORM_API_KEY>\` or with an identity-provider token whose \`roles\` claim holds \`platform_staff\`, belong to no operator (operator endpoints answer them 403 \`no_account\`), and alone may call the cross-operator endpoints (\`GET /promoGiftCards/search\`; operators' credentials, admins included, answer 403).

**Idempotency.** Every operation that creates a booking or moves money (bookings, deposits, point-of-sale sales and refunds, gift cards, protection plans) takes \`Idempotency-Key\`: keys are scoped to the credential and kept 24 hours; the same key and body replays the stored answer byte for byte with \`Idempotent-Replayed: true\`; a different body answers 422 \`idempotency_key_reuse\`; a request still in flight answers 409 \`request_in_progress\`; a 5xx is not stored.

**Partners and installed apps.** Partner accounts use partner tokens (\`Authorization: Bearer bpt_...\`). Installed apps use OAuth 2.0 (\`/oauth/authorize\`, \`/oauth/token\`) and call the partner gateway \`/api/v1/<documented path>\` with their access token, scope-checked (403 \`insufficient_scope\` with \`requiredScope\`), 600 requests per minute per installation. See the Partner accounts, OAuth and Partner gateway sections.

**Errors.** Every error has one envelope: \`{"error": "machine_code", "message": "Human text", "requestId": "...", "details": [...]}\`. 400 \`validation_failed\` names each invalid field in \`details\`; malformed JSON is 400 \`invalid_json\`; an unknown path is 404 \`route_not_found\`; bodies over 1 MiB (50 MiB on upload routes) are 413 \`payload_too_large\`.

**Tenancy.** Another operator's record answers 404; a \`customerId\` in a request that is not the caller's answers 403.

**Rate limits.** Per credential per minute: 100 on the standard plan, 500 on the enterprise plan. Authenticated responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix seconds); over the limit the answer is 429 \`rate_limited\` with \`Retry-After\`. Anonymous public calls are not counted here (the edge's per-IP rules protect them).

**Webhooks.** Each delivery is a POST with headers \`X-Service-Signature\` (hex HMAC-SHA256 of \`{timestamp}.{body}\` with the endpoint secret), \`X-Service-Timestamp\` (Unix seconds), \`X-Service-Event-Id\` (deduplicate on it), \`X-Service-Event-Type\` and \`X-Service-Delivery-Id\`. The body is \`{id, type, createdAt, customerId, data}\`. A non-2xx answer or a timeout (10 s) is retried with exponential backoff (30 s doubling, at most 6 h apart) for up to 3 days; every attempt is logged and deliveries can be replayed. Deliveries do not count against rate limits.

**Requests ids.** Every response carries \`X-Request-Id\` (echoed when sent).`;
