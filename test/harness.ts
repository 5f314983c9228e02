import { SELF, env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { getDb } from '../src/db/client';
import { customers, users, apiKeys } from '../src/db/schema/accounts';
import { locations } from '../src/db/schema/locations';
import { testClocks } from '../src/db/schema/sandbox';
import { TEST_CLOCK_OPERATOR_PREFIX } from '../src/lib/clock';
import { keyRow, generateKeySecret } from '../src/modules/api-keys/service';
import { newId } from '../src/lib/ids';
import { modules } from '../src/modules';
import { moduleHooks } from '../src/lib/module';
import { jobsFor, runJobs } from '../src/jobs/cron';

/** The hooks of every module, for service calls made directly from a test. */
export const appHooks = moduleHooks(modules);

/** Runs the cron jobs of one schedule as the Worker's `scheduled` handler does. */
export const runCron = (cron: string, now: Date = new Date()) => runJobs(modules, appHooks, cron, env, now);

/** The names of the jobs a schedule runs. */
export const cronJobNames = (cron: string) => jobsFor(modules, cron).map((j) => j.name);

export const BASE = 'http://berth.test';
export const db = () => getDb(env.DB);

export interface Caller {
  key?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** One HTTP call through the Worker's fetch handler. */
let clientSeq = 0;
/**
 * The client address of a request that names none: a new one each time (IPv6 documentation range).
 * The test runtime trusts `cf-connecting-ip` as Cloudflare's edge sets it (lib/ip-limit.ts), and
 * files share runtimes: without this, every request of every file would count against one per-IP
 * limit. A test of a per-IP limit names its address.
 */
const freshClientIp = () => `2001:db8::${(++clientSeq).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

export async function api<T = any>(method: string, path: string, opts: Caller & { body?: unknown; rawBody?: BodyInit } = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'cf-connecting-ip')) headers['cf-connecting-ip'] = freshClientIp();
  if (opts.key) headers['x-api-key'] = opts.key;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await SELF.fetch(BASE + path, { method, headers, body });
  const text = res.headers.get('content-type')?.includes('json') || res.headers.get('content-type')?.startsWith('text') ? await res.text() : '';
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!text && !res.bodyUsed) parsed = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, body: parsed, headers: res.headers, text };
}

export const get = <T = any>(path: string, c: Caller = {}) => api<T>('GET', path, c);
export const post = <T = any>(path: string, body: unknown, c: Caller = {}) => api<T>('POST', path, { ...c, body });
export const patch = <T = any>(path: string, body: unknown, c: Caller = {}) => api<T>('PATCH', path, { ...c, body });
export const put = <T = any>(path: string, body: unknown, c: Caller = {}) => api<T>('PUT', path, { ...c, body });
export const del = <T = any>(path: string, body: unknown = undefined, c: Caller = {}) => api<T>('DELETE', path, { ...c, body });

export function expectError(r: ApiResult, status: number, code?: string) {
  expect(r.status, `expected ${status}, got ${r.status}: ${r.text}`).toBe(status);
  expect(typeof r.body?.error).toBe('string');
  expect(typeof r.body?.message).toBe('string');
  expect(typeof r.body?.requestId).toBe('string');
  if (code) expect(r.body.error).toBe(code);
}

export interface Operator {
  customerId: string;
  adminId: string;
  adminKey: string;
  locationId: string;
  timezone: string;
  /** The test clock pinning this operator's time (`createOperator({ clockAt })`). */
  clockId?: string;
  /** Makes another user of this operator with its own API key. */
  addUser(opts?: {
    role?: 'admin' | 'manager' | 'staff';
    permissions?: string[];
    skills?: string[];
    email?: string;
  }): Promise<{ userId: string; key: string; email: string }>;
}

/** A fresh operator with an admin user, an API key and one location. Tests never depend on seeded ids. */
export async function createOperator(
  opts: {
    plan?: 'standard' | 'enterprise';
    name?: string;
    timezone?: string;
    /**
     * Pins the operator's "now": the operator is a sandbox operator on a test clock frozen at this
     * instant (every request it makes, and every job run for it, reads this time; move it with
     * `advanceClock`). Jobs run with `runCron` on the wall clock leave such an operator out.
     */
    clockAt?: Date | string | number;
    /** A sandbox operator (on the wall clock unless `clockAt` is given). */
    sandbox?: boolean;
  } = {},
): Promise<Operator> {
  const d = db();
  const clocked = opts.clockAt !== undefined;
  const customerId = clocked ? newId(TEST_CLOCK_OPERATOR_PREFIX.slice(0, -1)) : newId('cus');
  const clockId = clocked ? newId('clk') : undefined;
  const adminId = newId('usr');
  const locationId = newId('loc');
  const timezone = opts.timezone ?? 'America/New_York';
  const adminKey = generateKeySecret();
  const tag = customerId.slice(-8).toLowerCase();
  await d.batch([
    d.insert(customers).values({
      id: customerId,
      name: opts.name ?? `Operator ${tag}`,
      email: `owner-${tag}@example.test`,
      plan: opts.plan ?? 'enterprise',
      isSandbox: clocked || !!opts.sandbox,
    }),
    d.insert(users).values({
      id: adminId,
      customerId,
      email: `admin-${tag}@example.test`,
      name: 'Test Admin',
      role: 'admin',
      permissions: ['admin'],
      idpSubject: `test|${adminId}`,
    }),
    d.insert(locations).values({ id: locationId, customerId, name: 'Main dock', address: '1 Harbour Way', phoneNumber: '+15555550100', timezone }),
    d.insert(apiKeys).values(await keyRow({ customerId, userId: adminId, name: 'test', secret: adminKey })),
    ...(clockId
      ? [
          d.insert(testClocks).values({
            id: clockId,
            customerId,
            operatorId: customerId,
            name: 'test',
            frozenTime: new Date(opts.clockAt!).toISOString(),
          }),
        ]
      : []),
  ]);
  let n = 0;
  return {
    customerId,
    clockId,
    adminId,
    adminKey,
    locationId,
    timezone,
    async addUser(u = {}) {
      const userId = newId('usr');
      const key = generateKeySecret();
      const email = u.email ?? `user${++n}-${tag}-${userId.slice(-6).toLowerCase()}@example.test`;
      await d.batch([
        d.insert(users).values({
          id: userId,
          customerId,
          email,
          name: 'Test User',
          role: u.role ?? 'staff',
          permissions: u.permissions ?? [],
          userSkills: u.skills ?? [],
          idpSubject: `test|${userId}`,
        }),
        d.insert(apiKeys).values(await keyRow({ customerId, userId, name: 'test', secret: key })),
      ]);
      return { userId, key, email };
    },
  };
}

/** A token as the development identity provider would issue it (HS256 with the test secret). */
export async function signToken(
  claims: { sub: string; email?: string; name?: string },
  opts: { expiresIn?: string; issuer?: string; audience?: string; secret?: string; alg?: string } = {},
) {
  return new SignJWT({ email: claims.email, name: claims.name })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(opts.issuer ?? env.JWT_ISSUER)
    .setAudience(opts.audience ?? env.JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '1h')
    .sign(new TextEncoder().encode(opts.secret ?? env.JWT_SECRET));
}

/** Polls until `fn` returns a truthy value (for queue-driven effects). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, stepMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met within ${timeoutMs}ms${last ? `: ${String(last)}` : ''}`);
}

/**
 * Advances a test clock through the API (`POST /sandbox/test-clocks/{id}/advance`) and waits until it
 * is ready (or failed): scheduled work of the clock's operator due in between has run. `key` is an
 * admin key of the clock's operator or of the operator that created it.
 */
export async function advanceClock(clockId: string, to: Date | string | number, key: string, timeoutMs = 60_000): Promise<any> {
  const r = await post(`/sandbox/test-clocks/${clockId}/advance`, { frozenTime: new Date(to).toISOString() }, { key });
  expect(r.status, r.text).toBe(200);
  return eventually(
    async () => {
      const c = await get(`/sandbox/test-clocks/${clockId}`, { key });
      return c.body?.status !== 'advancing' ? c.body : undefined;
    },
    timeoutMs,
    100,
  );
}
