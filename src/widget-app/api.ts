/**
 * The widget's API client, typed by the OpenAPI document of this deployment: `berth-openapi` is the declaration file that
 * scripts/build-widget.mjs generates from /openapi.json with openapi-typescript, so a field renamed in a route's schema fails
 * the widget's typecheck (and so its build). Answers carry the D1 bookmark so the renter always sees their own writes.
 */
import type { components, operations } from 'berth-openapi';

export type Schemas = components['schemas'];
type Json<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type Responses<Op extends keyof operations> = operations[Op]['responses'];
/** The success body of an operation (its 200, else its 201). */
export type Ok<Op extends keyof operations> = Responses<Op> extends { 200: infer R } ? Json<R> : Responses<Op> extends { 201: infer R } ? Json<R> : never;
/** The JSON request body of an operation. */
type RequestBody<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']>;
export type Body<Op extends keyof operations> = [RequestBody<Op>] extends [never] ? undefined : Json<RequestBody<Op>>;

/** The one error envelope of the API (`{error, message, requestId, details}`), or the network's failure. */
export interface ApiError {
  error?: string;
  message?: string;
  details?: unknown[];
  [k: string]: unknown;
}
/**
 * An answer: `body` is the operation's success body when `ok` (2xx), else the error envelope (`error`). The widget checks
 * `status` (or `ok`) before reading `body`; `error` is set exactly when it is not a success.
 */
export interface Res<T> {
  status: number;
  ok: boolean;
  body: T;
  error: ApiError | null;
}

export type Catalog = Ok<'getWidgetCatalog'>;
export type Item = Catalog['items'][number];
export type Loc = Catalog['locations'][number];
export type Month = Ok<'getMonthAvailability'>;
export type Day = Ok<'getDayAvailability'>;
export type Slot = Day['slots'][number];
export type Quote = Ok<'quoteWidgetOrder'>;
export type QuoteRequest = Body<'quoteWidgetOrder'>;
export type Checkout = Body<'checkoutWidgetOrder'>;
export type CheckoutResult = Ok<'checkoutWidgetOrder'>;
export type CoverQuote = Ok<'getPublicCoverageQuote'>;
export type CoverQuotes = Ok<'quotePublicCoverage'>;
export type Settings = Ok<'getPublicSettings'>;
export type Eligibility = Ok<'getCancellationEligibility'>;
export type CartBody = Body<'createCartRecovery'>;

const ORIGIN = location.origin;

function bookmark(v?: string | null): string | null {
  try {
    if (v) sessionStorage.setItem('berth:bookmark', v);
    return sessionStorage.getItem('berth:bookmark');
  } catch {
    return null;
  }
}

/** Calls operation `_op` (its name types the answer and the body) at `path` (with its query string). */
export function api<Op extends keyof operations>(
  _op: Op,
  method: string,
  path: string,
  body?: Body<Op>,
  headers?: Record<string, string>,
): Promise<Res<Ok<Op>>> {
  const hd: Record<string, string> = { accept: 'application/json', ...(headers ?? {}) };
  const bm = bookmark();
  if (bm) hd['x-d1-bookmark'] = bm;
  if (body !== undefined) hd['content-type'] = 'application/json';
  const init: RequestInit = { method, headers: hd, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit' };
  return fetch(ORIGIN + path, init).then(
    async (r): Promise<Res<Ok<Op>>> => {
      bookmark(r.headers.get('x-d1-bookmark'));
      const text = r.status === 204 ? '' : await r.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = null;
      }
      const ok = r.status >= 200 && r.status < 300;
      return { status: r.status, ok, body: parsed as Ok<Op>, error: ok ? null : ((parsed as ApiError | null) ?? {}) };
    },
    (): Res<Ok<Op>> => {
      const error = { message: 'The network is unavailable; check your connection and try again.' };
      return { status: 0, ok: false, body: error as unknown as Ok<Op>, error };
    },
  );
}

/** The error's message for the renter, else the fallback. */
export function errText(r: Res<unknown> | null | undefined, fallback?: string): string {
  return r?.error?.message || fallback || 'Something went wrong; please try again.';
}

/** A query string of the defined, non-empty values. */
export function qs(o: Record<string, string | number | boolean | null | undefined>): string {
  return Object.keys(o)
    .filter((k) => o[k] !== undefined && o[k] !== null && o[k] !== '')
    .map((k) => encodeURIComponent(k) + '=' + encodeURIComponent(String(o[k])))
    .join('&');
}
