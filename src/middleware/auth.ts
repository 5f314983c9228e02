import type { Context } from 'hono';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { eq } from 'drizzle-orm';
import { ANONYMOUS, isAdmin, isPlatformStaff, type AppEnv, type Authenticator, type Principal } from '../lib/context';
import { ApiError } from '../lib/errors';
import { nowIso, wallClock } from '../lib/clock';
import { base64UrlDecodeString, sha256Hex, timingSafeEqual } from '../lib/crypto';
import { getDb } from '../db/client';
import { apiKeyBucket, permissionsOfRole, principalCustomer, principalUser } from '../lib/credentials';
import { apiKeys, customers, users } from '../db/schema/accounts';
import { isProduction, type Env } from '../env';
import type { AuthScheme } from '../lib/openapi';
import { afterResponse, markAuthenticated } from '../lib/round-trips';
import type { RateCount } from '../lib/rate-limiter-protocol';
import { applyRateLimit, countRequest, lookupAndCount } from './rate-limit';

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

const unauthenticated = (message: string) => new ApiError('unauthenticated', message);

/** Structural checks before jose: three parts and an allowed `alg` (refuses `none` and algorithm confusion early). */
function preflight(token: string, algorithms: string[]): void {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[2]) throw unauthenticated('Invalid bearer token: not a signed JWT');
  let header: { alg?: unknown };
  try {
    header = JSON.parse(base64UrlDecodeString(parts[0]));
  } catch {
    throw unauthenticated('Invalid bearer token: unreadable header');
  }
  if (typeof header.alg !== 'string' || !algorithms.includes(header.alg))
    throw unauthenticated(`Invalid bearer token: algorithm ${String(header.alg)} is not accepted`);
}

/**
 * The longest life a bearer token may have: `exp` is required, at most this far after `iat` (or
 * after now, for a token without `iat`). A token that never expires, or lives longer, is refused.
 */
export const MAX_TOKEN_LIFETIME_S = 24 * 3600;
/** Clock skew accepted between the identity provider and the Worker. */
const CLOCK_TOLERANCE_S = 5;

/** `exp` present and within MAX_TOKEN_LIFETIME_S of its issue (real time: the provider checks its tokens against its own clock). */
function checkLifetime(payload: JWTPayload, nowS: number): void {
  if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) throw unauthenticated('Invalid bearer token: it has no expiry (exp)');
  const from = typeof payload.iat === 'number' && Number.isFinite(payload.iat) ? Math.min(payload.iat, nowS) : nowS;
  if (payload.exp - from > MAX_TOKEN_LIFETIME_S + CLOCK_TOLERANCE_S)
    throw unauthenticated(`Invalid bearer token: it lives longer than the ${MAX_TOKEN_LIFETIME_S / 3600} hours allowed`);
}

