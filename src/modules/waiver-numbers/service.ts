// The waiver numbers module's face: it defines the writes (create, patch, delete, complete, each under a
// version guard); reads in queries.ts, views in views.ts, PINs in pin.ts. Other modules use it for:
// - waiver signing and links (waivers): completionStatements, isVersionConflict, isExpired, normalizePin, pinExpiryText, publicWaiverNumberOut, WaiverNumberRow
// - the tests: patchWaiverNumber, PIN_TTL_DAYS
import { and, eq, ne } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { waiverNumbers } from '../../db/schema/waivers';
import { waiverSignedStmt } from '../renters/service';
import { generateNumber, generatePin, PIN_TTL_DAYS } from './pin';
import { checkRefs, getWaiverNumberInTenant } from './queries';
import { waiverNumberOut, type Status, type WaiverNumberRow } from './views';
import { nowDate, nowIso, nowMs } from '../../lib/clock';

export { pinExpiryText } from './queries';
export { isExpired, publicWaiverNumberOut, type WaiverNumberRow } from './views';
export { normalizePin, PIN_TTL_DAYS } from './pin';

/** The batch failed because the version guard trigger saw a stale version. */
export function isVersionConflict(err: unknown): boolean {
  const e = err as { message?: string; cause?: unknown };
  return /version_conflict/.test(`${e?.message ?? ''} ${String(e?.cause ?? '')}`);
}

function uniqueViolation(err: unknown): 'pin' | 'number' | null {
  const e = err as { message?: string; cause?: unknown };
  const msg = `${e?.message ?? ''} ${String(e?.cause ?? '')}`;
  if (/UNIQUE constraint failed: waiver_numbers\.pin/.test(msg)) return 'pin';
  if (/UNIQUE constraint failed: waiver_numbers\.customer_id, waiver_numbers\.waiver_number/.test(msg)) return 'number';
  return null;
}

export interface CreateInput {
  customerId: string;
  waiverNumber?: string;
  locationId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  dob?: string;
  address?: Record<string, unknown>;
  assignTo?: string;
  assetId?: string;
  transactionId?: string;
  renterId?: string;
  templateId?: string;
  rawData?: Record<string, unknown>;
}

