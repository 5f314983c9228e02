/**
 * One error envelope for the whole API: `{ error, message, requestId, details? }`.
 *
 * Error codes are a closed registry. The codes every layer shares are in `CORE_ERRORS` below;
 * a module adds its own in its `errors.ts` with `defineErrors({...})`, lists that table in its
 * `module.ts`, and throws them with the table's `fail(code, message)`. No code throws a code
 * outside the registry or passes a status by hand: the status always comes from the table.
 * `/docs` (and the channel's error table) are generated from the registry.
 */
export interface ErrorInfo {
  status: number;
  /** One line: when the API answers this code. */
  meaning: string;
}

export const CORE_ERRORS = {
  bad_request: { status: 400, meaning: 'The request cannot be served as sent; the message says why' },
  validation_failed: { status: 400, meaning: 'An input is missing or invalid; `details` names each field' },
  invalid_json: { status: 400, meaning: 'The body is not well-formed JSON' },
  invalid_cursor: { status: 400, meaning: 'A pagination cursor that this API did not issue, or one for another query' },
  no_changes: { status: 400, meaning: 'An update without any field to change' },
  in_the_past: { status: 400, meaning: "The date or time asked for is already past (the location's calendar, on the operator's clock)" },
  price_mismatch: { status: 400, meaning: "The client's total differs from the server's price by more than a cent" },
  payment_provider_error: { status: 400, meaning: 'The payment provider refused the request' },
  invalid_payment_method: { status: 400, meaning: 'An unknown or unusable payment method' },
  currency_mismatch: {
    status: 400,
    meaning: 'Money in one currency offered for an amount in another (a gift card, promo amount, credit or payment): nothing was redeemed or charged',
  },
  unauthenticated: { status: 401, meaning: 'No credentials, or credentials that are invalid, expired or revoked' },
  payment_failed: { status: 402, meaning: 'The card was declined or needs authentication; nothing was written' },
  forbidden: { status: 403, meaning: "Valid credentials without the needed permission, or another operator's `customerId`" },
  insufficient_scope: { status: 403, meaning: 'The token lacks the scope named in `requiredScope`' },
  no_account: { status: 403, meaning: 'A signed-in identity that has no operator account yet' },
  not_sandbox: { status: 403, meaning: 'A sandbox operation (test clocks, sandbox reset) called with a live key' },
  not_found: { status: 404, meaning: "No such record (another operator's records answer the same)" },
  route_not_found: { status: 404, meaning: 'The service has no such path' },
  method_not_allowed: { status: 405, meaning: 'The path exists but not with this method' },
  already_exists: { status: 409, meaning: 'A record with the same unique value exists' },
  unavailable: { status: 409, meaning: 'The time or capacity is no longer available; nothing was charged or written' },
  version_conflict: { status: 409, meaning: 'The record changed since it was read; reload and retry' },
  not_pending: { status: 409, meaning: 'The record is no longer pending' },
  not_cancellable: { status: 409, meaning: 'The record cannot be cancelled in its present state' },
  invalid_state: { status: 409, meaning: 'The record state does not allow this action' },
  idempotency_key_reuse: { status: 422, meaning: 'The Idempotency-Key was used with a different request' },
  request_in_progress: { status: 409, meaning: 'A request with the same Idempotency-Key is still in flight' },
  expired: { status: 410, meaning: 'The link, code or offer has expired' },
  payload_too_large: { status: 413, meaning: 'The body is larger than the documented cap' },
  unsupported_media_type: { status: 415, meaning: 'A JSON endpoint called with another Content-Type' },
  unprocessable: { status: 422, meaning: 'Well-formed but semantically unusable input' },
  rate_limited: { status: 429, meaning: 'Over the per-minute limit of the credential; see `Retry-After`' },
  internal: { status: 500, meaning: 'A bug on our side; it was logged with the requestId' },
  service_unavailable: { status: 503, meaning: 'A dependency is temporarily unavailable or not configured; retry later' },
} as const satisfies Record<string, ErrorInfo>;

