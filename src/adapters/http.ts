import type { Env } from '../env';
import { isProduction } from '../env';
import { ApiError } from '../lib/errors';
import { stopwatch, wallClock } from '../lib/clock';
import { hmacSha256Hex } from '../lib/crypto';

/**
 * Every outbound HTTP request goes through here. Tests replace `outbound.fetch` to play a remote
 * service without a network.
 */
export const outbound = {
  fetch: (input: Request | string | URL, init?: RequestInit): Promise<Response> => fetch(input, init),
};

/**
 * THE outbound URL policy: every URL a user gives Berth to call (operator webhooks, partner app
 * and webhook URLs, reseller portal webhooks, coverage `baseUrl`, the fleet system's URLs, pages
 * and images the AI helpers fetch, photos of condition records) is checked here, when it is given
 * (400 naming the field) and again before every request and every redirect hop.
 *
 * Staging and production:
 * - https only, on the default port (443); no user or password in the URL;
 * - a host name, never an IP address literal (in any spelling: decimal, octal, hex or short
 *   IPv4, IPv6 with or without an embedded IPv4), and never a special-use or internal name
 *   (`localhost` and names under it, `.local`, `.internal`, `.test`, `.invalid`, `.arpa`, ...,
 *   with or without a trailing dot), nor a public name known to resolve to loopback or to embed
 *   an address (`localtest.me`, `lvh.me`, `nip.io`, `sslip.io`, ...);
 * - the name is resolved (DNS over HTTPS) and refused when it does not resolve or when any of
 *   its addresses is not a public unicast address (loopback, private, carrier-grade NAT,
 *   link-local, multicast, benchmarking 198.18.0.0/15, documentation, reserved; IPv6 ULA,
 *   link-local, site-local, multicast, Teredo, and mapped, compatible, NAT64 and 6to4 forms of a
 *   refused IPv4 address).
 *
 * Development and tests: http is allowed as well, and a public IP literal; ports 80, 443, 8080 and
 * 8443. Names are not resolved there (a local machine may have no resolver to ask, and tests play
 * their remote services by name), except for pages fetched for a user (`fetchPublic`), which are
 * resolved everywhere: the shape checks above are what stands in development.
 * Loopback (`localhost`, 127.0.0.0/8, `[::1]`, on any port) is allowed only where the call
 * site says the URL is an operator's own explicit local URL (`localInDevelopment`: its webhooks,
 * its fleet system); never for a URL a self-registered partner gives (app URLs and webhooks,
 * reseller portal webhooks, coverage `baseUrl`) nor for a page fetched for a user, unless the
 * machine's owner turns on DEV_PARTNER_LOOPBACK (development only, off by default) for the partner
 * CLI's local loops (a local webhook receiver, `berth coverage dev`).
 *
 * What a caller sees of a refused or unreachable URL at delivery time is one generic outcome
 * (NOT_DELIVERED): no status, no reason, so a URL cannot be used to probe what answers where.
 * On Cloudflare, Workers' subrequests reach only the public internet; these checks are the
 * defence for the other runtimes (wrangler dev) and against names that point inside.
 */
export interface UrlPolicy {
  /** Field named in a 400 (default `url`). */
  field?: string;
  /** Where the field is (default `body`). */
  location?: string;
  /**
   * Development and tests only: the URL may point at this machine (loopback, any port, http): an
   * operator's own explicit local URL. Never for URLs self-registered partners give.
   */
  localInDevelopment?: boolean;
  /** Resolve the host name and check its addresses (default: only where deployed; `fetchPublic` always). */
  resolve?: boolean;
}

/** The one outcome a caller is told when an outbound request was refused by the policy or could not be made. */
export const NOT_DELIVERED = 'not delivered: the URL was refused or could not be reached';

/** The URL policy refused a URL: an ApiError 400 `validation_failed` naming the field; `reason` is why, without the field's name. */
export class UrlRefused extends ApiError {
  constructor(
    readonly field: string,
    readonly reason: string,
    code: string,
    location: string,
  ) {
    super('validation_failed', `Invalid request: ${field} ${reason}`, { details: [{ field, location, code, message: `${field} ${reason}` }] });
  }
}

const refuse = (policy: UrlPolicy, code: string, reason: string) => new UrlRefused(policy.field ?? 'url', reason, code, policy.location ?? 'body');

/** True when the URL policy refused this error's URL (at check time or at a redirect). */
export const isUrlRefused = (err: unknown): err is UrlRefused => err instanceof UrlRefused;

const deployed = (env: Env) => isProduction(env);
const DEV_PORTS = new Set(['', '80', '443', '8080', '8443']);

