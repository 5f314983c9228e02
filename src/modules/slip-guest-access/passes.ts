import { and, desc, eq, lte, gt, sql } from 'drizzle-orm';
import type { z } from '@hono/zod-openapi';
import type { Ctx } from '../../lib/context';
import { requirePermission, tenantOf } from '../../lib/context';
import { nowIso, wallClock } from '../../lib/clock';
import { inJobScope, nextDueAt } from '../../lib/job-scope';
import { formatLocalDateTime, formatLocalRange } from '../../lib/local-time';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import { wallTimeToUtc } from '../../lib/time';
import type { SlipReservationDeleted, SlipReservationDetail, SlipReservationEnded } from '../../lib/hooks';
import { slipGuestPasses as P } from '../../db/schema/slip-guest-access';
import { emailStmt } from '../../adapters/messages';
import { getLocationInTenant } from '../locations/service';
import { getSlipSettings } from '../marina-settings/service';
import { getReservationRow, reservationRowsByIds, type ReservationRow } from '../slip-reservations/service';
import { slipRowsByIds } from '../slips/service';
import { guestAccessErrors } from './errors';
import type * as s from './schemas';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  CODE_PATTERN,
  DEFAULT_PERMISSIONS,
  MAX_ACTIVE_PASSES,
  VERIFY_MISS_LIMIT,
  VERIFY_MISS_WINDOW_MS,
  type VerifyResult,
} from './types';
import { getPassRow } from './queries';
import { passOut, statusAt, type PassRow } from './views';

const LIVE_RESERVATION = ['pending', 'confirmed', 'checked_in'];
const errText = (err: unknown) => `${(err as Error)?.message ?? err} ${String((err as { cause?: unknown })?.cause ?? '')}`;
const isCodeTaken = (err: unknown) => /UNIQUE constraint failed: slip_guest_passes\.customer_id, slip_guest_passes\.access_code/.test(errText(err));

/** The window a pass of the reservation may cover: from the arrival day (00:00) to the departure day at the location's check-out time. */
async function stayWindow(ctx: Ctx, r: ReservationRow) {
  const [loc, settings] = await Promise.all([getLocationInTenant(ctx, r.locationId), getSlipSettings(ctx, r.locationId)]);
  return {
    start: new Date(wallTimeToUtc(r.arrivalDate, '00:00', loc.timezone)).toISOString(),
    end: new Date(wallTimeToUtc(r.departureDate, settings.checkOutTime, loc.timezone)).toISOString(),
    timezone: loc.timezone,
  };
}

function checkWindow(from: string, until: string, w: { start: string; end: string; timezone: string }) {
  const bad = (field: string, message: string) => new ApiError('validation_failed', message, { details: [{ field, message }] });
  if (!(until > from)) throw bad('validUntil', 'validUntil must be after validFrom');
  if (from < w.start) throw bad('validFrom', `A pass starts on the arrival day at the earliest (${formatLocalDateTime(w.start, w.timezone)})`);
  if (until > w.end) throw bad('validUntil', `A pass ends at the reservation's check-out at the latest (${formatLocalDateTime(w.end, w.timezone)})`);
}

const iso = (v: string) => new Date(v).toISOString();
const newCode = () => randomString(CODE_LENGTH, CODE_ALPHABET);

function codeMail(ctx: Ctx, p: PassRow, r: ReservationRow, timezone: string) {
  return emailStmt(ctx, {
    to: p.guestEmail!,
    subject: 'Your marina guest pass',
    body: [
      `Hello ${p.guestName},`,
      `${r.renter.firstName} ${r.renter.lastName} invited you aboard ${r.boat.vesselName}.`,
      `Your access code: ${p.accessCode}`,
      `Valid ${formatLocalRange(p.validFrom, p.validUntil, timezone)}. Show the code at the marina gate${p.idRequired ? ' with a photo ID' : ''}.`,
    ].join('\n\n'),
    template: 'slip_guest_pass.code',
    customerId: p.customerId,
    metadata: { slipGuestPassId: p.id, slipReservationId: r.id },
  }).stmt;
}

