import { SELF, env } from 'cloudflare:test';
import { expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { BASE, createOperator, db, post, type Operator } from '../../harness';
import { customers } from '../../../src/db/schema/accounts';

export const PLATFORM = { headers: { 'x-platform-key': env.PLATFORM_API_KEY! } };
export const bearer = (token: string) => ({ token });

export interface Partner {
  partnerId: string;
  token: string;
  email: string;
  password: string;
}

export async function registerPartner(name = 'Acme Apps'): Promise<Partner> {
  const email = `dev-${crypto.randomUUID().slice(0, 8)}@partner.test`;
  const password = 'correct horse battery staple';
  const r = await post('/partners/register', { email, password, name, company: `${name} Ltd` });
  expect(r.status, r.text).toBe(201);
  return { partnerId: r.body.partner.partnerId, token: r.body.token, email, password };
}

export const REDIRECT = 'https://app.example.test/callback';

export interface TestApp {
  appId: string;
  clientSecret: string | null;
  webhookSecret: string;
}

export async function createApp(p: Partner, extra: Record<string, unknown> = {}): Promise<TestApp> {
  const r = await post(
    '/partners/apps',
    {
      name: 'Fleet Tracker',
      scopes: ['read:bookings', 'read:customers', 'read:inventory', 'read:locations', 'read:geofence', 'write:geofence'],
      urls: { embed: 'https://app.example.test/embed', redirect: [REDIRECT] },
      embedLocations: ['asset-tracking'],
      ...extra,
    },
    bearer(p.token),
  );
  expect(r.status, r.text).toBe(201);
  return { appId: r.body.appId, clientSecret: r.body.clientSecret, webhookSecret: r.body.webhookSecret };
}

/** An operator flagged as the sandbox (apps install there without approval). */
export async function sandboxOperator(): Promise<Operator> {
  const op = await createOperator({ name: 'Sandbox Marina' });
  await db().update(customers).set({ isSandbox: true }).where(eq(customers.id, op.customerId));
  return op;
}

export async function approve(p: Partner, appId: string) {
  const s = await post(`/partners/apps/${appId}/submit`, {}, bearer(p.token));
  expect(s.status, s.text).toBe(200);
  const a = await post(`/platform/apps/${appId}/approve`, {}, PLATFORM);
  expect(a.status, a.text).toBe(200);
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export async function pkce() {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** A raw request that does not follow redirects. */
export async function raw(method: string, path: string, opts: { headers?: Record<string, string>; form?: Record<string, string>; json?: unknown } = {}) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  const res = await SELF.fetch(BASE + path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: json, location: res.headers.get('location') };
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
}

export function authorizeUrl(p: AuthorizeParams) {
  const q = new URLSearchParams({ response_type: 'code', ...p } as Record<string, string>);
  return `/oauth/authorize?${q}`;
}

/** GET /oauth/authorize: the request id and the browser cookie of the sign-in page. */
export async function openAuthorize(p: AuthorizeParams) {
  const r = await raw('GET', authorizeUrl(p));
  const request = /name="request" value="(oar_[0-9A-Z]+)"/.exec(r.text)?.[1];
  const setCookie = r.headers.get('set-cookie') ?? '';
  const cookie = /^(berth_oar_[^=]+=[^;]+)/.exec(setCookie)?.[1];
  return { res: r, request, cookie };
}

/** The whole browser side: sign in (a development user of `userId`), consent, and the redirect back with a code. */
export async function consent(p: AuthorizeParams, userId: string, decision: 'allow' | 'deny' = 'allow') {
  const { res, request, cookie } = await openAuthorize(p);
  expect(res.status, res.text).toBe(200);
  expect(request).toBeTruthy();
  const login = await raw('POST', '/oauth/authorize/login', { headers: { cookie: cookie! }, form: { request: request!, method: 'development', userId } });
  expect(login.status, login.text).toBe(303);
  const page = await raw('GET', new URL(login.location!).pathname + new URL(login.location!).search, { headers: { cookie: cookie! } });
  expect(page.status, page.text).toBe(200);
  const done = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision } });
  return { consentPage: page, redirect: done, location: done.location ? new URL(done.location) : null, request: request!, cookie: cookie! };
}

export function basic(clientId: string, secret: string) {
  return { authorization: `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}` };
}

export async function tokenCall(form: Record<string, string>, headers: Record<string, string> = {}) {
  return raw('POST', '/oauth/token', { form, headers });
}

/** Installs `app` on `op` (admin user) through the whole code flow with PKCE; answers the token response. */
export async function installAndToken(op: Operator, app: TestApp, scope?: string) {
  const { verifier, challenge } = await pkce();
  const state = crypto.randomUUID();
  const c = await consent({ client_id: app.appId, redirect_uri: REDIRECT, scope, state, code_challenge: challenge, code_challenge_method: 'S256' }, op.adminId);
  expect(c.redirect.status, c.redirect.text).toBe(302);
  const code = c.location!.searchParams.get('code')!;
  expect(code).toMatch(/^bac_/);
  const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(app.appId, app.clientSecret!));
  expect(t.status, t.text).toBe(200);
  return t.body as { access_token: string; refresh_token: string; scope: string; installation_id: string; customer_id: string; expires_in: number };
}

/**
 * Installs `app` as its own developer: the consent page's partner sign-in (`method=partner`), which
 * installs in the partner account's private sandbox; answers the token response.
 */
export async function installAsDeveloper(p: Partner, app: TestApp, scope?: string) {
  const { verifier, challenge } = await pkce();
  const { res, request, cookie } = await openAuthorize({
    client_id: app.appId,
    redirect_uri: REDIRECT,
    scope,
    state: 'dev',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  expect(res.status, res.text).toBe(200);
  const login = await raw('POST', '/oauth/authorize/login', {
    headers: { cookie: cookie! },
    form: { request: request!, method: 'partner', email: p.email, password: p.password },
  });
  expect(login.status, login.text).toBe(303);
  const page = await raw('GET', new URL(login.location!).pathname + new URL(login.location!).search, { headers: { cookie: cookie! } });
  expect(page.status, page.text).toBe(200);
  const done = await raw('POST', '/oauth/authorize/decision', { headers: { cookie: cookie! }, form: { request: request!, decision: 'allow' } });
  expect(done.status, done.text).toBe(302);
  const code = new URL(done.location!).searchParams.get('code')!;
  const t = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }, basic(app.appId, app.clientSecret!));
  expect(t.status, t.text).toBe(200);
  return { consentPage: page, token: t.body as { access_token: string; refresh_token: string; installation_id: string; customer_id: string } };
}
