/**
 * Keys for tokens Berth signs itself (check-in QR codes, renter one-time codes): HMAC-SHA256 keys
 * derived with HKDF from `RENTER_TOKEN_SECRET` (a dedicated secret), else from the deployment's
 * `WIDGET_ENCRYPTION_KEY` (required in staging and production), one key per purpose. Rotating the
 * secret invalidates outstanding tokens (printed passes, unexpired codes).
 */
import type { Env } from '../env';
import { ApiError } from './errors';

const enc = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

export type SigningPurpose = 'checkin-token' | 'renter-otp';

function rootSecret(env: Env): string {
  const s = env.RENTER_TOKEN_SECRET || env.WIDGET_ENCRYPTION_KEY;
  if (!s) throw new ApiError('service_unavailable', 'No signing secret is configured on this deployment (RENTER_TOKEN_SECRET or WIDGET_ENCRYPTION_KEY)');
  return s;
}

async function deriveKey(secret: string, purpose: SigningPurpose): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: enc.encode('berth-signing-v1'), info: enc.encode(purpose) },
    ikm,
    { name: 'HMAC', hash: 'SHA-256', length: 256 },
    false,
    ['sign', 'verify'],
  );
}

function keyFor(env: Env, purpose: SigningPurpose): Promise<CryptoKey> {
  const secret = rootSecret(env);
  const id = `${purpose}|${secret}`;
  let k = keys.get(id);
  if (!k) {
    k = deriveKey(secret, purpose);
    keys.set(id, k);
  }
  return k;
}

const b64url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** base64url HMAC-SHA256 of `message` with the purpose's key, truncated to `bytes` (16 = 128 bits by default). */
export async function sign(env: Env, purpose: SigningPurpose, message: string, bytes = 16): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await keyFor(env, purpose), enc.encode(message)));
  return b64url(mac.subarray(0, bytes));
}

/** Constant-time check of a signature made by `sign`. */
export async function verify(env: Env, purpose: SigningPurpose, message: string, signature: string, bytes = 16): Promise<boolean> {
  const expected = await sign(env, purpose, message, bytes);
  if (expected.length !== signature.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
  return diff === 0;
}
