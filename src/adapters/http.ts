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

// ---------------------------------------------------------------------------------------------
// Fetching public web pages for users (AI helpers: page proxy, inventory scraping, receipt and
// licence images by URL). Stricter than safeFetch, in every environment:
// - http or https only, no credentials in the URL, default ports (80, 443) or 8080/8443;
// - the host's addresses (an IP literal, or the A and AAAA records of the name, resolved first)
//   must all be public: loopback, private, carrier-grade NAT, link-local (cloud metadata),
//   multicast, reserved and documentation ranges are refused, and so are IPv6 forms that embed
//   an IPv4 address (mapped, compatible, NAT64, 6to4) when the embedded address is not public,
//   Teredo, ULA and site-local; internal names (localhost, *.local, *.internal, ...) too;
// - redirects are followed by hand, at most 3, each target checked the same way;
// - the response must have an accepted content type and fit the size cap, read as a stream; the
//   whole exchange has a time cap.
// Every refusal is a 400 naming the field. On Cloudflare, Workers' subrequests reach only the
// public internet; these checks are the defence for the other runtimes (wrangler dev) and against
// names that point inside.
// ---------------------------------------------------------------------------------------------

export interface PublicFetchOptions {
  /** Field named in a 400 (default `url`). */
  field?: string;
  /** Accepted media types: exact (`text/html`) or prefixes ending in `/` (`image/`). */
  accept: string[];
  /** Size cap of the body in bytes (default 2 MiB). */
  maxBytes?: number;
  /** Time cap of the whole exchange, redirects included (default `publicFetchLimits.timeoutMs`). */
  timeoutMs?: number;
  /** Redirects followed (default and maximum 3). */
  maxRedirects?: number;
  headers?: Record<string, string>;
}

export interface PublicResponse {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** The `charset` parameter of the content type, when given. */
  charset: string | null;
  body: Uint8Array;
  redirects: string[];
}

const ALLOWED_PORTS = new Set(['', '80', '443', '8080', '8443']);
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|home\.arpa|localdomain)$/i;
const DOH_URL = 'https://cloudflare-dns.com/dns-query';

/** DNS resolution of public-fetch hosts: DNS over HTTPS by default; tests replace it. Answers A and AAAA addresses. */
export const resolver = {
  resolve: async (hostname: string): Promise<string[]> => {
    const out: string[] = [];
    for (const type of ['A', 'AAAA'] as const) {
      const res = await outbound.fetch(`${DOH_URL}?name=${encodeURIComponent(hostname)}&type=${type}`, {
        headers: { accept: 'application/dns-json' },
        signal: AbortSignal.timeout(3_000),
      });
      if (!res.ok) throw new Error(`resolver answered ${res.status}`);
      const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
      for (const a of body.Answer ?? []) if (a.type === 1 || a.type === 28) out.push(a.data);
    }
    return out;
  },
};

function refuse(field: string, code: string, message: string): ApiError {
  return new ApiError('validation_failed', `Invalid request: ${field} ${message}`, { details: [{ field, location: 'body', code, message }] });
}

const v4Parts = (ip: string): number[] | null => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
};

/** True when an IPv4 address (dotted) is not a public unicast address. */
export function isBlockedIpv4(ip: string): boolean {
  const p = v4Parts(ip);
  if (!p) return true;
  const [a, b, c] = p;
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, TEST-NET-1
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // TEST-NET-2
    (a === 203 && b === 0 && c === 113) || // TEST-NET-3
    a >= 224 // multicast, reserved, broadcast
  );
}

