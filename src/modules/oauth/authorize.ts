import { and, eq, gt } from 'drizzle-orm';
import { wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { base64Encode, sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { isProduction } from '../../env';
import { exchangeLoginCode, loginUrl } from '../../adapters/identity';
import { verifyJwt } from '../../middleware/auth';
import { oauthAuthorizations } from '../../db/schema/oauth';
import {
  effectiveManifest,
  findApp,
  getPartner,
  isPrivateSandboxOperator,
  manifestData,
  partnerSandboxAdmin,
  verifyPartnerCredentials,
  type AppRow,
} from '../partners/service';
import { isScope } from '../partners/types';
import { findUserWithCustomer, listLocalUsers } from '../users/service';
import { AUTHORIZE_TTL_MS, CODE_TTL_MS } from './types';
import { consentPage, errorPage, signInPage } from './pages';
import { recordConsent } from './installations';

type AuthorizationRow = typeof oauthAuthorizations.$inferSelect;

/** What a page flow answers: an HTML page (optionally setting the request's browser cookie) or a redirect. */
export type Outcome =
  { kind: 'page'; status: number; html: string; cookie?: { name: string; value: string } } | { kind: 'redirect'; location: string; status?: 302 | 303 };

export interface AuthorizeQuery {
  response_type?: string;
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

const page = (status: number, html: string, cookie?: { name: string; value: string }): Outcome => ({ kind: 'page', status, html, cookie });
const failPage = (status: number, title: string, message: string) => page(status, errorPage(title, message));

/** The cookie that binds a pending request to the browser that opened it. */
export const cookieName = (requestId: string) => `berth_oar_${requestId.slice(-12)}`;

/** RFC 6749 4.1.2.1 + RFC 9207: an error goes back to the client with `state` and `iss`. */
function redirectTo(uri: string, params: Record<string, string | undefined>): Outcome {
  const u = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) u.searchParams.set(k, v);
  return { kind: 'redirect', location: u.toString(), status: 302 };
}

const base64Url = (bytes: Uint8Array) => base64Encode(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

function allowedRedirects(app: AppRow): string[] {
  return [...new Set([...manifestData(app).urls.redirect, ...(app.live?.urls.redirect ?? [])])];
}

/**
 * GET /oauth/authorize: checks the client and the redirect URI first (an error there is shown,
 * never redirected: RFC 9700 4.1), then the rest (errors redirect with `state` and `iss`), records
 * the pending request bound to this browser, and shows the sign-in page.
 */
export async function startAuthorization(ctx: Ctx, issuer: string, q: AuthorizeQuery): Promise<Outcome> {
  const app = q.client_id ? await findApp(ctx, q.client_id) : undefined;
  if (!app) return failPage(400, 'Unknown app', 'client_id does not name a Berth app.');
  const registered = allowedRedirects(app);
  const redirectUri = q.redirect_uri;
  if (!redirectUri) return failPage(400, 'Invalid request', 'redirect_uri is required (and must exactly match a registered one).');
  if (!registered.includes(redirectUri)) {
    return failPage(400, 'Invalid redirect URI', 'redirect_uri does not exactly match a redirect URI registered for this app.');
  }
  const fail = (error: string, description: string) => redirectTo(redirectUri, { error, error_description: description, state: q.state, iss: issuer });
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
  if (q.code_challenge_method !== undefined && q.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
  }
  if (q.code_challenge !== undefined) {
    if (q.code_challenge_method !== 'S256') return fail('invalid_request', 'code_challenge_method=S256 is required with code_challenge');
    if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
      return fail('invalid_request', 'code_challenge must be BASE64URL(SHA-256(code_verifier)): 43 characters');
  } else if (app.clientType === 'public') {
    return fail('invalid_request', 'PKCE is required for public clients: send code_challenge and code_challenge_method=S256');
  } else if (q.code_challenge_method !== undefined) {
    return fail('invalid_request', 'code_challenge_method without code_challenge');
  }
  const offered = [...new Set([...manifestData(app).scopes, ...(app.live?.scopes ?? [])])];
  const requested = q.scope !== undefined ? [...new Set(q.scope.split(' ').filter(Boolean))] : offered;
  const bad = requested.filter((s) => !isScope(s) || !offered.includes(s));
  if (!requested.length) return fail('invalid_scope', 'scope is empty');
  if (bad.length) return fail('invalid_scope', `The app may not request: ${bad.join(', ')}`);
  const secret = randomString(40);
  const id = newId('oar');
  await ctx.db.insert(oauthAuthorizations).values({
    id,
    appId: app.id,
    redirectUri,
    scopes: requested.sort(),
    state: q.state ?? null,
    codeChallenge: q.code_challenge ?? null,
    browserHash: await sha256Hex(secret),
    status: 'pending',
    // OAuth request and code lifetimes run on real time (RFC 9700; the client's own clock).
    expiresAt: wallClock.now() + AUTHORIZE_TTL_MS,
  });
  const row = (await loadRequest(ctx, id))!;
  return page(200, await signIn(ctx, issuer, row, app), { name: cookieName(id), value: secret });
}

async function loadRequest(ctx: Ctx, id: string): Promise<AuthorizationRow | undefined> {
  return (
    ctx.db
      .select()
      .from(oauthAuthorizations)
      // The request's lifetime runs on real time (startAuthorize).
      .where(and(eq(oauthAuthorizations.id, id), gt(oauthAuthorizations.expiresAt, wallClock.now())))
      .get()
  );
}

/** The pending request of this browser: the request id and its cookie must match; expired and finished requests are refused. */
async function boundRequest(ctx: Ctx, id: string | undefined, cookie: string | undefined): Promise<{ row: AuthorizationRow; app: AppRow } | Outcome> {
  const row = id && /^oar_[0-9A-Z]{26}$/.test(id) ? await loadRequest(ctx, id) : undefined;
  if (!row) return failPage(400, 'Request expired', 'This authorization request is unknown or expired. Start again from the app.');
  if (!cookie || !timingSafeEqual(await sha256Hex(cookie), row.browserHash)) {
    return failPage(403, 'Request not from this browser', 'This authorization request was started in another browser. Start again from the app.');
  }
  if (row.status !== 'pending') return failPage(400, 'Request finished', 'This authorization request is already finished. Start again from the app.');
  const app = await findApp(ctx, row.appId);
  if (!app) return failPage(400, 'Unknown app', 'The app no longer exists.');
  return { row, app };
}

async function signIn(ctx: Ctx, issuer: string, row: AuthorizationRow, app: AppRow, error?: string): Promise<string> {
  const partner = await getPartner(ctx, app.partnerId);
  let idpUrl: string | null = null;
  if (ctx.env.IDP_DOMAIN && ctx.env.IDP_CLIENT_ID) idpUrl = `${issuer}/oauth/authorize/login/idp?request=${row.id}`;
  const devUsers = isProduction(ctx.env) ? null : (await listLocalUsers(ctx)).filter((u) => !isPrivateOperator(u.customerId));
  return signInPage({
    requestId: row.id,
    appName: manifestData(app).name,
    partnerName: partner?.company || partner?.name || 'a Berth partner',
    scopes: row.scopes,
    idpUrl,
    devUsers,
    error,
  });
}

/**
 * A private operator: a partner's or a reseller's own sandbox. Its users are not offered by the
 * development sign-in (only its owner reaches it: the partner's own sign-in lands in the partner's
 * sandbox). A test clock's operator is its creator's, who signs in as any local operator does.
 */
const isPrivateOperator = (customerId: string) => isPrivateSandboxOperator(customerId);

const bindUser = (ctx: Ctx, row: AuthorizationRow, userId: string, customerId: string, method: string) =>
  ctx.db
    .update(oauthAuthorizations)
    .set({ userId, customerId, signInMethod: method })
    .where(and(eq(oauthAuthorizations.id, row.id), eq(oauthAuthorizations.status, 'pending')));

const toConsent = (issuer: string, row: AuthorizationRow): Outcome => ({
  kind: 'redirect',
  location: `${issuer}/oauth/authorize/consent?request=${row.id}`,
  status: 303,
});

/**
 * POST /oauth/authorize/login: development sign-in as a seeded user (development and tests only),
 * or the app's own developer with the partner account (sandbox install only: the partner account's
 * own private sandbox operator, never another partner's nor Demo Marina).
 */
export async function signInForm(
  ctx: Ctx,
  issuer: string,
  cookie: string | undefined,
  input: { request?: string; method?: string; userId?: string; email?: string; password?: string },
  clientIp?: string,
): Promise<Outcome> {
  const bound = await boundRequest(ctx, input.request, cookie);
  if ('kind' in bound) return bound;
  const { row, app } = bound;
  if (input.method === 'development') {
    if (isProduction(ctx.env)) return failPage(403, 'Not available', 'Development sign-in exists only in development.');
    const who = input.userId ? await findUserWithCustomer(ctx, { id: input.userId }) : undefined;
    if (!who || isPrivateOperator(who.customer.id)) return page(400, await signIn(ctx, issuer, row, app, 'Unknown user'));
    await bindUser(ctx, row, who.user.id, who.customer.id, 'development');
    return toConsent(issuer, row);
  }
  if (input.method === 'partner') {
    let partnerId: string;
    try {
      partnerId = (await verifyPartnerCredentials(ctx, input.email ?? '', input.password ?? '', clientIp)).id;
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 500;
      if (status >= 500) throw err;
      return page(status, await signIn(ctx, issuer, row, app, err instanceof ApiError ? err.message : 'Sign-in failed'));
    }
    if (partnerId !== app.partnerId)
      return page(403, await signIn(ctx, issuer, row, app, 'Only the partner that owns this app can install it in the sandbox.'));
    // The developer's own installs land in the partner account's private sandbox (created and seeded on first use).
    let sandbox: { customerId: string; userId: string };
    try {
      sandbox = await partnerSandboxAdmin(ctx, partnerId);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'service_unavailable')
        return failPage(503, 'Sandbox being prepared', 'Your sandbox is still being prepared. Go back and sign in again in a few seconds.');
      throw err;
    }
    await bindUser(ctx, row, sandbox.userId, sandbox.customerId, 'partner');
    return toConsent(issuer, row);
  }
  return page(400, await signIn(ctx, issuer, row, app, 'Choose a way to sign in'));
}

/** GET /oauth/authorize/login/idp: to the identity provider's hosted login (PKCE), back to /oauth/authorize/callback. */
export async function startIdpLogin(ctx: Ctx, issuer: string, cookie: string | undefined, requestId: string | undefined): Promise<Outcome> {
  const bound = await boundRequest(ctx, requestId, cookie);
  if ('kind' in bound) return bound;
  const verifier = randomString(64);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  const url = loginUrl(ctx.env, { redirectUri: `${issuer}/oauth/authorize/callback`, state: bound.row.id, challenge });
  if (!url) return failPage(503, 'Sign-in unavailable', 'Sign-in at the identity provider is not configured.');
  await ctx.db.update(oauthAuthorizations).set({ idpVerifier: verifier }).where(eq(oauthAuthorizations.id, bound.row.id));
  return { kind: 'redirect', location: url, status: 302 };
}

/** GET /oauth/authorize/callback: the identity provider's answer; the signed-in user must be a Berth operator user. */
export async function idpCallback(
  ctx: Ctx,
  issuer: string,
  cookieOf: (id: string) => string | undefined,
  q: { code?: string; state?: string; error?: string },
) {
  const bound = await boundRequest(ctx, q.state, q.state ? cookieOf(q.state) : undefined);
  if ('kind' in bound) return bound;
  const { row, app } = bound;
  if (q.error || !q.code || !row.idpVerifier)
    return page(400, await signIn(ctx, issuer, row, app, `Sign-in did not complete${q.error ? ` (${q.error})` : ''}`));
  const accessToken = await exchangeLoginCode(ctx.env, { code: q.code, redirectUri: `${issuer}/oauth/authorize/callback`, verifier: row.idpVerifier });
  const payload = await verifyJwt(ctx.env, accessToken);
  const who = payload.sub ? await findUserWithCustomer(ctx, { subject: payload.sub }) : undefined;
  if (!who) return page(403, await signIn(ctx, issuer, row, app, 'This identity is not a user of a Berth operator'));
  await bindUser(ctx, row, who.user.id, who.customer.id, 'idp');
  return toConsent(issuer, row);
}

/** GET /oauth/authorize/consent: what the app asks for, for the signed-in user's operator. */
export async function showConsent(ctx: Ctx, issuer: string, cookie: string | undefined, requestId: string | undefined): Promise<Outcome> {
  const bound = await boundRequest(ctx, requestId, cookie);
  if ('kind' in bound) return bound;
  const { row, app } = bound;
  if (!row.userId) return page(200, await signIn(ctx, issuer, row, app));
  const who = await findUserWithCustomer(ctx, { id: row.userId });
  if (!who) return page(400, await signIn(ctx, issuer, row, app, 'The user no longer exists'));
  const partner = await getPartner(ctx, app.partnerId);
  const manifest = effectiveManifest(app, who.customer.isSandbox) ?? manifestData(app);
  return page(
    200,
    consentPage({
      requestId: row.id,
      appName: manifest.name,
      partnerName: partner?.company || partner?.name || 'a Berth partner',
      operatorName: who.customer.name,
      sandbox: who.customer.isSandbox,
      userName: who.user.name,
      userEmail: who.user.email,
      scopes: row.scopes,
      embedLocations: manifest.embedLocations,
      redirectHost: new URL(row.redirectUri).host || row.redirectUri,
    }),
  );
}

/**
 * POST /oauth/authorize/decision: deny redirects `access_denied`; allow checks that the user is
 * an admin, that the app may be installed on this operator (sandbox: always; live: approved, with
 * the redirect URI and scopes of the approved manifest), records the installation and grant, and
 * redirects with a single-use code (60 seconds), `state` and `iss`.
 */
export async function decide(ctx: Ctx, issuer: string, cookie: string | undefined, input: { request?: string; decision?: string }): Promise<Outcome> {
  const bound = await boundRequest(ctx, input.request, cookie);
  if ('kind' in bound) return bound;
  const { row, app } = bound;
  if (!row.userId) return page(400, await signIn(ctx, issuer, row, app, 'Sign in first'));
  const back = (params: Record<string, string>) => redirectTo(row.redirectUri, { ...params, state: row.state ?? undefined, iss: issuer });
  const finish = (status: 'completed' | 'denied') =>
    ctx.db
      .update(oauthAuthorizations)
      .set({ status })
      .where(and(eq(oauthAuthorizations.id, row.id), eq(oauthAuthorizations.status, 'pending')))
      .returning({ id: oauthAuthorizations.id })
      .get();
  if (input.decision !== 'allow') {
    await finish('denied');
    return back({ error: 'access_denied', error_description: 'The operator denied the request' });
  }
  const who = await findUserWithCustomer(ctx, { id: row.userId });
  if (!who) return failPage(400, 'Unknown user', 'The user no longer exists.');
  if (who.user.role !== 'admin' && !(who.user.permissions ?? []).includes('admin')) {
    return failPage(403, 'Admins only', `Only an admin of ${who.customer.name} can install apps.`);
  }
  const sandbox = who.customer.isSandbox;
  const manifest = effectiveManifest(app, sandbox);
  if (!manifest) return failPage(403, 'App not approved', 'This app is not approved for live operators yet; its developer can install it in the sandbox.');
  if (!manifest.urls.redirect.includes(row.redirectUri)) {
    return failPage(400, 'Invalid redirect URI', 'The redirect URI is not part of the approved app; ask its developer.');
  }
  const notApproved = row.scopes.filter((s) => !manifest.scopes.includes(s));
  if (notApproved.length) return back({ error: 'invalid_scope', error_description: `Not approved for this app: ${notApproved.join(', ')}` });
  if (!(await finish('completed'))) return failPage(400, 'Request finished', 'This authorization request is already finished.');
  const grantId = newId('grt');
  const code = `bac_${grantId.slice(4)}_${randomString(40)}`;
  await recordConsent(ctx, {
    app,
    customerId: who.customer.id,
    userId: who.user.id,
    sandbox,
    scopes: row.scopes,
    redirectUri: row.redirectUri,
    challenge: row.codeChallenge,
    // The 60-second code lifetime runs on real time (the grant object checks it on the same clock).
    code: { hash: await sha256Hex(code), expiresAt: wallClock.now() + CODE_TTL_MS, grantId },
  });
  return back({ code });
}