/**
 * Creates a pass for a live reservation (pending, confirmed or checked in). `via` tenant: the
 * renter in the portal (the caller checked ownership), fewer passes, no own code or ID rule.
 */
export async function addPass(
  ctx: Ctx,
  r: ReservationRow,
  input: z.output<typeof s.TenantCreateBody> & { accessCode?: string; idRequired?: boolean },
  via: 'staff' | 'tenant',
) {
  if (!LIVE_RESERVATION.includes(r.status)) throw new ApiError('invalid_state', `A ${r.status.replace('_', ' ')} reservation takes no guest passes`);
  const w = await stayWindow(ctx, r);
  const now = nowIso(ctx);
  const validFrom = input.validFrom ? iso(input.validFrom) : now > w.start ? now : w.start;
  const validUntil = input.validUntil ? iso(input.validUntil) : w.end;
  checkWindow(validFrom, validUntil, w);
  if (input.accessCode !== undefined && !CODE_PATTERN.test(input.accessCode))
    throw new ApiError('validation_failed', `An access code is 8 to 16 characters of ${CODE_ALPHABET}`, {
      details: [{ field: 'accessCode', message: `8 to 16 characters of ${CODE_ALPHABET}` }],
    });
  const active = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(P)
    .where(and(eq(P.customerId, r.customerId), eq(P.reservationId, r.id), eq(P.status, 'active'), gt(P.validUntil, now)))
    .get();
  if (Number(active?.n ?? 0) >= MAX_ACTIVE_PASSES[via])
    throw guestAccessErrors.fail(
      'guest_pass_limit',
      `At most ${MAX_ACTIVE_PASSES[via]} active guest passes per reservation${via === 'tenant' ? ' in the portal' : ''}`,
    );
  for (let attempt = 0; ; attempt++) {
    const row: PassRow = {
      id: newId('sgp'),
      customerId: r.customerId,
      locationId: r.locationId,
      reservationId: r.id,
      slipId: r.slipId,
      renterId: r.renterId,
      guestName: input.guestName,
      guestEmail: input.guestEmail ?? null,
      guestPhone: input.guestPhone ?? null,
      vehiclePlate: input.vehiclePlate ?? null,
      accessCode: input.accessCode ?? newCode(),
      validFrom,
      validUntil,
      permissions: input.permissions ?? DEFAULT_PERMISSIONS,
      idRequired: input.idRequired ?? false,
      status: 'active',
      revokedAt: null,
      revokedReason: null,
      idVerified: false,
      idVerifiedAt: null,
      idVerifiedBy: null,
      idType: null,
      checkInCount: 0,
      lastCheckInAt: null,
      createdVia: via,
      notes: input.notes ?? null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await commit(ctx, [ctx.db.insert(P).values(row), ...(row.guestEmail && input.notifyGuest !== false ? [codeMail(ctx, row, r, w.timezone)] : [])], {
        audit: { action: 'slip_guest_pass.create', targetType: 'slip_guest_pass', targetId: row.id, details: { reservationId: r.id, via } },
      });
      return passOut(row, now);
    } catch (err) {
      if (!isCodeTaken(err)) throw err;
      if (input.accessCode !== undefined) throw new ApiError('already_exists', 'Another active pass uses this access code');
      if (attempt >= 3) throw err;
    }
  }
}

export async function createPass(ctx: Ctx, input: z.output<typeof s.CreateBody>) {
  requirePermission(ctx, 'marina');
  const r = await getReservationRow(ctx, input.reservationId);
  return await addPass(ctx, r, input, 'staff');
}

export async function getPass(ctx: Ctx, id: string) {
  return passOut(await getPassRow(ctx, id), nowIso(ctx));
}

