import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { octoErrors } from './errors';

/** OCTO's own codes pass through; Berth's shared and channel codes map onto OCTO's list. */
const OCTO_CODES = new Set(Object.keys(octoErrors.table));
const MAPPED: Record<string, string> = {
  unauthenticated: 'UNAUTHORIZED',
  missing_api_key: 'UNAUTHORIZED',
  invalid_api_key: 'FORBIDDEN',
  connection_paused: 'FORBIDDEN',
  forbidden: 'FORBIDDEN',
  insufficient_scope: 'FORBIDDEN',
  unknown_product: 'INVALID_PRODUCT_ID',
  unavailable: 'UNPROCESSABLE_ENTITY',
  not_cancellable: 'UNPROCESSABLE_ENTITY',
  invalid_state: 'UNPROCESSABLE_ENTITY',
  expired: 'UNPROCESSABLE_ENTITY',
  version_conflict: 'UNPROCESSABLE_ENTITY',
  unprocessable: 'UNPROCESSABLE_ENTITY',
  price_mismatch: 'UNPROCESSABLE_ENTITY',
  idempotency_key_reuse: 'INVALID_BOOKING_UUID',
  route_not_found: 'NOT_FOUND',
  method_not_allowed: 'NOT_FOUND',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_SERVER_ERROR',
  service_unavailable: 'INTERNAL_SERVER_ERROR',
  inventory_locked: 'INTERNAL_SERVER_ERROR',
  idempotency_unavailable: 'INTERNAL_SERVER_ERROR',
};

/**
 * The status of an OCTO code. OCTO answers every error with 400 except INTERNAL_SERVER_ERROR (500,
 * 503 when a retry will do); two statuses OCTO has no code for keep their HTTP meaning: 404
 * NOT_FOUND for a path `/octo/v1` does not have, and 429 TOO_MANY_REQUESTS over the rate limit.
 */
function statusOf(code: string, err: ApiError): number {
  if (code === 'INTERNAL_SERVER_ERROR') return err.status === 503 ? 503 : 500;
  if (code === 'NOT_FOUND') return 404;
  if (code === 'TOO_MANY_REQUESTS') return 429;
  return 400;
}

/** Renders any error of `/octo/v1` as OCTO's `{error, errorMessage, ...}` body. */
export const octoErrorHandler: ErrorHandler<AppEnv> = (err, c) => {
  let e: ApiError;
  if (err instanceof ApiError) e = err;
  else if (err instanceof HTTPException && err.status < 500)
    e = new ApiError('bad_request', /json/i.test(err.message) ? 'Malformed JSON in request body' : err.message);
  else e = new ApiError('internal', 'There was an un-recoverable error, please try again');
  if (e.status >= 500 && !(err instanceof ApiError && e.status === 503))
    c.get('log')?.error('unhandled error', { error: String(err), stack: (err as Error)?.stack });
  const code = OCTO_CODES.has(e.code) ? e.code : (MAPPED[e.code] ?? (e.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST'));
  const detail = e.details?.length ? ` (${e.details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ')})` : '';
  const extra: Record<string, unknown> = {};
  for (const k of ['productId', 'optionId', 'unitId', 'availabilityId', 'uuid']) if (e.extra && typeof e.extra[k] === 'string') extra[k] = e.extra[k];
  const res = c.json(
    { error: code, errorMessage: `${e.message}${detail && !e.message.includes(detail.trim()) ? detail : ''}`, ...extra },
    statusOf(code, e) as 400,
  );
  for (const [k, v] of Object.entries(e.headers ?? {})) res.headers.set(k, v);
  res.headers.set('x-request-id', c.get('requestId') ?? '');
  return res;
};