/** Special-use and internal names (RFC 6761, 6762, 7686, 8375, 9476 and common private suffixes). */
const INTERNAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|private|localdomain|home\.arpa|arpa|onion|alt)$/i;
/** Names that never resolve on the internet (RFC 6761): refused where deployed; development and tests use them as fixtures. */
const RESERVED_NAMES = /(^|\.)(test|example|invalid)$/i;
/** Public names known to resolve to loopback or to any address written in the name (wildcard DNS services, rebinding services). */
const LOOPBACK_NAMES =
  /(^|\.)(localtest\.me|lvh\.me|vcap\.me|lacolhost\.com|localhost\.direct|local\.gd|nip\.io|sslip\.io|xip\.io|traefik\.me|1u\.ms|rbndr\.us|nip\.direct)$/i;

/** A host spelled like an IPv4 address in any form inet_aton accepts (decimal, octal, hex, 1 to 4 parts): its dotted form, or null. */
export function looseIpv4(host: string): string | null {
  const parts = host.replace(/\.$/, '').split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p, 8);
    else if (/^(0|[1-9]\d*)$/.test(p)) n = Number(p);
    else return null;
    if (!Number.isFinite(n)) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  let value = last;
  nums.forEach((n, i) => (value += n * 256 ** (3 - i)));
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

const isLoopbackIp = (ip: string): boolean => {
  if (ip.includes(':')) {
    const g = ipv6Groups(ip);
    if (!g) return false;
    if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
    return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && g[6] >> 8 === 127;
  }
  return ip.startsWith('127.');
};

interface Shape {
  url: URL;
  /** The host without brackets or a trailing dot, lower case. */
  host: string;
  /** The host's address when it is an IP literal. */
  ip: string | null;
  /** A loopback URL allowed by `localInDevelopment` (no resolution needed). */
  local: boolean;
}

/** DEV_PARTNER_LOOPBACK (see above): the machine's owner lets partners' URLs point at it under `wrangler dev`; never pages fetched for a user. */
const ownerAllowsLoopback = (env: Env, policy: UrlPolicy) => env.ENVIRONMENT === 'development' && env.DEV_PARTNER_LOOPBACK === 'on' && policy.resolve !== true;

function shapeOf(env: Env, raw: string, policy: UrlPolicy): Shape {
  if (typeof raw !== 'string' || !raw.trim()) throw refuse(policy, 'invalid_url', 'must be an absolute https URL');
  if (raw.length > 2048) throw refuse(policy, 'too_long', 'is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse(policy, 'invalid_url', 'must be an absolute https URL');
  }
  const prod = deployed(env);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !prod)) throw refuse(policy, 'unsafe_url', 'must use https');
  if (url.username || url.password) throw refuse(policy, 'unsafe_url', 'must not contain a user name or password');
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
  if (!host) throw refuse(policy, 'unsafe_url', 'has no host');
  const ip = host.includes(':') ? host : looseIpv4(host);
  const loopbackName = host === 'localhost' || host.endsWith('.localhost');
  const loopbackAllowed = !prod && (!!policy.localInDevelopment || ownerAllowsLoopback(env, policy));
  const local = loopbackAllowed && (loopbackName || (ip !== null && isLoopbackIp(ip)));
  if (!local) {
    if (prod ? url.port !== '' : !DEV_PORTS.has(url.port))
      throw refuse(policy, 'unsafe_url', prod ? 'must use the default https port' : 'must use port 80, 443, 8080 or 8443');
    if (ip !== null) {
      if (prod) throw refuse(policy, 'unsafe_url', 'must name a host, not an IP address');
      if (isBlockedIp(ip)) throw refuse(policy, 'unsafe_url', 'points to a private, loopback or reserved address');
    } else {
      if (loopbackName || INTERNAL_NAMES.test(host) || !host.includes('.')) throw refuse(policy, 'unsafe_url', 'points to an internal host name');
      if (LOOPBACK_NAMES.test(host)) throw refuse(policy, 'unsafe_url', 'points to a name that resolves to a private or loopback address');
      if (prod && RESERVED_NAMES.test(host)) throw refuse(policy, 'unsafe_url', 'points to a reserved name that does not resolve');
    }
  }
  return { url, host, ip, local };
}

/**
 * A loopback URL (any port, http or https) that the machine's owner lets partners give under `wrangler dev`
 * (DEV_PARTNER_LOOPBACK="on", development only): a partner's local server, such as `npm run underwriter`.
 */
export function isOwnerLoopbackUrl(env: Env, raw: string): boolean {
  if (!ownerAllowsLoopback(env, {})) return false;
  try {
    return shapeOf(env, raw, {}).local;
  } catch {
    return false;
  }
}