export async function updatePass(ctx: Ctx, id: string, input: z.output<typeof s.UpdateBody>) {
  requirePermission(ctx, 'marina');
  const p = await getPassRow(ctx, id);
  const fields = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one field to change');
  const status = statusAt(p, nowIso(ctx));
  if (status !== 'active') throw new ApiError('invalid_state', `A ${status} pass cannot be changed; create a new one`);
  const patch: Partial<PassRow> = { updatedAt: nowIso(ctx) };
  for (const k of ['guestName', 'guestEmail', 'guestPhone', 'vehiclePlate', 'permissions', 'idRequired', 'notes'] as const)
    if (input[k] !== undefined) (patch as Record<string, unknown>)[k] = input[k];
  if (input.validFrom || input.validUntil) {
    const r = await getReservationRow(ctx, p.reservationId);
    patch.validFrom = input.validFrom ? iso(input.validFrom) : p.validFrom;
    patch.validUntil = input.validUntil ? iso(input.validUntil) : p.validUntil;
    checkWindow(patch.validFrom, patch.validUntil, await stayWindow(ctx, r));
  }
  for (let attempt = 0; ; attempt++) {
    if (input.regenerateCode) patch.accessCode = newCode();
    try {
      await commit(
        ctx,
        [
          ctx.db
            .update(P)
            .set(patch)
            .where(and(eq(P.id, p.id), eq(P.customerId, p.customerId), eq(P.status, 'active'))),
        ],
        { audit: { action: 'slip_guest_pass.update', targetType: 'slip_guest_pass', targetId: p.id, details: { fields } } },
      );
      break;
    } catch (err) {
      if (!isCodeTaken(err) || attempt >= 3) throw err;
    }
  }
  return passOut(await getPassRow(ctx, p.id), nowIso(ctx));
}

export async function deletePass(ctx: Ctx, id: string) {
  requirePermission(ctx, 'marina');
  const p = await getPassRow(ctx, id);
  await commit(ctx, [ctx.db.delete(P).where(and(eq(P.id, p.id), eq(P.customerId, p.customerId)))], {
    audit: { action: 'slip_guest_pass.delete', targetType: 'slip_guest_pass', targetId: p.id, details: { reservationId: p.reservationId } },
  });
  return { id: p.id, deleted: true as const };
}

/** Revokes an active pass at once; a pass that is not active is answered unchanged. */
export async function revokeRow(ctx: Ctx, p: PassRow, reason: string) {
  const now = nowIso(ctx);
  if (p.status !== 'active') return passOut(p, now);
  await commit(
    ctx,
    [
      ctx.db
        .update(P)
        .set({ status: 'revoked', revokedAt: now, revokedReason: reason, updatedAt: now })
        .where(and(eq(P.id, p.id), eq(P.customerId, p.customerId), eq(P.status, 'active'))),
    ],
    { audit: { action: 'slip_guest_pass.revoke', targetType: 'slip_guest_pass', targetId: p.id, details: { reason } } },
  );
  return passOut(await getPassRow(ctx, p.id), now);
}

export async function revokePass(ctx: Ctx, id: string, input: { reason?: string }) {
  requirePermission(ctx, 'marina');
  return await revokeRow(ctx, await getPassRow(ctx, id), input.reason ? `revoked_by_staff: ${input.reason}` : 'revoked_by_staff');
}

/** What a pass is worth right now, with its reservation read live: a pass dies with a reservation that ended. */
async function judge(ctx: Ctx, p: PassRow): Promise<{ result: VerifyResult; reason: string | null; r: ReservationRow | null }> {
  const r = (await reservationRowsByIds(ctx, [p.reservationId]))[0] ?? null;
  const now = nowIso(ctx);
  if (p.status === 'revoked') return { result: 'revoked', reason: p.revokedReason ?? 'revoked_by_staff', r };
  if (!r) return { result: 'revoked', reason: 'reservation_deleted', r };
  if (!LIVE_RESERVATION.includes(r.status)) return { result: 'revoked', reason: `reservation_${r.status}`, r };
  if (statusAt(p, now) === 'expired') return { result: 'expired', reason: 'window_ended', r };
  if (p.validFrom > now) return { result: 'not_yet_valid', reason: 'window_not_started', r };
  return { result: 'valid', reason: null, r };
}

