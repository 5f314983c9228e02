import type { Env } from '../env';
import { isProduction } from '../env';
import { ApiError } from '../lib/errors';

/**
 * Every outbound HTTP request goes through here. Tests replace `outbound.fetch` to play a remote
 * service without a network.
 */
export const outbound = {
  fetch: (input: Request | string | URL, init?: RequestInit): Promise<Response> => fetch(input, init),
};

const PRIVATE_V4 = [/^10\./, /^127\./, /^169\.254\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^0\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];

/** True when a URL targets loopback, private, link-local or otherwise internal hosts. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  if (PRIVATE_V4.some((r) => r.test(h))) return true;
  if (h === '::1' || h === '::' || h.startsWith('fc') || h.startsWith('fd') || h.startsWith('fe80') || h.startsWith('::ffff:')) return true;
  return false;
}

/** Validates a user-supplied URL: https only and no internal hosts in production (http allowed in development). */
export function checkUserUrl(env: Env, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('validation_failed', 'url must be an absolute URL', { details: [{ field: 'url', message: 'invalid URL' }] });
  }
  const prod = isProduction(env);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !prod)) {
    throw new ApiError('validation_failed', 'url must use https', { details: [{ field: 'url', message: 'must use https' }] });
  }
  if (prod && isPrivateHost(url.hostname)) {
    throw new ApiError('validation_failed', 'url must not point to a private or loopback address', { details: [{ field: 'url', message: 'private address' }] });
  }
  return url;
}

/**
 * Fetch of a user-supplied URL with the safety checks and a timeout. Redirects are never followed
 * (a 3xx is answered as is). `transport` replaces the network for hosts served in-process (the
 * offline reference underwriter); the checks and the timeout apply the same.
 */
export async function safeFetch(
  env: Env,
  raw: string,
  init: RequestInit & { timeoutMs?: number; transport?: (input: string, init: RequestInit) => Promise<Response> } = {},
): Promise<Response> {
  const url = checkUserUrl(env, raw);
  const { timeoutMs = 10_000, transport, ...rest } = init;
  return (transport ?? outbound.fetch)(url.toString(), { ...rest, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
}

export class ResponseTooLarge extends Error {}

/** Reads a response body as text, refusing more than `maxBytes` (the rest is never read). */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new ResponseTooLarge(`response of ${declared} bytes exceeds ${maxBytes}`);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new ResponseTooLarge(`response exceeds ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(all);
}