/**
 * The checks that need no network (scheme, credentials, port, literal addresses, special-use
 * names): for URLs Berth never fetches itself (an app's embed page, loaded by the browser) and as
 * the first step of `checkOutboundUrl`. Answers the parsed URL; refuses with 400.
 */
export function checkUrlShape(env: Env, raw: string, policy: UrlPolicy = {}): URL {
  return shapeOf(env, raw, policy).url;
}

/**
 * The whole policy (see above): the shape, then every address the host name resolves to. Answers
 * the parsed URL; refuses with 400 `validation_failed` naming the field (a UrlRefused).
 */
export async function checkOutboundUrl(env: Env, raw: string, policy: UrlPolicy = {}): Promise<URL> {
  const { url, host, ip, local } = shapeOf(env, raw, policy);
  if (local || ip !== null || !(policy.resolve ?? deployed(env))) return url;
  let addresses: string[];
  try {
    addresses = await resolver.resolve(host);
  } catch {
    throw refuse(policy, 'unresolvable', 'could not be resolved');
  }
  if (!addresses.length) throw refuse(policy, 'unresolvable', 'has no address');
  const allowLoopback = !deployed(env) && (!!policy.localInDevelopment || ownerAllowsLoopback(env, policy));
  if (addresses.some((a) => isBlockedIp(a) && !(allowLoopback && isLoopbackIp(a))))
    throw refuse(policy, 'unsafe_url', 'resolves to a private, loopback or reserved address');
  return url;
}

type Transport = (input: string, init: RequestInit) => Promise<Response>;

/**
 * A request to a user-supplied URL under the policy, with a timeout. The URL is checked (and
 * resolved) first; redirects are never followed (a 3xx is answered as is: the caller treats it
 * as not delivered). `transport` replaces the network for hosts served in-process (the offline
 * reference underwriter): such a host never reaches the network, so only the timeout applies.
 * Throws a UrlRefused for a refused URL, and the fetch's error when it could not be made.
 */