async function verificationOf(ctx: Ctx, p: PassRow) {
  const j = await judge(ctx, p);
  const unit = j.r ? (await slipRowsByIds(ctx, [j.r.slipId]))[0] : undefined;
  return {
    valid: j.result === 'valid',
    result: j.result,
    reason: j.reason,
    pass: passOut(p, nowIso(ctx)),
    reservation: {
      id: p.reservationId,
      reservationNumber: j.r?.reservationNumber ?? '',
      status: j.r?.status ?? 'deleted',
      unitNumber: unit?.unitNumber ?? null,
      vesselName: j.r?.boat.vesselName ?? '',
      renterName: j.r ? `${j.r.renter.firstName} ${j.r.renter.lastName}` : '',
    },
  };
}

/**
 * GET /slips/guest-access/verify/{accessCode}: valid, not yet valid, expired and revoked are
 * answered distinctly (200); an unknown code is 404 and counts against the credential: after
 * VERIFY_MISS_LIMIT unknown codes in the window every verification answers 429 until it ends.
 */
export async function verifyCode(ctx: Ctx, accessCode: string) {
  const customerId = tenantOf(ctx);
  const ns = ctx.env.RATE_LIMITER;
  const misses = ns.get(ns.idFromName(`guest-verify-miss:${ctx.principal.credentialId}`));
  const state = await misses.peek(VERIFY_MISS_LIMIT, VERIFY_MISS_WINDOW_MS);
  const refuse = (reset: number) => {
    // The limiter's window is real time (a rate limit), so is the wait it asks for.
    const retryAfter = Math.max(1, reset - Math.floor(wallClock.now() / 1000));
    return new ApiError('rate_limited', `Too many unknown access codes; retry in ${retryAfter}s`, { headers: { 'Retry-After': String(retryAfter) } });
  };
  if (!state.allowed) throw refuse(state.reset);
  const code = accessCode.trim().toUpperCase();
  const rows = CODE_PATTERN.test(code)
    ? await ctx.db
        .select()
        .from(P)
        .where(and(eq(P.customerId, customerId), eq(P.accessCode, code)))
        .orderBy(desc(P.createdAt))
        .limit(5)
        .all()
    : [];
  // The active pass with the code, else the latest one that had it.
  const p = rows.find((x) => x.status === 'active') ?? rows[0];
  if (!p) {
    const hit = await misses.hit(VERIFY_MISS_LIMIT, VERIFY_MISS_WINDOW_MS);
    if (!hit.allowed) throw refuse(hit.reset);
    throw notFound('Guest pass');
  }
  return await verificationOf(ctx, p);
}

export async function checkInGuest(ctx: Ctx, id: string, input: { note?: string }) {
  const p = await getPassRow(ctx, id);
  const v = await judge(ctx, p);
  if (v.result !== 'valid')
    throw guestAccessErrors.fail('guest_pass_not_valid', `The pass is ${v.result.replace(/_/g, ' ')}${v.reason ? ` (${v.reason})` : ''}`, {
      extra: { result: v.result, reason: v.reason },
    });
  if (p.idRequired && !p.idVerified) throw guestAccessErrors.fail('guest_id_not_verified', "Check the guest's ID first (POST .../verify-id)");
  const now = nowIso(ctx);
  await commit(
    ctx,
    [
      ctx.db
        .update(P)
        .set({ checkInCount: sql`${P.checkInCount} + 1`, lastCheckInAt: now, updatedAt: now })
        .where(and(eq(P.id, p.id), eq(P.customerId, p.customerId))),
    ],
    { audit: { action: 'slip_guest_pass.check_in', targetType: 'slip_guest_pass', targetId: p.id, details: { note: input.note ?? null } } },
  );
  return passOut(await getPassRow(ctx, p.id), now);
}