export async function verifyJwt(env: Env, token: string): Promise<JWTPayload> {
  const asymmetric = ['RS256', 'ES256'];
  if (env.JWKS_URL) preflight(token, asymmetric);
  else if (env.JWT_SECRET && !isProduction(env)) preflight(token, ['HS256']);
  // Real time: token lifetimes are checked against real time, never an operator's sandbox clock.
  const now = wallClock.now();
  const common = {
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    clockTolerance: CLOCK_TOLERANCE_S,
    requiredClaims: ['exp'],
    currentDate: new Date(now),
  };
  let payload: JWTPayload | undefined;
  try {
    if (env.JWKS_URL) {
      let jwks = jwksCache.get(env.JWKS_URL);
      if (!jwks) {
        jwks = createRemoteJWKSet(new URL(env.JWKS_URL), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
        jwksCache.set(env.JWKS_URL, jwks);
      }
      // Asymmetric only: a token signed with HS256 using the public key as secret is refused.
      payload = (await jwtVerify(token, jwks, { ...common, algorithms: asymmetric })).payload;
    } else if (env.JWT_SECRET && !isProduction(env)) {
      const key = new TextEncoder().encode(env.JWT_SECRET);
      payload = (await jwtVerify(token, key, { ...common, algorithms: ['HS256'] })).payload;
    }
  } catch (err) {
    throw unauthenticated(`Invalid bearer token: ${(err as Error).message}`);
  }
  if (!payload) throw unauthenticated('Bearer tokens are not accepted: no identity provider is configured');
  checkLifetime(payload, Math.floor(now / 1000));
  return payload;
}

type UserRow = { [K in keyof typeof principalUser]: (typeof users.$inferSelect)[K] };
type CustomerRow = { plan: (typeof customers.$inferSelect)['plan'] };

function principalOf(kind: Principal['kind'], credentialId: string, user: UserRow, customer: CustomerRow | null): Principal {
  return {
    kind,
    credentialId,
    userId: user.id,
    customerId: user.customerId,
    role: user.role,
    // One model: the `admin` permission is the admin role (a row written before roles and permissions moved together included).
    permissions: permissionsOfRole(user.role, user.permissions ?? []),
    plan: customer?.plan ?? 'standard',
    email: user.email,
    name: user.name,
    subject: user.idpSubject ?? user.id,
  };
}

/** Work after the response (through waitUntil) for the request of `c`. */
function later(c: Context<AppEnv>, fn: () => Promise<unknown>) {
  afterResponse(
    {
      env: c.env,
      log: c.get('log'),
      waitUntil: (p) => {
        try {
          c.executionCtx.waitUntil(p);
        } catch {
          void p;
        }
      },
    },
    fn,
  );
}

/**
 * An API key: ONE call to the key's rate-limiter object, which counts the request and answers the
 * key's row, held in its memory (read from D1 when it holds none). Every change to a key, its user
 * or its operator's plan tells the object to forget the row once written (src/lib/credentials.ts),
 * so a rotated or revoked key is refused by the very next request.
 */
async function fromApiKey(c: Context<AppEnv>, key: string): Promise<{ principal: Principal; count: RateCount }> {
  if (key.length < 16 || key.length > 200) throw unauthenticated('Invalid API key');
  const hash = await sha256Hex(key);
  const { count, row, touch } = await c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(apiKeyBucket(hash))).authenticate(hash, 60_000);
  if (!row || !timingSafeEqual(row.key.keyHash, hash) || row.user.customerId !== row.key.customerId) throw unauthenticated('Invalid API key');
  if (touch) {
    const db = getDb(c.env.DB);
    // After the response: by then the request runs on its operator's clock (bound after authentication).
    later(c, () =>
      db
        .update(apiKeys)
        .set({ lastUsedAt: nowIso({ clock: c.get('clock') ?? wallClock }) })
        .where(eq(apiKeys.id, row.key.id))
        .run(),
    );
  }
  return { principal: principalOf('api_key', `key:${row.key.id}`, row.user, row.customer), count };
}

/** Berth's platform staff: a role apart from operators (no customer), by the platform key or the identity provider's role claim. */
const PLATFORM_ROLE = 'platform_staff';
const platformPrincipal = (credentialId: string, subject?: string, email?: string): Principal => ({
  kind: 'platform',
  credentialId,
  userId: null,
  customerId: null,
  role: null,
  permissions: ['platform'],
  plan: 'enterprise',
  subject,
  email,
});

/** The platform key (a secret compared locally): no lookup, only its rate count. */
async function fromPlatformKey(c: Context<AppEnv>, key: string): Promise<{ principal: Principal; count: RateCount }> {
  const expected = c.env.PLATFORM_API_KEY;
  if (!expected || !timingSafeEqual(await sha256Hex(key), await sha256Hex(expected))) throw unauthenticated('Invalid platform key');
  return { principal: platformPrincipal('platform:key'), count: await countRequest(c, 'platform:key') };
}

/** A bearer JWT: verified locally (JWKS cached), then the user is read in parallel with the identity's rate count. */
async function fromJwt(c: Context<AppEnv>, token: string): Promise<{ principal: Principal; count: RateCount }> {
  const payload = await verifyJwt(c.env, token);
  const sub = payload.sub;
  if (!sub) throw unauthenticated('Bearer token has no subject');
  const roles = (payload as { roles?: unknown }).roles;
  if (Array.isArray(roles) && roles.includes(PLATFORM_ROLE)) {
    const principal = platformPrincipal(`platform:${sub}`, sub, typeof payload.email === 'string' ? payload.email : undefined);
    return { principal, count: await countRequest(c, principal.credentialId) };
  }
  const db = getDb(c.env.DB);
  const lookup = db
    .select({ user: principalUser, customer: principalCustomer })
    .from(users)
    .leftJoin(customers, eq(customers.id, users.customerId))
    .where(eq(users.idpSubject, sub))
    .get();
  const [row, count] = await lookupAndCount(c, `sub:${await sha256Hex(`${payload.iss ?? ''}|${sub}`)}`, lookup);
  if (row) return { principal: principalOf('user', `user:${row.user.id}`, row.user, row.customer), count };
  // A signed-in identity without a Berth user yet: it may create its operator account (POST /customer).
  const principal: Principal = {
    kind: 'user',
    credentialId: `sub:${sub}`,
    userId: null,
    customerId: null,
    role: null,
    permissions: [],
    plan: 'standard',
    subject: sub,
    email: typeof payload.email === 'string' ? payload.email : undefined,
    name: typeof payload.name === 'string' ? payload.name : undefined,
  };
  return { principal, count };
}

