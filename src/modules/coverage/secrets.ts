/**
 * Signing secrets of offerings: made here, returned once, stored encrypted (AES-GCM with
 * COVERAGE_ENCRYPTION_KEY), never answered again. A rotation makes a new current secret and keeps
 * the previous one valid for SECRET_OVERLAP_MS: during the overlap Berth signs every call with both
 * (two comma-separated signatures) and accepts message requests signed with either.
 */
import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import { wallClock } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import type { Stmt } from '../../db/client';
import type { Env } from '../../env';
import { isProduction } from '../../env';
import { ApiError } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { aesGcmDecrypt, aesGcmEncrypt } from '../../lib/crypto';
import { coverageSecrets } from '../../db/schema/coverage';
import { SECRET_OVERLAP_MS } from './types';

/** Development and tests only (staging and production must set COVERAGE_ENCRYPTION_KEY; the configuration check says so). */
const DEV_KEY = btoa('berth-dev-coverage-secrets-key!!');

function keyOf(env: Env): string {
  if (env.COVERAGE_ENCRYPTION_KEY) return env.COVERAGE_ENCRYPTION_KEY;
  if (isProduction(env)) throw new ApiError('service_unavailable', 'COVERAGE_ENCRYPTION_KEY is not configured');
  return DEV_KEY;
}

export const newSigningSecret = () => `cvs_${randomString(48)}`;

/** The insert of a new current secret (encrypted); wrapped, because an awaited statement would run. */
export async function secretInsert(ctx: Ctx, offeringId: string, secret: string): Promise<{ stmt: Stmt }> {
  const { iv, ciphertext } = await aesGcmEncrypt(keyOf(ctx.env), secret);
  return { stmt: ctx.db.insert(coverageSecrets).values({ id: newId('cvk'), offeringId, iv, ciphertext, prefix: secret.slice(0, 8) }) };
}

/** Statements of a rotation: every still-current secret expires after the overlap, and the new one is inserted. */
export async function rotationStmts(ctx: Ctx, offeringId: string, secret: string): Promise<{ stmts: Stmt[]; previousValidUntil: string }> {
  // Real time: the overlap of signing secrets is checked by the underwriter against its own clock.
  const now = wallClock.now();
  const until = new Date(now + SECRET_OVERLAP_MS).toISOString();
  return {
    previousValidUntil: until,
    stmts: [
      ctx.db
        .update(coverageSecrets)
        .set({ expiresAt: until })
        .where(and(eq(coverageSecrets.offeringId, offeringId), isNull(coverageSecrets.expiresAt))),
      (await secretInsert(ctx, offeringId, secret)).stmt,
    ],
  };
}

/** The secrets that sign and verify now: the current one first, then any previous one still in its overlap. */
export async function activeSecrets(ctx: Pick<Ctx, 'db' | 'env'>, offeringId: string): Promise<string[]> {
  // Real time: which secrets sign is between Berth and the underwriter, whose clock checks the signatures.
  const now = wallClock.now();
  const rows = await ctx.db
    .select()
    .from(coverageSecrets)
    .where(and(eq(coverageSecrets.offeringId, offeringId), or(isNull(coverageSecrets.expiresAt), gt(coverageSecrets.expiresAt, new Date(now).toISOString()))))
    .orderBy(desc(coverageSecrets.createdAt), desc(coverageSecrets.id))
    .all();
  rows.sort((a, b) => (a.expiresAt === null ? -1 : b.expiresAt === null ? 1 : 0));
  const key = keyOf(ctx.env);
  return Promise.all(rows.slice(0, 2).map((r) => aesGcmDecrypt(key, r.iv, r.ciphertext)));
}

/** What the partner may see of its secrets: prefixes and expiry, never the secret. */
export async function secretInfo(ctx: Ctx, offeringId: string) {
  // Real time, as activeSecrets.
  const now = wallClock.now();
  const rows = await ctx.db
    .select()
    .from(coverageSecrets)
    .where(and(eq(coverageSecrets.offeringId, offeringId), or(isNull(coverageSecrets.expiresAt), gt(coverageSecrets.expiresAt, new Date(now).toISOString()))))
    .orderBy(desc(coverageSecrets.createdAt))
    .all();
  const current = rows.find((r) => r.expiresAt === null);
  const previous = rows.find((r) => r.expiresAt !== null);
  return {
    present: !!current,
    prefix: current?.prefix ?? null,
    createdAt: current?.createdAt ?? null,
    previousValidUntil: previous?.expiresAt ?? null,
  };
}
