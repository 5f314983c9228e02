import { apiUrl } from './config';
import { accountOf, type Session } from './credentials';
import { CliError, EXIT, notSignedIn } from './errors';

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

interface RequestOptions {
  body?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** Statuses the caller handles itself instead of an error (for example the device grant's 400s). */
  accept?: number[];
  timeoutMs?: number;
}

interface ErrorBody {
  error?: string;
  message?: string;
  error_description?: string;
  details?: unknown;
}

/** A fetch failure (refused connection, DNS, timeout) as the tool's network error. */
export function networkError(url: string, err: unknown): CliError {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const why = e.name === 'TimeoutError' ? 'no answer in time' : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
  return new CliError(`Could not reach ${url}: ${why}`, EXIT.network, 'network', 'Check BERTH_API_URL and your connection.');
}

/** Maps an error answer of the API onto the tool's exit codes. */
function apiError(base: string, status: number, body: ErrorBody): CliError {
  const message = body.message ?? body.error_description ?? `HTTP ${status}`;
  const code = body.error ?? `http_${status}`;
  if (status === 401) return new CliError(`${message} (${base})`, EXIT.notSignedIn, 'not_signed_in', 'Run `berth login` again.', body.details);
  if (status === 404) return new CliError(message, EXIT.notFound, code, undefined, body.details);
  if (status === 409 && code === 'version_conflict')
    return new CliError(message, EXIT.conflict, code, 'Run `berth pull` (or `berth coverage pull`) and try again.');
  if (status === 403 || status === 409 || status === 422) return new CliError(message, EXIT.refused, code, undefined, body.details);
  return new CliError(message, EXIT.failure, code, undefined, body.details);
}

/** A client of the Berth API at one base URL, with or without the partner session. */
export class Api {
  constructor(
    readonly base: string,
    private readonly token?: string,
  ) {}

  async request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'berth-cli', ...o.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    } else if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.body);
    }
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { method, headers, body, signal: AbortSignal.timeout(o.timeoutMs ?? 30_000) });
    } catch (err) {
      throw networkError(this.base, err);
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = { message: text.slice(0, 300) };
    }
    if (!res.ok && !o.accept?.includes(res.status)) throw apiError(this.base, res.status, (parsed ?? {}) as ErrorBody);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get = async <T>(path: string, o?: RequestOptions) => (await this.request<T>('GET', path, o)).body;
  post = async <T>(path: string, body?: unknown, o?: RequestOptions) => (await this.request<T>('POST', path, { ...o, body: body ?? {} })).body;
  patch = async <T>(path: string, body: unknown, o?: RequestOptions) => (await this.request<T>('PATCH', path, { ...o, body })).body;
}

/** The API without a session (login, public pages). */
export const anonymousApi = () => new Api(apiUrl());

/** The stored partner session for the API in use; exit 3 when there is none or it expired. */
export function currentSession(base = apiUrl()): Session {
  const s = accountOf(base).session;
  if (!s) throw notSignedIn(base);
  if (Date.parse(s.expiresAt) <= Date.now()) throw notSignedIn(base, 'Your session expired; you are not signed in');
  return s;
}

/** The API with the partner session (exit 3 without one). */
export function partnerApi(): Api {
  const base = apiUrl();
  return new Api(base, currentSession(base).token);
}
