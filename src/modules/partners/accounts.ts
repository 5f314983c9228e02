import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { nowIso, wallClock } from '../../lib/clock';
import type { Ctx, Principal } from '../../lib/context';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { sha256Hex, timingSafeEqual } from '../../lib/crypto';
import { afterResponse } from '../../lib/round-trips';
import { partnerAccounts, partnerTokens } from '../../db/schema/partners';
import { emailStmt } from '../../adapters/messages';
import { hashPassword, verifyPassword } from './password';
import { partnerFail } from './errors';
import { PARTNER_TOKEN_TTL_MS } from './types';
import { partnerOut } from './views';

export type PartnerRow = typeof partnerAccounts.$inferSelect;
type TokenKind = 'session' | 'cli';

/** Partner requests per minute per partner account. */
export const PARTNER_RATE_LIMIT = 300;
/** Sign-in attempts per minute per e-mail address (and per client address). */
const LOGIN_ATTEMPTS_PER_MINUTE = 10;
const RESET_TTL_MS = 3600_000;

const TOKEN_RE = /^bpt_[A-Za-z0-9]{40}$/;

/** The partner behind a `partner` principal; 403 for anyone else. */
export function requirePartner(ctx: Ctx): string {
  if (ctx.principal.kind !== 'partner' || !ctx.principal.partnerId) throw new ApiError('forbidden', 'This endpoint needs a partner token');
  return ctx.principal.partnerId;
}

export function partnerPrincipal(p: PartnerRow, tokenId: string): Principal {
  return {
    kind: 'partner',
    credentialId: `partner:${p.id}`,
    userId: null,
    customerId: null,
    role: null,
    permissions: [],
    plan: 'standard',
    partnerId: p.id,
    subject: tokenId,
    email: p.email,
    name: p.name,
  };
}

/** Issues a partner token (`bpt_...`, 30 days); only its hash is stored. */
export async function issuePartnerToken(ctx: Ctx, partnerId: string, kind: TokenKind, label?: string | null) {
  const token = `bpt_${randomString(40)}`;
  // A credential's lifetime is real time (the partner's own clock), checked in resolvePartnerToken on the same clock.
  const expiresAt = new Date(wallClock.now() + PARTNER_TOKEN_TTL_MS).toISOString();
  const id = newId('ptk');
  await ctx.db.insert(partnerTokens).values({ id, partnerId, tokenHash: await sha256Hex(token), kind, label: label ?? null, expiresAt });
  return { tokenId: id, token, tokenType: 'Bearer' as const, expiresAt };
}