export async function createWaiverNumber(ctx: Ctx, input: CreateInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  await checkRefs(ctx, input);
  if (input.waiverNumber) {
    const exists = await ctx.db
      .select({ id: waiverNumbers.id })
      .from(waiverNumbers)
      .where(and(eq(waiverNumbers.customerId, customerId), eq(waiverNumbers.waiverNumber, input.waiverNumber), ne(waiverNumbers.status, 'DELETED')))
      .get();
    if (exists) throw new ApiError('already_exists', `Waiver number ${input.waiverNumber} already exists`);
  }
  const now = nowDate(ctx);
  for (let attempt = 0; ; attempt++) {
    const row: WaiverNumberRow = {
      id: newId('wn'),
      customerId,
      waiverNumber: input.waiverNumber ?? generateNumber(),
      pin: generatePin(),
      pinExpiresAt: new Date(now.getTime() + PIN_TTL_DAYS * 86_400_000).toISOString(),
      locationId: input.locationId ?? null,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      email: input.email ?? null,
      phone: input.phone ?? null,
      dob: input.dob ?? null,
      address: input.address ?? null,
      assignTo: input.assignTo ?? null,
      assetId: input.assetId ?? null,
      transactionId: input.transactionId ?? null,
      renterId: input.renterId ?? null,
      templateId: input.templateId ?? null,
      rawData: input.rawData ?? null,
      status: 'PENDING',
      waiverUrl: null,
      signatureId: null,
      completionData: null,
      completedAt: null,
      deletedAt: null,
      version: 1,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    try {
      await commit(ctx, [ctx.db.insert(waiverNumbers).values(row)], {
        audit: {
          action: 'waiver_number.create',
          targetType: 'waiver_number',
          targetId: row.waiverNumber,
          details: { transactionId: row.transactionId, locationId: row.locationId },
        },
      });
      return waiverNumberOut(row, nowMs(ctx));
    } catch (err) {
      const which = uniqueViolation(err);
      if (which === 'number' && input.waiverNumber) throw new ApiError('already_exists', `Waiver number ${input.waiverNumber} already exists`);
      // A generated PIN or number collided with another one: draw again.
      if (which && attempt < 4) continue;
      throw err;
    }
  }
}

/**
 * The version a client sent back (`expectedVersion`) is opaque: it matches only when it is exactly
 * the `version` string the API answered (a number is taken as its decimal string).
 */
export type ExpectedVersion = string | number;
const isCurrentVersion = (row: WaiverNumberRow, expected: ExpectedVersion) => String(expected) === String(row.version);

/**
 * Runs a versioned write: `build` gets the current row and returns the statements (which must set
 * `version = row.version + 1`). If another writer got in first the version guard rolls the batch
 * back; with `expectedVersion` that is a 409, without it the write is retried on a fresh read.
 */
async function versionedWrite<T>(
  ctx: Ctx,
  waiverNumber: string,
  expectedVersion: ExpectedVersion | undefined,
  build: (row: WaiverNumberRow) => Promise<{ statements: Stmt[]; audit: Parameters<typeof commit>[2]; result: (row: WaiverNumberRow) => T }>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const row = await getWaiverNumberInTenant(ctx, waiverNumber);
    if (expectedVersion !== undefined && !isCurrentVersion(row, expectedVersion)) {
      throw new ApiError(
        'version_conflict',
        `The waiver number was modified by another user (version ${row.version}, you sent ${expectedVersion}); read it again`,
        { extra: { currentVersion: String(row.version) } },
      );
    }
    const { statements, audit, result } = await build(row);
    try {
      await commit(ctx, statements, audit);
    } catch (err) {
      if (!isVersionConflict(err)) throw err;
      if (expectedVersion !== undefined || attempt >= 4)
        throw new ApiError('version_conflict', 'The waiver number was modified by another request at the same time; read it again');
      continue;
    }
    return result(await getWaiverNumberInTenant(ctx, waiverNumber).catch(() => row));
  }
}

const whereRow = (row: WaiverNumberRow) => and(eq(waiverNumbers.id, row.id), eq(waiverNumbers.customerId, row.customerId));

export async function patchWaiverNumber(
  ctx: Ctx,
  waiverNumber: string,
  input: {
    firstName?: string | null;
    lastName?: string | null;
    email?: string | null;
    phone?: string | null;
    dob?: string | null;
    address?: Record<string, unknown> | null;
    assignTo?: string | null;
    assetId?: string | null;
    status?: Status;
    renterId?: string | null;
    waiverUrl?: string | null;
    templateId?: string | null;
    expectedVersion?: ExpectedVersion;
  },
) {
  const fields = (['firstName', 'lastName', 'email', 'phone', 'dob', 'address', 'assignTo', 'assetId', 'renterId', 'waiverUrl', 'templateId'] as const).filter(
    (k) => input[k] !== undefined,
  );
  if (!fields.length && input.status === undefined) {
    throw new ApiError(
      'no_changes',
      'Give at least one field to update (firstName, lastName, email, phone, dob, address, assignTo, assetId, status, renterId, waiverUrl, templateId)',
    );
  }
  await checkRefs(ctx, { renterId: input.renterId, templateId: input.templateId });
  return versionedWrite(ctx, waiverNumber, input.expectedVersion, async (row) => {
    const now = nowIso(ctx);
    const set: Partial<WaiverNumberRow> = { version: row.version + 1, updatedAt: now };
    for (const k of fields) (set as Record<string, unknown>)[k] = input[k];
    if (input.status !== undefined && input.status !== row.status) {
      if (row.status !== 'PENDING') throw new ApiError('not_pending', `The waiver number is ${row.status}; only a pending waiver number changes status`);
      set.status = input.status;
      set.pin = null;
      if (input.status === 'COMPLETED') set.completedAt = now;
    }
    return {
      statements: [ctx.db.update(waiverNumbers).set(set).where(whereRow(row))],
      audit: {
        audit: {
          action: 'waiver_number.update',
          targetType: 'waiver_number',
          targetId: row.waiverNumber,
          details: { fields, status: set.status, version: set.version },
        },
      },
      result: (r: WaiverNumberRow) => waiverNumberOut(r, nowMs(ctx)),
    };
  });
}