/**
 * The operator authenticator the app hands to every operator, admin and public route (see
 * `route()` in lib/openapi): reads credentials when present (`x-api-key` or `Authorization:
 * Bearer <JWT>`), refuses invalid ones with 401, refuses anonymous callers of operator routes
 * with 401 and non-admins of admin routes with 403, and counts the request against the
 * credential's per-minute limit. Routes with their own scheme (channel keys, portal tokens, OAuth
 * tokens) declare it on the route instead; an unknown path never reaches this and answers 404.
 * One round trip: the credential lookup and its rate count run in parallel.
 */
export const authenticateOperator: Authenticator = async (c, access) => {
  const apiKey = c.req.header('x-api-key');
  const authz = c.req.header('authorization');
  let found: { principal: Principal; count: RateCount } | undefined;
  const platformKey = c.req.header('x-platform-key');
  if (platformKey) found = await fromPlatformKey(c, platformKey.trim());
  else if (apiKey) found = await fromApiKey(c, apiKey.trim());
  else if (authz) {
    const m = /^Bearer\s+(.+)$/i.exec(authz.trim());
    if (!m) throw unauthenticated('Authorization header must be "Bearer <token>"');
    found = await fromJwt(c, m[1]);
  }
  const principal = found?.principal ?? ANONYMOUS;
  c.set('principal', principal);
  markAuthenticated(c.env);
  if (!found) {
    if (access === 'operator' || access === 'admin') throw unauthenticated('Authentication required: send x-api-key or Authorization: Bearer <token>');
    return {};
  }
  const headers = applyRateLimit(found.count, principal.plan === 'enterprise' ? 500 : 100);
  // Berth's staff belong to no operator: operator and admin routes answer them 403 `no_account` (as /docs says).
  if ((access === 'operator' || access === 'admin') && isPlatformStaff(principal))
    throw new ApiError('no_account', "Berth's platform staff have no operator account: this operation is for an operator's credentials", { headers });
  if (access === 'admin' && !isAdmin(principal)) throw new ApiError('forbidden', 'This operation needs admin permission', { headers });
  return headers;
};

/**
 * Reads the request's credentials through the app's authenticator as a public route does (so the
 * operator-route refusal of platform staff does not apply), then requires some: 401 without.
 * Answers the rate-limit headers.
 */
async function anyCredentials(c: Context<AppEnv>): Promise<Record<string, string>> {
  const headers = await c.get('authenticate')(c, 'public');
  if (c.get('principal').kind === 'anonymous') throw unauthenticated('Authentication required: send x-platform-key or Authorization: Bearer <token>');
  return headers;
}

/**
 * Route scheme of the endpoints for Berth's own staff (app and coverage review): the
 * platform key (`x-platform-key`) or an identity-provider token with the platform role, resolved
 * by the app's authenticator like any credential. Missing credentials 401; operators' credentials,
 * admins included, 403. Services still call `requirePlatformStaff`.
 */
export const platformAuth: AuthScheme = {
  security: [{ PlatformKey: [] }, { BearerJwt: [] }],
  middleware: async (c, next) => {
    const headers = await anyCredentials(c);
    if (!isPlatformStaff(c.get('principal')))
      throw new ApiError('forbidden', `This operation is for Berth's platform staff (x-platform-key or a platform-role token)`, { headers });
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};

/**
 * Route scheme of a platform-staff endpoint whose service checks the role itself (after the input
 * is validated, so a malformed request answers 400 first): any valid credential passes this scheme,
 * missing ones answer 401, and the service answers operators 403 (`requirePlatformStaff`).
 */
export const platformCheckedInService: AuthScheme = {
  security: [{ PlatformKey: [] }, { BearerJwt: [] }],
  middleware: async (c, next) => {
    const headers = await anyCredentials(c);
    await next();
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
  },
};