/** Counts one attempt in the bucket's rate-limiter object (exact, per minute); 429 when over. */
async function throttle(ctx: Ctx, bucket: string, limit: number) {
  const state = await ctx.env.RATE_LIMITER.get(ctx.env.RATE_LIMITER.idFromName(bucket)).hit(limit, 60_000);
  if (!state.allowed) {
    // Rate-limit windows run on real time.
    const retryAfter = Math.max(1, state.reset - Math.floor(wallClock.now() / 1000));
    throw new ApiError('rate_limited', `Too many sign-in attempts; retry in ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
  }
}

/** Sign-in attempts: 10 per minute per e-mail address, 30 per minute per client address. */
async function throttleLogin(ctx: Ctx, email: string, clientIp?: string) {
  await throttle(ctx, `partner-login:${email}`, LOGIN_ATTEMPTS_PER_MINUTE);
  if (clientIp) await throttle(ctx, `partner-login-ip:${clientIp}`, LOGIN_ATTEMPTS_PER_MINUTE * 3);
}

/**
 * E-mail and password of a partner (the sign-in endpoint, the device approval page and the
 * consent page's developer sign-in); 401 `invalid_credentials` for an unknown e-mail or a wrong
 * password (same work either way); 10 attempts per minute per e-mail.
 */
export async function verifyPartnerCredentials(ctx: Ctx, email: string, password: string, clientIp?: string): Promise<PartnerRow> {
  const normalized = email.trim().toLowerCase();
  await throttleLogin(ctx, normalized, clientIp);
  const row = await ctx.db.select().from(partnerAccounts).where(eq(partnerAccounts.email, normalized)).get();
  const { ok, rehash } = await verifyPassword(password, row?.passwordHash);
  if (!row || !ok) throw partnerFail('invalid_credentials', 'E-mail or password is wrong');
  if (row.status !== 'active') throw new ApiError('forbidden', 'This partner account is suspended');
  if (rehash)
    await ctx.db
      .update(partnerAccounts)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(partnerAccounts.id, row.id));
  return row;
}

/**
 * Creates a partner account (active at once). Without a password the account can only be
 * reached with a password reset (accounts made for an existing reseller channel).
 */
export async function createPartnerAccount(ctx: Ctx, input: { email: string; name: string; company?: string | null; password?: string | null }) {
  const email = input.email.trim().toLowerCase();
  const taken = await ctx.db.select({ id: partnerAccounts.id }).from(partnerAccounts).where(eq(partnerAccounts.email, email)).get();
  if (taken) throw new ApiError('already_exists', 'A partner account with this e-mail exists; sign in instead');
  const row: PartnerRow = {
    id: newId('ptn'),
    email,
    name: input.name,
    company: input.company ?? null,
    passwordHash: input.password ? await hashPassword(input.password) : null,
    status: 'active',
    createdAt: nowIso(ctx),
    updatedAt: nowIso(ctx),
  };
  try {
    await ctx.db.insert(partnerAccounts).values(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('already_exists', 'A partner account with this e-mail exists; sign in instead');
    throw err;
  }
  return row;
}

export async function register(ctx: Ctx, input: { email: string; password: string; name: string; company?: string }) {
  const row = await createPartnerAccount(ctx, input);
  const t = await issuePartnerToken(ctx, row.id, 'session', 'registration');
  return { partner: partnerOut(row), token: t.token, tokenType: t.tokenType, expiresAt: t.expiresAt };
}

export async function login(ctx: Ctx, input: { email: string; password: string }, client: { ip?: string; userAgent?: string } = {}) {
  const row = await verifyPartnerCredentials(ctx, input.email, input.password, client.ip);
  const t = await issuePartnerToken(ctx, row.id, 'session', client.userAgent?.slice(0, 120) ?? null);
  return { partner: partnerOut(row), token: t.token, tokenType: t.tokenType, expiresAt: t.expiresAt };
}

/** The partner and token behind a `bpt_...` token; 401 when unknown, expired or revoked. */
export async function resolvePartnerToken(ctx: Ctx, token: string): Promise<{ partner: PartnerRow; tokenId: string }> {
  const invalid = () => new ApiError('unauthenticated', 'Invalid, expired or revoked partner token');
  if (!TOKEN_RE.test(token)) throw invalid();
  const hash = await sha256Hex(token);
  // Token lifetimes run on real time (issuePartnerToken).
  const now = wallClock.now();
  const row = await ctx.db
    .select({ token: partnerTokens, partner: partnerAccounts })
    .from(partnerTokens)
    .innerJoin(partnerAccounts, eq(partnerAccounts.id, partnerTokens.partnerId))
    .where(and(eq(partnerTokens.tokenHash, hash), isNull(partnerTokens.revokedAt), gt(partnerTokens.expiresAt, new Date(now).toISOString())))
    .get();
  if (!row || row.token.kind === 'password_reset' || !timingSafeEqual(row.token.tokenHash, hash)) throw invalid();
  if (row.partner.status !== 'active') throw new ApiError('forbidden', 'This partner account is suspended');
  const stale = !row.token.lastUsedAt || now - Date.parse(row.token.lastUsedAt) > 5 * 60_000;
  // After the response: not on the request's critical path.
  if (stale)
    afterResponse(ctx, () =>
      ctx.db
        .update(partnerTokens)
        .set({ lastUsedAt: new Date(now).toISOString() })
        .where(eq(partnerTokens.id, row.token.id))
        .run(),
    );
  return { partner: row.partner, tokenId: row.token.id };
}

export async function getPartner(ctx: Ctx, partnerId: string): Promise<PartnerRow | undefined> {
  return ctx.db.select().from(partnerAccounts).where(eq(partnerAccounts.id, partnerId)).get();
}

async function ownPartner(ctx: Ctx): Promise<PartnerRow> {
  const row = await getPartner(ctx, requirePartner(ctx));
  if (!row) throw new ApiError('unauthenticated', 'Unknown partner account');
  return row;
}

export const getMe = async (ctx: Ctx) => partnerOut(await ownPartner(ctx));

export async function updateMe(ctx: Ctx, input: { name?: string; company?: string | null }) {
  const row = await ownPartner(ctx);
  const patch: Partial<PartnerRow> = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.company !== undefined) patch.company = input.company;
  if (!Object.keys(patch).length) throw new ApiError('no_changes', 'Give name or company');
  await ctx.db.update(partnerAccounts).set(patch).where(eq(partnerAccounts.id, row.id));
  return partnerOut({ ...row, ...patch });
}

/** Changes the password (the current one is required when the account has one) and signs out every other token. */
export async function changePassword(ctx: Ctx, input: { currentPassword?: string; newPassword: string }) {
  const row = await ownPartner(ctx);
  if (row.passwordHash) {
    if (!input.currentPassword)
      throw new ApiError('validation_failed', 'currentPassword is required', { details: [{ field: 'currentPassword', message: 'required' }] });
    await verifyPartnerCredentials(ctx, row.email, input.currentPassword);
  }
  const now = nowIso(ctx);
  await ctx.db.batch([
    ctx.db
      .update(partnerAccounts)
      .set({ passwordHash: await hashPassword(input.newPassword) })
      .where(eq(partnerAccounts.id, row.id)),
    ctx.db
      .update(partnerTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(partnerTokens.partnerId, row.id),
          isNull(partnerTokens.revokedAt),
          ctx.principal.subject ? ne(partnerTokens.id, ctx.principal.subject) : undefined,
        ),
      ),
  ]);
  return { success: true };
}

/**
 * Sends a one-time link (1 hour) to reset the password; answers the same whether or not the
 * address has an account, so it reveals nothing.
 */
export async function forgotPassword(ctx: Ctx, email: string, baseUrl: string, clientIp?: string) {
  const normalized = email.trim().toLowerCase();
  await throttleLogin(ctx, normalized, clientIp);
  const row = await ctx.db.select().from(partnerAccounts).where(eq(partnerAccounts.email, normalized)).get();
  if (row && row.status === 'active') {
    const token = `bpr_${randomString(40)}`;
    const link = `${baseUrl}/partners/password/reset?token=${token}`;
    const msg = emailStmt(ctx, {
      to: row.email,
      customerId: null,
      subject: 'Reset your Berth partner password',
      template: 'partner_password_reset',
      body: `Someone asked to reset the password of your Berth partner account.\n\nSend this token with POST /partners/password/reset within the hour:\n\n${token}\n\n(${link})\n\nIf it was not you, ignore this message.`,
      metadata: { partnerId: row.id },
    });
    await ctx.db.batch([
      ctx.db.insert(partnerTokens).values({
        id: newId('ptk'),
        partnerId: row.id,
        tokenHash: await sha256Hex(token),
        kind: 'password_reset',
        // A credential's lifetime: real time, as resetPassword checks it.
        expiresAt: new Date(wallClock.now() + RESET_TTL_MS).toISOString(),
      }),
      msg.stmt,
    ]);
  }
  return { success: true, message: 'If the address has a partner account, a reset link was sent to it' };
}

/** Sets a new password with a reset token (single use: claimed by a conditional update) and signs out every token. */
export async function resetPassword(ctx: Ctx, input: { token: string; newPassword: string }) {
  const hash = await sha256Hex(input.token);
  // The reset token's lifetime runs on real time (forgotPassword).
  const now = new Date(wallClock.now()).toISOString();
  const claimed = await ctx.db
    .update(partnerTokens)
    .set({ revokedAt: now })
    .where(and(eq(partnerTokens.tokenHash, hash), eq(partnerTokens.kind, 'password_reset'), isNull(partnerTokens.revokedAt), gt(partnerTokens.expiresAt, now)))
    .returning({ partnerId: partnerTokens.partnerId })
    .get();
  if (!claimed) throw new ApiError('expired', 'The reset token is unknown, used or expired; ask for a new one');
  await ctx.db.batch([
    ctx.db
      .update(partnerAccounts)
      .set({ passwordHash: await hashPassword(input.newPassword) })
      .where(eq(partnerAccounts.id, claimed.partnerId)),
    ctx.db
      .update(partnerTokens)
      .set({ revokedAt: now })
      .where(and(eq(partnerTokens.partnerId, claimed.partnerId), isNull(partnerTokens.revokedAt))),
  ]);
  return { success: true };
}

export async function listTokens(ctx: Ctx) {
  const partnerId = requirePartner(ctx);
  // Token lifetimes run on real time (issuePartnerToken).
  const rows = await ctx.db
    .select()
    .from(partnerTokens)
    .where(and(eq(partnerTokens.partnerId, partnerId), isNull(partnerTokens.revokedAt), gt(partnerTokens.expiresAt, new Date(wallClock.now()).toISOString())))
    .orderBy(desc(partnerTokens.createdAt))
    .all();
  return {
    data: rows
      .filter((r) => r.kind !== 'password_reset')
      .map((r) => ({
        tokenId: r.id,
        kind: r.kind as TokenKind,
        label: r.label,
        current: r.id === ctx.principal.subject,
        createdAt: r.createdAt,
        expiresAt: r.expiresAt,
        lastUsedAt: r.lastUsedAt,
      })),
  };
}

/** Revokes one of the partner's tokens (the current one when `tokenId` is omitted: sign out). */
export async function revokeToken(ctx: Ctx, tokenId?: string) {
  const partnerId = requirePartner(ctx);
  const id = tokenId ?? ctx.principal.subject;
  if (!id) throw new ApiError('not_found', 'Token not found');
  const done = await ctx.db
    .update(partnerTokens)
    .set({ revokedAt: nowIso(ctx) })
    .where(and(eq(partnerTokens.id, id), eq(partnerTokens.partnerId, partnerId), isNull(partnerTokens.revokedAt)))
    .returning({ id: partnerTokens.id })
    .get();
  if (!done) throw new ApiError('not_found', 'Token not found');
  return { success: true, tokenId: id };
}

/** Revokes a partner token given its hash (the command line's sign-out through RFC 7009 revocation); unknown tokens are ignored. */
export async function revokePartnerTokenByHash(ctx: Ctx, tokenHash: string): Promise<void> {
  await ctx.db
    .update(partnerTokens)
    .set({ revokedAt: nowIso(ctx) })
    .where(and(eq(partnerTokens.tokenHash, tokenHash), isNull(partnerTokens.revokedAt), ne(partnerTokens.kind, 'password_reset')));
}