export async function safeFetch(
  env: Env,
  raw: string,
  init: RequestInit & { timeoutMs?: number; transport?: Transport; policy?: UrlPolicy } = {},
): Promise<Response> {
  const { timeoutMs = 10_000, transport, policy = {}, ...rest } = init;
  const url = transport ? new URL(raw) : await checkOutboundUrl(env, raw, policy);
  return await (transport ?? outbound.fetch)(url.toString(), { ...rest, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
}

/**
 * A delivery to a user-supplied URL (webhooks and their tests): answers `delivered` and, only when
 * the target answered, its status; a refused URL, a network error and a timeout all answer the one
 * NOT_DELIVERED outcome, whatever happened (no status or reason to probe with).
 */
export async function deliver(
  env: Env,
  raw: string,
  init: RequestInit & { timeoutMs?: number; policy?: UrlPolicy },
): Promise<{ delivered: boolean; statusCode: number | null; error: string | null }> {
  let res: Response;
  try {
    res = await safeFetch(env, raw, init);
  } catch {
    return { delivered: false, statusCode: null, error: NOT_DELIVERED };
  }
  await res.body?.cancel().catch(() => undefined);
  return res.ok ? { delivered: true, statusCode: res.status, error: null } : { delivered: false, statusCode: res.status, error: `HTTP ${res.status}` };
}

/**
 * One signed event delivery (operator and reseller webhooks, apps' events and their test events):
 * `X-Service-Signature` is the hex HMAC-SHA256 of `{timestamp}.{body}` with the endpoint's secret,
 * the timestamp real time (the receiver checks it against its own clock). Through `deliver`: a
 * refused or unreachable URL answers the one NOT_DELIVERED outcome and no duration.
 */
export async function deliverSigned(
  env: Env,
  q: { url: string; secret: string; eventId: string; eventType: string; deliveryId: string; body: string; policy: UrlPolicy },
): Promise<{ statusCode: number | null; error: string | null; durationMs: number }> {
  const timestamp = Math.floor(wallClock.now() / 1000).toString();
  const signature = await hmacSha256Hex(q.secret, `${timestamp}.${q.body}`);
  const elapsed = stopwatch();
  const { statusCode, error } = await deliver(env, q.url, {
    policy: q.policy,
    method: 'POST',
    timeoutMs: 10_000,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Berth-Webhooks/1.0',
      'X-Service-Signature': signature,
      'X-Service-Timestamp': timestamp,
      'X-Service-Event-Id': q.eventId,
      'X-Service-Event-Type': q.eventType,
      'X-Service-Delivery-Id': q.deliveryId,
    },
    body: q.body,
  });
  return { statusCode, error, durationMs: statusCode === null ? 0 : elapsed() };
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
// licence images by URL; photos of condition records): the URL policy above at every hop
// (redirects are followed by hand, at most 3, each target checked the same way), an accepted
// content type, a size cap read as a stream, and a time cap of the whole exchange. Every refusal
// is a 400 naming the field.
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

const DOH_URL = 'https://cloudflare-dns.com/dns-query';

/** Answers of the DNS-over-HTTPS resolver kept for a minute per isolate (deliveries to one URL resolve it once). */
const resolved = new Map<string, { addresses: string[]; until: number }>();
const RESOLVED_TTL_MS = 60_000;

/** DNS resolution of the hosts of user-supplied URLs: DNS over HTTPS by default; tests replace it. Answers A and AAAA addresses. */
export const resolver = {
  resolve: async (hostname: string): Promise<string[]> => {
    // Real time: a cache's lifetime, not a business time.
    const now = wallClock.now();
    const hit = resolved.get(hostname);
    if (hit && hit.until > now) return hit.addresses;
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
    if (resolved.size > 500) resolved.clear();
    resolved.set(hostname, { addresses: out, until: now + RESOLVED_TTL_MS });
    return out;
  },
};

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
  if (g[0] === 0x2001 && g[1] < 0x200) return true; // IETF protocol assignments (2001::/23): Teredo, benchmarking, ORCHID
  if (g[0] === 0x2001 && g[1] === 0xdb8) return true; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return true; // documentation (3fff::/20)
  if (g[0] === 0x2002) return isBlockedIpv4(v4Of(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local (fc00::/7), incl. fd00:ec2::254
  if ((g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  return false;
}

export const isBlockedIp = (ip: string) => (ip.includes(':') ? isBlockedIpv6(ip) : isBlockedIpv4(ip));

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
export async function fetchPublic(env: Env, raw: string, opts: PublicFetchOptions): Promise<PublicResponse> {
  const field = opts.field ?? 'url';
  const policy: UrlPolicy = { field, resolve: true };
  const maxBytes = opts.maxBytes ?? 2 * 1024 * 1024;
  const maxRedirects = Math.min(opts.maxRedirects ?? 3, 3);
  const signal = AbortSignal.timeout(opts.timeoutMs ?? publicFetchLimits.timeoutMs);
  const redirects: string[] = [];
  let url = await checkOutboundUrl(env, raw, policy);
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
      throw refuse(policy, timedOut ? 'timeout' : 'unreachable', timedOut ? 'did not answer in time' : 'could not be fetched');
    }
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      await res.body?.cancel().catch(() => undefined);
      if (redirects.length >= maxRedirects) throw refuse(policy, 'too_many_redirects', `redirects more than ${maxRedirects} times`);
      let next: URL;
      try {
        next = new URL(res.headers.get('location')!, url);
      } catch {
        throw refuse(policy, 'invalid_redirect', 'redirects to an invalid URL');
      }
      redirects.push(next.toString());
      url = await checkOutboundUrl(env, next.toString(), policy);
      continue;
    }
    if (res.status >= 400) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(policy, 'upstream_error', `answered HTTP ${res.status}`);
    }
    const header = res.headers.get('content-type') ?? '';
    const contentType = header.split(';')[0].trim().toLowerCase();
    const charset = /;\s*charset="?([\w-]+)/i.exec(header)?.[1]?.toLowerCase() ?? null;
    if (!accepted(contentType, opts.accept)) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(policy, 'unsupported_content_type', `answered ${contentType || 'no content type'}; expected ${opts.accept.join(', ')}`);
    }
    const declared = Number(res.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw refuse(policy, 'too_large', `is larger than ${maxBytes} bytes`);
    }
    const body = await readBodyCapped(res, maxBytes, policy, signal);
    return { url: url.toString(), status: res.status, contentType, charset, body, redirects };
  }
}

async function readBodyCapped(res: Response, maxBytes: number, policy: UrlPolicy, signal: AbortSignal): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await beforeAbort(reader.read(), signal);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw refuse(policy, 'too_large', `is larger than ${maxBytes} bytes`);
      chunks.push(value);
    }
  } catch (err) {
    await beforeAbort(reader.cancel(), AbortSignal.timeout(100)).catch(() => undefined);
    if (err instanceof ApiError) throw err;
    if (err instanceof TimedOut || signal.aborted) throw refuse(policy, 'timeout', 'did not answer in time');
    throw refuse(policy, 'unreachable', 'could not be read');
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