export async function deleteWaiverNumber(ctx: Ctx, waiverNumber: string) {
  return versionedWrite(ctx, waiverNumber, undefined, async (row) => {
    if (row.status !== 'PENDING') throw new ApiError('not_pending', `The waiver number is ${row.status}; only a pending waiver number can be deleted`);
    const now = nowIso(ctx);
    return {
      statements: [
        ctx.db
          .update(waiverNumbers)
          .set({ status: 'DELETED', pin: null, deletedAt: now, version: row.version + 1, updatedAt: now })
          .where(whereRow(row)),
      ],
      audit: { audit: { action: 'waiver_number.delete', targetType: 'waiver_number', targetId: row.waiverNumber } },
      result: () => ({ success: true, waiverNumber: row.waiverNumber, deletedAt: now }),
    };
  });
}

/**
 * The statements that complete a pending waiver number: status COMPLETED, PIN removed, the
 * signed waiver recorded, version bumped (the guard trigger rolls the caller's whole batch back
 * if the row changed since it was read). With `updateRenter` the renter gets the waiver URL and
 * any missing phone or date of birth. Shared by PATCH .../complete and waiver signing.
 */
export function completionStatements(
  ctx: Ctx,
  row: WaiverNumberRow,
  input: { renterId: string | null; waiverUrl: string; signatureId?: string | null; completionData?: Record<string, unknown> | null; updateRenter?: boolean },
): Stmt[] {
  if (row.status !== 'PENDING') throw new ApiError('not_pending', `The waiver number is ${row.status}, not pending`);
  const now = nowIso(ctx);
  const out: Stmt[] = [
    ctx.db
      .update(waiverNumbers)
      .set({
        status: 'COMPLETED',
        pin: null,
        renterId: input.renterId ?? row.renterId,
        waiverUrl: input.waiverUrl,
        signatureId: input.signatureId ?? null,
        completionData: input.completionData ?? null,
        completedAt: now,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(whereRow(row)),
  ];
  const renterId = input.renterId ?? row.renterId;
  if (renterId && input.updateRenter !== false) {
    out.push(waiverSignedStmt(ctx, { renterId, customerId: row.customerId, waiverUrl: input.waiverUrl, phone: row.phone, dob: row.dob, at: now }));
  }
  return out;
}

export async function completeWaiverNumber(
  ctx: Ctx,
  waiverNumber: string,
  input: {
    renterId: string;
    waiverUrl: string;
    signatureId?: string;
    completionData?: Record<string, unknown>;
    expectedVersion?: ExpectedVersion;
    updateRenter?: boolean;
  },
) {
  await checkRefs(ctx, { renterId: input.renterId });
  return versionedWrite(ctx, waiverNumber, input.expectedVersion, async (row) => ({
    statements: completionStatements(ctx, row, input),
    audit: {
      audit: {
        action: 'waiver_number.complete',
        targetType: 'waiver_number',
        targetId: row.waiverNumber,
        details: { renterId: input.renterId, signatureId: input.signatureId ?? null, version: row.version + 1 },
      },
    },
    result: (r: WaiverNumberRow) => waiverNumberOut(r, nowMs(ctx)),
  }));
}
