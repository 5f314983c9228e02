/**
 * The check-in code of a booking's pass (its QR code): `bci1.<rentalId>.<expires>.<signature>`,
 * signed with HMAC-SHA256 (128 bits, src/lib/signing.ts), valid until a day after the booking ends.
 * The operator's scanner posts it to POST /coreBooking/check-in/scan.
 */
import type { Env } from '../../env';
import { sign, verify } from '../../lib/signing';

const PREFIX = 'bci1';
const DAY = 86_400_000;
const TOKEN = /^bci1\.([A-Za-z0-9_]{3,128})\.(\d{9,12})\.([A-Za-z0-9_-]{22})$/;

export async function checkInToken(env: Env, rentalId: string, bookingEnd: number): Promise<string> {
  const exp = Math.ceil((bookingEnd + DAY) / 1000);
  const body = `${PREFIX}.${rentalId}.${exp}`;
  return `${body}.${await sign(env, 'checkin-token', body)}`;
}

/** The rental a check-in code names, or null when it is malformed, forged or expired at `now` (ms, the operator's clock). */
export async function readCheckInToken(env: Env, token: string, now: number): Promise<string | null> {
  const m = TOKEN.exec(token.trim());
  if (!m) return null;
  const [, rentalId, exp] = m;
  if (Number(exp) * 1000 <= now) return null;
  return (await verify(env, 'checkin-token', `${PREFIX}.${rentalId}.${exp}`, m[3])) ? rentalId : null;
}
