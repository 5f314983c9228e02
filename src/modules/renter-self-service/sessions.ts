/**
 * Renter sessions. `cancellation-otp` e-mails a 6-digit code to the booking's address (valid 10
 * minutes, 5 attempts); `verify-cancellation-otp` trades the code for a short-lived bearer token
 * (30 minutes) that may cancel, change (change.ts) and manage the order. The renter who just paid gets a
 * `checkout` token (24 hours) that manages participants, documents and passes but cannot cancel or change.
 *
 * Codes and tokens are stored only as keyed hashes. Attempts are counted with one conditional
 * UPDATE each (parallel guesses cannot exceed 5), and a code yields one token: the verification
 * stamps the code and inserts the token in one batch, the insert guarded by that stamp.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { commit } from '../../lib/commit';
import { newId, randomDigits, randomString } from '../../lib/ids';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { sign } from '../../lib/signing';
import { nowIso, nowMs } from '../../lib/clock';
import { formatLocalRange } from '../../lib/local-time';
import { onOperatorClock } from '../../lib/operator-clock';
import { renterOtps, renterSessions } from '../../db/schema/renter-self-service';
import { locations } from '../../db/schema/locations';
import { emailStmt } from '../../adapters/messages';
import { throttlePublicSend } from '../communications/service';
import type { BookingRow } from '../bookings/service';
import { renterFail } from './errors';
import { asRenter, bookingEmail, guardRefused, rentalById, rentalOnItsClock } from './queries';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_ATTEMPTS = 5;
export const OTP_SESSION_TTL_MS = 30 * 60_000;
export const CHECKOUT_SESSION_TTL_MS = 24 * 3_600_000;
export const RENTER_TOKEN_HEADER = 'x-renter-token';

const iso = (ms: number) => new Date(ms).toISOString();
const changes = (r: unknown) => Number((r as { meta?: { changes?: number } } | undefined)?.meta?.changes ?? 0);

/** `r***@example.com`: enough for the renter to recognise the address, not enough to harvest it. */
export function maskEmail(email: string): string {
  const [user, domain] = email.split('@');
  return `${user.slice(0, 1)}${'*'.repeat(Math.max(2, Math.min(user.length - 1, 6)))}@${domain}`;
}

const codeHash = (ctx: Ctx, sessionId: string, code: string) => sign(ctx.env, 'renter-otp', `${sessionId}:${code}`, 32);

/** POST /public/bookings/{rentalId}/cancellation-otp: e-mails a code to the booking's address. */
export async function requestCode(ctx0: Ctx, rentalId: string, ip: string | null) {
  const { b, ctx } = await rentalOnItsClock(ctx0, rentalId);
  const email = bookingEmail(b);
  if (!email) throw renterFail('no_booking_email', 'This booking has no e-mail address to send a code to; please contact the operator');
  const { addressAllowed } = await throttlePublicSend(ctx, { kind: 'renter-code', ip, address: email });
  const sessionId = newId('otp');
  const code = randomDigits(6);
  const now = nowMs(ctx);
  const expiresAt = now + CODE_TTL_MS;
  const loc = await ctx.db.select({ name: locations.name, timezone: locations.timezone }).from(locations).where(eq(locations.id, b.locationId)).get();
  const tz = loc?.timezone ?? 'UTC';
  const rctx = asRenter(ctx, b, `renter:${sessionId}`);
  const first = String((b.customerInfo as { firstName?: unknown } | null)?.firstName ?? '').slice(0, 100);
  const mail = emailStmt(rctx, {
    customerId: b.customerId,
    to: email,
    subject: `Your code: ${code}`,
    body:
      `Hello ${first},\n\nYour code for booking ${b.id} (${formatLocalRange(b.start, b.end, tz)}, ${loc?.name ?? ''}) is ${code}.\n` +
      `It is valid for 10 minutes. If you did not ask for it, ignore this e-mail: nothing changes without the code.`,
    template: 'renter.code',
    metadata: { rentalId: b.id, transactionId: b.transactionId, sessionId },
  });
  await commit(
    rctx,
    [
      ctx.db.insert(renterOtps).values({
        id: sessionId,
        customerId: b.customerId,
        rentalId: b.id,
        transactionId: b.transactionId,
        email,
        codeHash: await codeHash(ctx, sessionId, code),
        expiresAt,
      }),
      // Over the per-address hourly limit the answer is unchanged but no e-mail goes out.
      ...(addressAllowed ? [mail.stmt] : []),
    ],
    {
      audit: { action: 'renter.code_requested', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { sessionId, sent: addressAllowed } },
    },
  );
  return { sessionId, rentalId: b.id, sentTo: maskEmail(email), expiresAt: iso(expiresAt), codeLength: 6, maxAttempts: MAX_ATTEMPTS };
}

