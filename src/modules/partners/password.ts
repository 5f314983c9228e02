import { base64Decode, base64Encode, timingSafeEqual } from '../../lib/crypto';

/**
 * Partner passwords: PBKDF2-HMAC-SHA256 (WebCrypto) with a 16-byte random salt and a 32-byte
 * derived key at 100,000 iterations, the most the Workers runtime allows for PBKDF2. Stored as
 * `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64), so the cost can be raised later: a hash
 * with fewer iterations than PASSWORD_ITERATIONS is re-hashed at the next successful sign-in.
 */
export const PASSWORD_ITERATIONS = 100_000;
const enc = new TextEncoder();

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', enc.encode(password.normalize('NFKC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, PASSWORD_ITERATIONS);
  return `pbkdf2-sha256$${PASSWORD_ITERATIONS}$${base64Encode(salt)}$${base64Encode(hash)}`;
}

/** A hash of a random password, verified against when the e-mail is unknown (same work, same timing). */
const DUMMY = `pbkdf2-sha256$${PASSWORD_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;

/** Whether `password` matches `stored`, and whether the stored hash should be upgraded. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<{ ok: boolean; rehash: boolean }> {
  const parts = (stored ?? DUMMY).split('$');
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256') return { ok: false, rehash: false };
  const iterations = Number(parts[1]);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PASSWORD_ITERATIONS) return { ok: false, rehash: false };
  const got = await derive(password, base64Decode(parts[2]), iterations);
  const ok = timingSafeEqual(base64Encode(got), parts[3]) && stored != null;
  return { ok, rehash: ok && iterations < PASSWORD_ITERATIONS };
}
