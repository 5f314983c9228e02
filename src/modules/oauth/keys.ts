import { SignJWT, calculateJwkThumbprint, createLocalJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { eq } from 'drizzle-orm';
import { wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { isProduction, type Env } from '../../env';
import { devSigningKeys } from '../../db/schema/oauth';

interface KeySet {
  signing: { kid: string; alg: string; key: CryptoKey };
  /** Public JWKs (published at /.well-known/jwks.json). */
  keys: JWK[];
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];
const publicOf = (jwk: JWK): JWK => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(jwk)) if (!PRIVATE_MEMBERS.includes(k) && k !== 'key_ops' && k !== 'ext') out[k] = v;
  return { ...(out as JWK), use: 'sig' };
};
const algOf = (jwk: JWK) => jwk.alg ?? (jwk.kty === 'EC' ? 'ES256' : jwk.kty === 'OKP' ? 'EdDSA' : 'RS256');

let cached: { source: string; set: Promise<KeySet> } | undefined;

async function fromJwks(json: string): Promise<KeySet> {
  const set = JSON.parse(json) as { keys: JWK[] };
  const first = set.keys[0];
  const alg = algOf(first);
  const key = (await importJWK({ ...first, alg }, alg)) as CryptoKey;
  return { signing: { kid: first.kid!, alg, key }, keys: set.keys.map((k) => ({ ...publicOf(k), alg: algOf(k) })) };
}

/** Development and tests: one ES256 key, generated on first use and kept in D1 so every isolate signs with it. */
async function devKeys(ctx: Ctx): Promise<KeySet> {
  let row = await ctx.db.select().from(devSigningKeys).where(eq(devSigningKeys.id, 'dev')).get();
  if (!row) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const kid = `dev-${(await calculateJwkThumbprint(jwk)).slice(0, 16)}`;
    await ctx.db
      .insert(devSigningKeys)
      .values({ id: 'dev', privateJwk: { ...jwk, kid, alg: 'ES256' } })
      .onConflictDoNothing();
    row = await ctx.db.select().from(devSigningKeys).where(eq(devSigningKeys.id, 'dev')).get();
  }
  return fromJwks(JSON.stringify({ keys: [row!.privateJwk] }));
}

/** The signing keys: the OAUTH_SIGNING_KEYS secret, or (development and tests only) the generated key. */
function keySet(ctx: Ctx): Promise<KeySet> {
  const source = ctx.env.OAUTH_SIGNING_KEYS ?? (isProduction(ctx.env) ? '' : 'dev');
  if (!source) throw new ApiError('service_unavailable', 'OAUTH_SIGNING_KEYS is not configured');
  if (cached?.source !== source) {
    const set = source === 'dev' ? devKeys(ctx) : fromJwks(source);
    cached = { source, set };
    set.catch(() => {
      if (cached?.set === set) cached = undefined;
    });
  }
  return cached.set;
}

export async function jwks(ctx: Ctx): Promise<{ keys: JWK[] }> {
  return { keys: (await keySet(ctx)).keys };
}

/** The issuer of session tokens and the `iss` of authorization responses: PUBLIC_BASE_URL, else the request's origin. */
export const issuerOf = (env: Env, requestUrl: string) => (env.PUBLIC_BASE_URL ?? new URL(requestUrl).origin).replace(/\/$/, '');

export interface SessionClaims {
  customerId: string;
  installationId: string;
  locationId: string | null;
  embedLocation: string | null;
  rentalId?: string;
}

/** An embedded session token: audience = the app's client id, subject = the operator user, short-lived. */
export async function signSessionToken(ctx: Ctx, p: { issuer: string; clientId: string; userId: string; ttlSeconds: number; claims: SessionClaims }) {
  const { signing } = await keySet(ctx);
  // JWT iat/nbf/exp: the app verifies them against its own clock, so real time.
  const now = Math.floor(wallClock.now() / 1000);
  const exp = now + p.ttlSeconds;
  const token = await new SignJWT({ ...p.claims })
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'JWT' })
    .setIssuer(p.issuer)
    .setAudience(p.clientId)
    .setSubject(p.userId)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .setJti(newId('jti'))
    .sign(signing.key);
  return { token, expiresAt: exp };
}

/** Verifies a session token presented for token exchange (signature against the published keys, issuer, audience, lifetime). */
export async function verifySessionToken(ctx: Ctx, token: string, p: { issuer: string; clientId: string }): Promise<JWTPayload & Partial<SessionClaims>> {
  const set = await keySet(ctx);
  const local = createLocalJWKSet({ keys: set.keys });
  const { payload } = await jwtVerify(token, local, {
    issuer: p.issuer,
    audience: p.clientId,
    algorithms: [...new Set(set.keys.map((k) => k.alg!))],
    clockTolerance: 5,
  });
  return payload as JWTPayload & Partial<SessionClaims>;
}
