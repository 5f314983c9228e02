/**
 * Secrets of the integrations at rest, and signed short-lived tokens (OAuth `state`, simulated
 * provider codes). Provider credentials (access and refresh tokens, client secrets, outbound API
 * keys) are stored only sealed with AES-GCM under `INTEGRATIONS_ENCRYPTION_KEY`; staging and
 * production require that secret, development and tests fall back to a fixed key.
 */
import type { Env } from '../env';
import { wallClock } from './clock';
import { aesGcmDecrypt, aesGcmEncrypt, base64UrlDecodeString, base64UrlEncodeString, hmacSha256Hex, timingSafeEqual } from './crypto';

/** Development and tests only (staging and production refuse to start without the secret). */
const DEV_KEY = btoa('dev-only-integrations-key-012345');

const keyOf = (env: Env) => env.INTEGRATIONS_ENCRYPTION_KEY ?? DEV_KEY;

/** `v1.{iv}.{ciphertext}`: AES-GCM under the integrations key (a fresh IV each time). */
export async function seal(env: Env, plaintext: string): Promise<string> {
  const { iv, ciphertext } = await aesGcmEncrypt(keyOf(env), plaintext);
  return `v1.${iv}.${ciphertext}`;
}

/** The plaintext of a sealed value; throws when it was sealed under another key or tampered with. */
export async function unseal(env: Env, sealed: string): Promise<string> {
  const [version, iv, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !ciphertext) throw new Error('not a sealed value');
  return aesGcmDecrypt(keyOf(env), iv, ciphertext);
}

export const sealOrNull = async (env: Env, v: string | null | undefined) => (v ? seal(env, v) : null);
export const unsealOrNull = async (env: Env, v: string | null | undefined) => (v ? unseal(env, v) : null);

interface Signed<T> {
  /** What the token is for (`calendar.state`, `acct.state`, ...): a token of one purpose never passes for another. */
  p: string;
  d: T;
  /** Expiry, epoch milliseconds. */
  exp: number;
  /** Random nonce: two tokens are never equal. */
  n: string;
}

const macKey = (env: Env) => `berth-signed-token:${keyOf(env)}`;

/**
 * A compact signed token `{payload}.{hmac}` that expires after `ttlMs` of real time: these tokens
 * (OAuth `state`, the simulated providers' codes and access tokens) live through a round trip with
 * another party, who keeps real time whatever a sandbox operator's test clock reads.
 */
export async function signToken<T>(env: Env, purpose: string, data: T, ttlMs: number): Promise<string> {
  // Real time: a lifetime checked across a round trip with another party (see above).
  const body: Signed<T> = { p: purpose, d: data, exp: wallClock.now() + ttlMs, n: crypto.randomUUID() };
  const payload = base64UrlEncodeString(JSON.stringify(body));
  return `${payload}.${await hmacSha256Hex(macKey(env), payload)}`;
}

export type TokenCheck<T> =
  { ok: true; data: T; nonce: string; expiresAt: number } | { ok: false; reason: 'malformed' | 'forged' | 'expired' | 'wrong_purpose' };

/** Checks a token made by `signToken`: signature (constant time), purpose and expiry. */
export async function verifyToken<T>(env: Env, purpose: string, token: string | undefined | null): Promise<TokenCheck<T>> {
  if (!token || token.length > 4096) return { ok: false, reason: 'malformed' };
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return { ok: false, reason: 'malformed' };
  const payload = token.slice(0, dot);
  const mac = token.slice(dot + 1);
  if (!timingSafeEqual(mac, await hmacSha256Hex(macKey(env), payload))) return { ok: false, reason: 'forged' };
  let body: Signed<T>;
  try {
    body = JSON.parse(base64UrlDecodeString(payload)) as Signed<T>;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (body.p !== purpose) return { ok: false, reason: 'wrong_purpose' };
  // Real time, as the token was signed (signToken).
  if (!(typeof body.exp === 'number' && body.exp > wallClock.now())) return { ok: false, reason: 'expired' };
  return { ok: true, data: body.d, nonce: body.n, expiresAt: body.exp };
}