/** POST /public/bookings/{rentalId}/verify-cancellation-otp: a right code answers a 30-minute session token. */
export async function verifyCode(ctx0: Ctx, rentalId: string, input: { sessionId: string; code: string }) {
  const otp = await ctx0.db
    .select()
    .from(renterOtps)
    .where(and(eq(renterOtps.id, input.sessionId), eq(renterOtps.rentalId, rentalId)))
    .get();
  if (!otp) throw renterFail('invalid_code', 'Unknown code session for this booking; ask for a new code', { extra: { attemptsLeft: 0 } });
  // The operator is known now: the code expires on its clock.
  const ctx = await onOperatorClock(ctx0, otp.customerId);
  const now = nowMs(ctx);
  if (otp.verifiedAt || otp.expiresAt <= now) throw renterFail('code_expired', 'This code has expired or was used; ask for a new one');
  // Count the attempt first: one conditional UPDATE, so parallel guesses never exceed the limit.
  const counted = await ctx.db
    .update(renterOtps)
    .set({ attempts: sql`${renterOtps.attempts} + 1` })
    .where(and(eq(renterOtps.id, otp.id), lt(renterOtps.attempts, MAX_ATTEMPTS), isNull(renterOtps.verifiedAt), gt(renterOtps.expiresAt, now)))
    .run();
  if (changes(counted) !== 1) {
    const fresh = await ctx.db.select().from(renterOtps).where(eq(renterOtps.id, otp.id)).get();
    if (fresh && fresh.attempts >= MAX_ATTEMPTS) throw renterFail('too_many_attempts', 'Too many wrong codes; ask for a new code');
    throw renterFail('code_expired', 'This code has expired or was used; ask for a new one');
  }
  const attemptsLeft = Math.max(0, MAX_ATTEMPTS - (otp.attempts + 1));
  if (!timingSafeEqual(await codeHash(ctx, otp.id, input.code.trim()), otp.codeHash)) {
    if (attemptsLeft === 0) throw renterFail('too_many_attempts', 'Too many wrong codes; ask for a new code');
    throw renterFail('invalid_code', `Wrong code; ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left`, { extra: { attemptsLeft } });
  }
  const b = await rentalById(ctx, rentalId);
  const token = `rst_${randomString(40)}`;
  const stamp = `${iso(now)}#${randomString(8)}`;
  const expiresAt = now + OTP_SESSION_TTL_MS;
  const sessionRowId = newId('rss');
  const rctx = asRenter(ctx, b, `renter:${otp.id}`);
  try {
    await commit(
      rctx,
      [
        ctx.db
          .update(renterOtps)
          .set({ verifiedAt: stamp })
          .where(and(eq(renterOtps.id, otp.id), isNull(renterOtps.verifiedAt))),
        // The guard: the order is read from the code only when this request's stamp is the one stored;
        // otherwise it is NULL and the batch aborts (a code yields one token).
        ctx.db.insert(renterSessions).values({
          id: sessionRowId,
          tokenHash: await sha256Hex(token),
          customerId: b.customerId,
          transactionId: sql`(SELECT transaction_id FROM renter_otps WHERE id = ${otp.id} AND verified_at = ${stamp})` as unknown as string,
          rentalId: b.id,
          origin: 'otp',
          expiresAt,
          createdAt: iso(now),
        }),
      ],
      { audit: { action: 'renter.code_verified', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { sessionId: otp.id } } },
    );
  } catch (err) {
    if (guardRefused(err, 'renter_sessions.transaction_id')) throw renterFail('code_expired', 'This code was just used; ask for a new one');
    throw err;
  }
  return {
    token,
    tokenType: 'renter_session' as const,
    expiresAt: iso(expiresAt),
    rentalId: b.id,
    transactionId: b.transactionId,
    scopes: ['cancel', 'manage', 'change'] as ('cancel' | 'manage' | 'change')[],
  };
}

/** A `checkout` session for the renter who just booked: manages the order (not cancellation) for 24 hours. */
export async function checkoutSessionStmt(ctx: Ctx, b: { customerId: string; transactionId: string }) {
  const token = `rst_${randomString(40)}`;
  const now = nowMs(ctx);
  const expiresAt = now + CHECKOUT_SESSION_TTL_MS;
  const stmt = ctx.db.insert(renterSessions).values({
    id: newId('rss'),
    tokenHash: await sha256Hex(token),
    customerId: b.customerId,
    transactionId: b.transactionId,
    rentalId: null,
    origin: 'checkout',
    expiresAt,
    createdAt: iso(now),
  });
  return { token, expiresAt: iso(expiresAt), stmt };
}

export type SessionRow = typeof renterSessions.$inferSelect;

/**
 * The renter session a token names, checked against a rental: same operator and order, not expired,
 * not used, and for `cancel` and `change` a session from a verified code. Anything else is 401 `renter_session_invalid`.
 */
export async function requireSession(ctx: Ctx, token: string | null | undefined, b: BookingRow, need: 'cancel' | 'change' | 'manage'): Promise<SessionRow> {
  const fail = (why: string) => renterFail('renter_session_invalid', why);
  if (!token || !/^rst_[A-Za-z0-9]{40}$/.test(token)) throw fail('A renter session token is required: verify the e-mailed code first');
  const s = await ctx.db
    .select()
    .from(renterSessions)
    .where(eq(renterSessions.tokenHash, await sha256Hex(token)))
    .get();
  if (!s || s.customerId !== b.customerId || s.transactionId !== b.transactionId) throw fail('This session token is not valid for this booking');
  if (s.expiresAt <= nowMs(ctx)) throw fail('This session has expired; ask for a new code');
  if (s.usedAt) throw fail('This session was used to cancel; ask for a new code');
  if (need !== 'manage' && s.origin !== 'otp') throw fail(`${need === 'cancel' ? 'Cancelling' : 'Changing'} needs the code e-mailed to the booking address`);
  return s;
}

/** Marks a session used (after a cancellation): later calls with it answer 401. */
export const useSessionStmt = (ctx: Ctx, s: SessionRow) =>
  ctx.db
    .update(renterSessions)
    .set({ usedAt: nowIso(ctx) })
    .where(and(eq(renterSessions.id, s.id), isNull(renterSessions.usedAt)));
