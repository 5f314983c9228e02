import { OpenAPIHono } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { Scalar } from '@scalar/hono-api-reference';
import type { AppEnv } from './lib/context';
import { ApiError, errorBody } from './lib/errors';
import { requestContext } from './middleware/request-id';
import { authenticate } from './middleware/auth';
import { modules } from './modules';

/** JSON bodies are capped at 1 MiB; upload routes set their own (larger) caps. */
export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 50 * 1024 * 1024;
const UPLOAD_PATHS = [/^\/inventory\/(photo|video|asset-map)\//, /^\/public\/bookings\/[^/]+\/documents$/, /^\/slip-portal\/upload$/];

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 400 && /json/i.test(err.message)) return new ApiError('invalid_json', 'Malformed JSON in request body');
    if (err.status === 413) return new ApiError('payload_too_large', err.message);
    if (err.status === 415) return new ApiError('unsupported_media_type', 'Content-Type must be application/json');
    return new ApiError(err.status >= 500 ? 'internal' : 'bad_request', err.message || 'Bad request', { status: err.status });
  }
  return new ApiError('internal', 'Something went wrong on our side; the error was logged with this requestId');
}

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>();

  app.use('*', requestContext);
  app.use(
    '*',
    cors({
      origin: '*',
      allowHeaders: ['content-type', 'authorization', 'x-api-key', 'idempotency-key', 'x-request-id'],
      exposeHeaders: ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after'],
    }),
  );
  app.use('*', async (c, next) => {
    const path = new URL(c.req.url).pathname;
    const maxSize = UPLOAD_PATHS.some((r) => r.test(path)) ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT;
    return await bodyLimit({
      maxSize,
      onError: (c) => {
        const err = new ApiError('payload_too_large', `Request body exceeds the ${Math.round(maxSize / 1024)} KiB limit`);
        return c.json(errorBody(err, c.get('requestId') ?? 'unknown'), 413);
      },
    })(c, next);
  });
  app.use('*', authenticate);

  app.onError((err, c) => {
    const apiErr = toApiError(err);
    const requestId = c.get('requestId') ?? 'unknown';
    if (apiErr.status >= 500) {
      console.log(JSON.stringify({ level: 'error', msg: 'unhandled error', requestId, error: String(err), stack: (err as Error)?.stack }));
    }
    const res = c.json(errorBody(apiErr, requestId), apiErr.status as 400);
    for (const [k, v] of Object.entries(apiErr.headers ?? {})) res.headers.set(k, v);
    return res;
  });
  app.notFound((c) => {
    const err = new ApiError('route_not_found', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`);
    return c.json(errorBody(err, c.get('requestId') ?? 'unknown'), 404);
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Operator API key (Admin > API Keys); carries the permissions of the user who created it.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'ChannelKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Reseller channel key (`rtc_live_...` or `rtc_test_...`); also accepted as `X-Channel-Key`.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'PortalToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Partner-portal token (`rtp_...`) returned when a reseller channel registers.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'BearerJwt', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token of a dashboard user, issued by the identity provider.',
  });

  for (const m of modules) app.route('/', m);

  app.get('/health', (c) => c.json({ status: 'ok', time: new Date().toISOString() }));
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'Berth API',
      version: '1.0.0',
      description: API_DESCRIPTION,
    },
    servers: [{ url: new URL(c.req.url).origin }],
    tags: [
      {
        name: 'Channel API',
        description: [
          "Resellers sell operators' rentals and tours from their own checkout. Authenticate with `Authorization: Bearer <rtc_live_... | rtc_test_...>` or `X-Channel-Key`. Errors are `{error, message}` (plus `requestId`); branch on `error`:",
          '',
          '| error | status | meaning |',
          '|---|---|---|',
          '| `missing_api_key` | 401 | no key sent |',
          '| `invalid_api_key` | 401 | unknown or rotated key (do not retry) |',
          '| `connection_paused` | 403 | the operator paused the connection, or the channel is paused |',
          '| `not_sandbox` | 403 | sandbox reset with a live key |',
          '| `unknown_product` | 404 (or a line of an availability answer) | the product is not offered to the key |',
          '| `not_found` | 404 | a booking this key did not create |',
          '| `validation_failed` | 400 | invalid input or missing `Idempotency-Key` |',
          '| `booking_in_progress` | 409 | same Idempotency-Key still in flight |',
          '| `unavailable` | 409 | a real conflict; the key is freed |',
          '| `not_cancellable` | 409 | checked in or completed |',
          '| `idempotency_key_reuse` | 422 | same key, different request |',
          '| `rate_limited` | 429 | over 300 requests per minute per connection; see `X-RateLimit-Reset` |',
          '| `idempotency_unavailable`, `inventory_locked` | 503 | transient; retry with the same key |',
        ].join('\n'),
      },
      {
        name: 'Channel partner portal',
        description:
          'Reseller-side portal: register a channel, rotate the platform key, pause, settlement, webhook subscription. Authenticate with the portal token (`rtp_...`).',
      },
      {
        name: 'Channel connections',
        description:
          'Operator side of the reseller channel: connect to platform channels, commission and offer set, pause, remove, single-operator keys and rotation, settlement.',
      },
    ],
  }));
  app.get('/docs', Scalar({ url: '/openapi.json', pageTitle: 'Berth API reference' }));
  return app;
}

const API_DESCRIPTION = `Berth is a rental-business platform: bookings with live availability, payments, deposits and waivers, point of sale, memberships, marina operations, a public booking widget, a reseller channel API and partner integrations.

**Authentication.** Operator endpoints take \`x-api-key: <key>\` (created under Admin > API Keys, carrying the permissions of the user who created it) or \`Authorization: Bearer <JWT>\` from the identity provider. Missing or invalid credentials answer 401; valid credentials without the permission answer 403.

**Errors.** Every error has one envelope: \`{"error": "machine_code", "message": "Human text", "requestId": "...", "details": [...]}\`. 400 \`validation_failed\` names each invalid field in \`details\`; malformed JSON is 400 \`invalid_json\`; an unknown path is 404 \`route_not_found\`; bodies over 1 MiB (50 MiB on upload routes) are 413 \`payload_too_large\`.

**Tenancy.** Another operator's record answers 404; a \`customerId\` in a request that is not the caller's answers 403.

**Rate limits.** Per credential per minute: 100 on the standard plan, 500 on the enterprise plan. Authenticated responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` (Unix seconds); over the limit the answer is 429 \`rate_limited\` with \`Retry-After\`. Anonymous public calls are not counted here (the edge's per-IP rules protect them).

**Webhooks.** Each delivery is a POST with headers \`X-Service-Signature\` (hex HMAC-SHA256 of \`{timestamp}.{body}\` with the endpoint secret), \`X-Service-Timestamp\` (Unix seconds), \`X-Service-Event-Id\` (deduplicate on it), \`X-Service-Event-Type\` and \`X-Service-Delivery-Id\`. The body is \`{id, type, createdAt, customerId, data}\`. A non-2xx answer or a timeout (10 s) is retried with exponential backoff (30 s doubling, at most 6 h apart) for up to 3 days; every attempt is logged and deliveries can be replayed. Deliveries do not count against rate limits.

**Requests ids.** Every response carries \`X-Request-Id\` (echoed when sent).`;