/** Eight 16-bit groups of an IPv6 address (with or without brackets, `::` and a trailing dotted IPv4), or null. */
export function ipv6Groups(raw: string): number[] | null {
  let ip = raw.replace(/^\[|\]$/g, '').toLowerCase();
  if (ip.includes('%')) return null;
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (dotted) {
    const p = v4Parts(dotted[1]);
    if (!p) return null;
    ip = ip.slice(0, -dotted[1].length) + `${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s ? s.split(':') : []);
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** True when an IPv6 address is not a public unicast address (embedded IPv4 addresses are checked as IPv4). */
export function isBlockedIpv6(raw: string): boolean {
  const g = ipv6Groups(raw);
  if (!g) return true;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return true; // ::
  if (zeroUpTo(7) && g[7] === 1) return true; // ::1
  if (zeroUpTo(5) && g[5] === 0xffff) return isBlockedIpv4(v4Of(g[6], g[7])); // ::ffff:a.b.c.d (mapped)
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return true; // ::ffff:0:a.b.c.d (translated)
  if (zeroUpTo(6)) return true; // ::a.b.c.d (compatible, deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0) return isBlockedIpv4(v4Of(g[6], g[7])); // NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true; // local-use NAT64
  if (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // discard
  if (g[0] === 0x2001 && g[1] === 0) return true; // Teredo
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x2002) return isBlockedIpv4(v4Of(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local (fc00::/7), incl. fd00:ec2::254
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

export const isBlockedIp = (ip: string) => (ip.includes(':') ? isBlockedIpv6(ip) : isBlockedIpv4(ip));

/**
 * Checks a user-supplied URL for a public fetch (syntax, scheme, credentials, port, and every
 * address the host resolves to). Answers the parsed URL; refuses with 400.
 */
export async function checkPublicUrl(raw: string, field = 'url'): Promise<URL> {
  if (raw.length > 2048) throw refuse(field, 'too_long', 'is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse(field, 'invalid_url', 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(field, 'unsafe_url', 'must use http or https');
  if (url.username || url.password) throw refuse(field, 'unsafe_url', 'must not contain credentials');
  if (!ALLOWED_PORTS.has(url.port)) throw refuse(field, 'unsafe_url', 'must use the default port (or 8080, 8443)');
  const host = url.hostname.replace(/\.$/, '').toLowerCase();
  if (!host) throw refuse(field, 'unsafe_url', 'has no host');
  const literal = host.startsWith('[') || /^[\d.]+$/.test(host) || /^0x/i.test(host);
  if (literal) {
    if (isBlockedIp(host)) throw refuse(field, 'unsafe_url', 'points to a private, loopback or reserved address');
    return url;
  }
  if (INTERNAL_NAMES.test(host) || !host.includes('.') || host === 'metadata.google.internal')
    throw refuse(field, 'unsafe_url', 'points to an internal host name');
  let addresses: string[];
  try {
    addresses = await resolver.resolve(host);
  } catch {
    throw refuse(field, 'unresolvable', 'could not be resolved');
  }
  if (!addresses.length) throw refuse(field, 'unresolvable', 'has no address');
  if (addresses.some(isBlockedIp)) throw refuse(field, 'unsafe_url', 'resolves to a private, loopback or reserved address');
  return url;
}

/** Default time cap of a public fetch (the whole exchange: redirects, headers and body). Tests lower it. */
export const publicFetchLimits = { timeoutMs: 10_000 };

class TimedOut extends Error {}

/** Settles with `p`, or rejects with a TimedOut error once `signal` aborts: a stalled peer (or transport) cannot outlast the cap. */
function beforeAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new TimedOut('timed out'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TimedOut('timed out'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const accepted = (type: string, accept: string[]) => accept.some((a) => (a.endsWith('/') ? type.startsWith(a) : type === a));

/** GET of a public page or file for a user (see the rules above). */
export async function fetchPublic(raw: string, opts: PublicFetchOptions): Promise<PublicResponse> {
  const field = opts.field ?? 'url';
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const maxRedirects = Math.min(opts.maxRedirects ?? 3, 3);
  const signal = AbortSignal.timeout(opts.timeoutMs ?? publicFetchLimits.timeoutMs);
  const redirects: string[] = [];
  let url = await checkPublicUrl(raw, field);
  for (;;) {
    let res: Response;
    try {
      res = await beforeAbort(
        outbound.fetch(url.toString(), {
          method: 'GET',
          redirect: 'manual',
          signal,
          headers: { 'user-agent': 'BerthBot/1.0 (+https://berth.example/bot)', accept: opts.accept.join(', '), ...(opts.headers ?? {}) },
        }),
        signal,
      );
    } catch (err) {
      const timedOut = err instanceof TimedOut || signal.aborted || /timeout|abort/i.test(String(err));
      throw refuse(field, timedOut ? 'timeout' : 'unreachable', timedOut ? 'did not answer in time' : 'could not be fetched');
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel().catch(() => undefined);
      if (redirects.length >= maxRedirects) throw refuse(field, 'too_many_redirects', `redirects more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(res.headers.get('location')!, url);
      } catch {
        throw refuse(field, 'invalid_redirect', 'redirects to an invalid URL');
      }
      redirects.push(next.toString());
      url = await checkPublicUrl(next.toString(), field);
      continue;
    }
    if (res.status >= 400) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(field, 'upstream_error', `answered HTTP ${res.status}`);
    }
    const header = res.headers.get('content-type') ?? '';
    const contentType = header.split(';')[0].trim().toLowerCase();
    const charset = /;\s*charset="?([\w-]+)/i.exec(header)?.[1]?.toLowerCase() ?? null;
    if (!accepted(contentType, opts.accept)) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(field, 'unsupported_content_type', `answered ${contentType || 'no content type'}; expected ${opts.accept.join(', ')}`);
    }
    const declared = Number(res.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(field, 'too_large', `is larger than ${maxBytes} bytes`);
    }
    const body = await readBodyCapped(res, maxBytes, field, signal);
    return { url: url.toString(), status: res.status, contentType, charset, body, redirects };
  }
}

async function readBodyCapped(res: Response, maxBytes: number, field: string, signal: AbortSignal): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await beforeAbort(reader.read(), signal);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw refuse(field, 'too_large', `is larger than ${maxBytes} bytes`);
      chunks.push(value);
    }
  } catch (err) {
    await beforeAbort(reader.cancel(), AbortSignal.timeout(100)).catch(() => undefined);
    if (err instanceof ApiError) throw err;
    if (err instanceof TimedOut || signal.aborted) throw refuse(field, 'timeout', 'did not answer in time');
    throw refuse(field, 'unreachable', 'could not be read');
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