export type CoreErrorCode = keyof typeof CORE_ERRORS;
export type ErrorTable = Record<string, ErrorInfo>;

export interface ErrorDetail {
  field?: string;
  message: string;
  code?: string;
  [k: string]: unknown;
}

export interface ErrorOptions {
  details?: ErrorDetail[];
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  /** A shared code; its status comes from `CORE_ERRORS`. Module codes are thrown with their table's `fail`. */
  constructor(code: CoreErrorCode, message: string, opts: ErrorOptions = {}) {
    super(message);
    this.code = code;
    this.status = (CORE_ERRORS as ErrorTable)[code]?.status ?? 500;
    this.details = opts.details;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  /** Used by `defineErrors` only: a code of a registered module table. */
  static registered(code: string, info: ErrorInfo, message: string, opts: ErrorOptions = {}): ApiError {
    const err = new ApiError('internal', message, opts);
    Object.assign(err, { code, status: info.status });
    return err;
  }
}

/** A module's error table and the function that throws its codes with their registered status. */
export interface ModuleErrors<T extends ErrorTable> {
  table: T;
  fail(code: (keyof T & string) | CoreErrorCode, message: string, opts?: ErrorOptions): ApiError;
}

export function defineErrors<T extends ErrorTable>(table: T): ModuleErrors<T> {
  return {
    table,
    fail: (code, message, opts) => {
      const info = table[code] ?? (CORE_ERRORS as ErrorTable)[code];
      return ApiError.registered(code, info, message, opts);
    },
  };
}

/**
 * A D1 batch aborted by a database guard whose code is a registered error: a trigger's
 * `RAISE(ABORT, '<code>: <message>')` (e.g. `staff_conflict` when a move would put a staff member on
 * two bookings at once) answers as that error; anything else, null.
 */
export function guardError(err: unknown, codes: Record<string, ErrorInfo>): ApiError | null {
  const e = err as { message?: string; cause?: unknown };
  const text = `${e?.message ?? err} ${String(e?.cause ?? '')}`;
  for (const m of text.matchAll(/\b([a-z]+(?:_[a-z]+)+): ([^:]+)/g)) {
    const info = codes[m[1]];
    if (info) return ApiError.registered(m[1], info, m[2].trim());
  }
  return null;
}

/** An error that crossed a Durable Object boundary as plain data (code and status of a registered code). */
export function reviveError(e: { code: string; status: number; message: string }, opts: ErrorOptions = {}): ApiError {
  return ApiError.registered(e.code, { status: e.status, meaning: e.code }, e.message, opts);
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new ApiError('bad_request', message, { details });
export const notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') => new ApiError('forbidden', message);

/** A markdown table of codes, sorted by status then code (for `/docs`). */
export function errorTableMarkdown(table: ErrorTable): string {
  const rows = Object.entries(table)
    .sort(([a, x], [b, y]) => x.status - y.status || a.localeCompare(b))
    .map(([code, e]) => `| \`${code}\` | ${e.status} | ${e.meaning} |`);
  return ['| error | status | meaning |', '|---|---|---|', ...rows].join('\n');
}

export function errorBody(err: ApiError, requestId: string) {
  return {
    error: err.code,
    message: err.message,
    requestId,
    ...(err.details && err.details.length ? { details: err.details } : {}),
    ...(err.extra ?? {}),
  };
}

/**
 * The database refused a write for a unique index (`constraint`: the index or column named in the
 * message, when it matters). drizzle wraps D1's error ("Failed query: …") and keeps D1's message in
 * `cause`, so the whole chain is read: the one way to recognise a lost insert race.
 */
export function isUniqueViolation(err: unknown, constraint?: RegExp): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const text = String((e as Error).message ?? e);
    if (/UNIQUE constraint failed|UNIQUE/i.test(text) && (!constraint || constraint.test(text))) return true;
  }
  return false;
}
