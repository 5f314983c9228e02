/**
 * One error envelope for the whole API: `{ error, message, requestId, details? }`.
 * Code throws `ApiError`; `onError` and the validation hook render it. The status of each
 * machine code lives in one table.
 */
export const STATUS_BY_CODE = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  no_changes: 400,
  unauthenticated: 401,
  payment_failed: 402,
  forbidden: 403,
  insufficient_scope: 403,
  no_account: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  already_exists: 409,
  unavailable: 409,
  version_conflict: 409,
  not_pending: 409,
  not_cancellable: 409,
  invalid_state: 409,
  expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export interface ErrorDetail {
  field?: string;
  message: string;
  code?: string;
  [k: string]: unknown;
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode | (string & {}),
    message: string,
    opts: { status?: number; details?: ErrorDetail[]; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.status = opts.status ?? (STATUS_BY_CODE as Record<string, number>)[code] ?? 400;
    this.details = opts.details;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new ApiError('bad_request', message, { details });
export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError('forbidden', message);
export const conflict = (code: ErrorCode | (string & {}), message: string, extra?: Record<string, unknown>) =>
  new ApiError(code, message, { status: 409, extra });

export function errorBody(err: ApiError, requestId: string) {
  return {
    error: err.code,
    message: err.message,
    requestId,
    ...(err.details && err.details.length ? { details: err.details } : {}),
    ...(err.extra ?? {}),
  };
}