export async function verifyGuestId(ctx: Ctx, id: string, input: { idType: string; note?: string }) {
  const p = await getPassRow(ctx, id);
  if (p.status === 'revoked') throw new ApiError('invalid_state', 'The pass is revoked');
  const now = nowIso(ctx);
  const by = ctx.principal.userId ?? ctx.principal.credentialId;
  await commit(
    ctx,
    [
      ctx.db
        .update(P)
        .set({ idVerified: true, idVerifiedAt: now, idVerifiedBy: by, idType: input.idType, updatedAt: now })
        .where(and(eq(P.id, p.id), eq(P.customerId, p.customerId))),
    ],
    {
      audit: {
        action: 'slip_guest_pass.verify_id',
        targetType: 'slip_guest_pass',
        targetId: p.id,
        details: { idType: input.idType, note: input.note ?? null },
      },
    },
  );
  return passOut(await getPassRow(ctx, p.id), now);
}

export async function expireLocationPasses(ctx: Ctx, input: { locationId: string }) {
  requirePermission(ctx, 'marina');
  const customerId = tenantOf(ctx);
  await getLocationInTenant(ctx, input.locationId);
  const now = nowIso(ctx);
  const res = await ctx.db
    .update(P)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(P.customerId, customerId), eq(P.locationId, input.locationId), eq(P.status, 'active'), lte(P.validUntil, now)))
    .run();
  const expired = Number((res as { meta?: { changes?: number } }).meta?.changes ?? 0);
  if (expired) await commit(ctx, [], { audit: { action: 'slip_guest_pass.expire', targetType: 'location', targetId: input.locationId, details: { expired } } });
  return { locationId: input.locationId, expired };
}

/** Hook: the reservation ended (cancelled, checked out, hold expired): its active passes are revoked at once. */
export async function onReservationEnded(ctx: Ctx, e: SlipReservationEnded) {
  const now = nowIso(ctx);
  await ctx.db
    .update(P)
    .set({ status: 'revoked', revokedAt: now, revokedReason: `reservation_${e.status}`, updatedAt: now })
    .where(and(eq(P.customerId, e.customerId), eq(P.reservationId, e.reservationId), eq(P.status, 'active')))
    .run();
}

/** Hook: a deleted reservation takes its passes with it. */
export async function onReservationDeleted(ctx: Ctx, e: SlipReservationDeleted) {
  await ctx.db
    .delete(P)
    .where(and(eq(P.customerId, e.customerId), eq(P.reservationId, e.reservationId)))
    .run();
}

/** Hook: the reservation's detail view lists its passes. */
export async function onReservationDetail(ctx: Ctx, d: SlipReservationDetail) {
  const rows = await ctx.db
    .select()
    .from(P)
    .where(and(eq(P.customerId, d.customerId), eq(P.reservationId, d.reservationId)))
    .orderBy(desc(P.createdAt))
    .limit(100)
    .all();
  const now = nowIso(ctx);
  d.guestPasses.push(
    ...rows.map((p) => ({
      id: p.id,
      guestName: p.guestName,
      accessCode: p.accessCode,
      status: statusAt(p, now),
      validFrom: p.validFrom,
      validUntil: p.validUntil,
      checkInCount: p.checkInCount,
    })),
  );
}

/** Cron (every 5 minutes, on the clock): active passes in scope past their window become `expired`. */
export async function sweepExpiredPasses(ctx: Ctx) {
  const now = nowIso(ctx);
  const res = await ctx.db
    .update(P)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(P.status, 'active'), lte(P.validUntil, now), inJobScope(ctx, P.customerId)))
    .run();
  return { expired: Number((res as { meta?: { changes?: number } }).meta?.changes ?? 0) };
}

/** The sweep's next due instant (ms): the first active pass in scope to end after the clock's now, or null. */
export async function nextPassExpiry(ctx: Ctx): Promise<number | null> {
  return nextDueAt(ctx, { table: P, due: P.validUntil, customer: P.customerId }, eq(P.status, 'active'));
}
