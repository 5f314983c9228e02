import { and, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId, randomString } from '../../lib/ids';
import type { Stmt } from '../../db/client';
import { waiverNumbers, waiverTemplates } from '../../db/schema/waivers';
import { renters } from '../../db/schema/bookings';
import { locations } from '../../db/schema/locations';
import { sqlJsonAppendUnique } from '../../db/json';

export type WaiverNumberRow = typeof waiverNumbers.$inferSelect;
type Status = 'PENDING' | 'COMPLETED' | 'CANCELLED';

/** A PIN stops working this many days after the waiver number was created (410 `expired`). */
export const PIN_TTL_DAYS = 30;
/** No 0/O or 1/I/L: PINs are read aloud and typed from paper. 31^8 ≈ 8.5e11 combinations. */
const PIN_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PIN_LENGTH = 8;
const NUMBER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const generatePin = () => randomString(PIN_LENGTH, PIN_ALPHABET);
export const normalizePin = (pin: string) => pin.trim().toUpperCase().replace(/[\s-]/g, '');
const generateNumber = () => `WN-${randomString(10, NUMBER_ALPHABET)}`;

export const isExpired = (r: Pick<WaiverNumberRow, 'pinExpiresAt'>, now = Date.now()) => Date.parse(r.pinExpiresAt) <= now;

export function waiverNumberOut(r: WaiverNumberRow) {
  return {
    waiverNumber: r.waiverNumber,
    pin: r.pin,
    customerId: r.customerId,
    locationId: r.locationId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    dob: r.dob,
    address: r.address ?? null,
    assignTo: r.assignTo,
    assetId: r.assetId,
    transactionId: r.transactionId,
    renterId: r.renterId,
    templateId: r.templateId,
    rawData: r.rawData ?? null,
    status: r.status,
    expiresAt: r.pinExpiresAt,
    expired: r.status === 'PENDING' && isExpired(r),
    waiverUrl: r.waiverUrl,
    signatureId: r.signatureId,
    completionData: r.completionData ?? null,
    completedAt: r.completedAt,
    version: String(r.version),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** What a renter holding the PIN sees: no PIN, no operator notes (`rawData`), no completion data. */
export function publicWaiverNumberOut(r: WaiverNumberRow) {
  const { pin: _pin, rawData: _raw, completionData: _cd, renterId: _rid, ...rest } = waiverNumberOut(r);
  return rest;
}

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

/** Tenant-scoped read by waiver number; deleted and other operators' waiver numbers answer 404. */
export async function getWaiverNumberInTenant(ctx: Ctx, waiverNumber: string, customerId = tenantOf(ctx)): Promise<WaiverNumberRow> {
  const row = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(eq(waiverNumbers.customerId, customerId), eq(waiverNumbers.waiverNumber, waiverNumber), ne(waiverNumbers.status, 'DELETED')))
    .get();
  if (!row) throw notFound('Waiver number');
  return row;
}

async function checkRefs(ctx: Ctx, customerId: string, refs: { locationId?: string | null; templateId?: string | null; renterId?: string | null }) {
  if (refs.locationId) {
    const l = await ctx.db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.id, refs.locationId), eq(locations.customerId, customerId)))
      .get();
    if (!l) throw notFound('Location');
  }
  if (refs.templateId) {
    const t = await ctx.db
      .select({ id: waiverTemplates.id, deletedAt: waiverTemplates.deletedAt })
      .from(waiverTemplates)
      .where(and(eq(waiverTemplates.id, refs.templateId), eq(waiverTemplates.customerId, customerId)))
      .get();
    if (!t || t.deletedAt) throw notFound('Waiver template');
  }
  if (refs.renterId) {
    const r = await ctx.db
      .select({ id: renters.id, deletedAt: renters.deletedAt })
      .from(renters)
      .where(and(eq(renters.id, refs.renterId), eq(renters.customerId, customerId)))
      .get();
    if (!r || r.deletedAt) throw notFound('Renter');
  }
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
  await checkRefs(ctx, customerId, input);
  if (input.waiverNumber) {
    const exists = await ctx.db
      .select({ id: waiverNumbers.id })
      .from(waiverNumbers)
      .where(and(eq(waiverNumbers.customerId, customerId), eq(waiverNumbers.waiverNumber, input.waiverNumber), ne(waiverNumbers.status, 'DELETED')))
      .get();
    if (exists) throw new ApiError('already_exists', `Waiver number ${input.waiverNumber} already exists`);
  }
  const now = new Date();
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
      return waiverNumberOut(row);
    } catch (err) {
      const which = uniqueViolation(err);
      if (which === 'number' && input.waiverNumber) throw new ApiError('already_exists', `Waiver number ${input.waiverNumber} already exists`);
      // A generated PIN or number collided with another one: draw again.
      if (which && attempt < 4) continue;
      throw err;
    }
  }
}

export async function listWaiverNumbers(
  ctx: Ctx,
  q: { transactionId?: string; customerId?: string; locationId?: string; status?: Status; limit: number; offset: number },
) {
  const customerId = ownCustomer(ctx, q.customerId);
  const conds: SQL[] = [eq(waiverNumbers.customerId, customerId), ne(waiverNumbers.status, 'DELETED')];
  if (q.transactionId) conds.push(eq(waiverNumbers.transactionId, q.transactionId));
  if (q.locationId) conds.push(eq(waiverNumbers.locationId, q.locationId));
  if (q.status) conds.push(eq(waiverNumbers.status, q.status));
  const where = and(...conds);
  const [{ n }] = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(waiverNumbers)
    .where(where)
    .all();
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(where)
    .orderBy(desc(waiverNumbers.createdAt), desc(waiverNumbers.id))
    .limit(q.limit)
    .offset(q.offset)
    .all();
  return { data: rows.map(waiverNumberOut), total: Number(n), limit: q.limit, offset: q.offset };
}

/** The pending waiver number of a PIN (public). 404 unknown or used PIN, 410 expired. */
export async function findPendingByPin(ctx: Ctx, pin: string, opts: { customerId?: string; locationId?: string } = {}): Promise<WaiverNumberRow> {
  const conds: SQL[] = [eq(waiverNumbers.pin, normalizePin(pin))];
  if (opts.customerId) conds.push(eq(waiverNumbers.customerId, opts.customerId));
  if (opts.locationId) conds.push(eq(waiverNumbers.locationId, opts.locationId));
  const rows = await ctx.db
    .select()
    .from(waiverNumbers)
    .where(and(...conds))
    .limit(2)
    .all();
  if (rows.length !== 1 || rows[0].status !== 'PENDING') throw new ApiError('not_found', 'Invalid PIN, or the waiver was already completed');
  if (isExpired(rows[0])) throw new ApiError('expired', `This PIN expired on ${rows[0].pinExpiresAt}; ask the operator for a new waiver number`);
  return rows[0];
}

export async function validatePin(ctx: Ctx, pin: string) {
  return publicWaiverNumberOut(await findPendingByPin(ctx, pin));
}

/**
 * Runs a versioned write: `build` gets the current row and returns the statements (which must set
 * `version = row.version + 1`). If another writer got in first the version guard rolls the batch
 * back; with `expectedVersion` that is a 409, without it the write is retried on a fresh read.
 */
async function versionedWrite<T>(
  ctx: Ctx,
  waiverNumber: string,
  expectedVersion: number | undefined,
  build: (row: WaiverNumberRow) => Promise<{ statements: Stmt[]; audit: Parameters<typeof commit>[2]; result: (row: WaiverNumberRow) => T }>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const row = await getWaiverNumberInTenant(ctx, waiverNumber);
    if (expectedVersion !== undefined && expectedVersion !== row.version) {
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
    expectedVersion?: number;
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
  await checkRefs(ctx, tenantOf(ctx), { renterId: input.renterId, templateId: input.templateId });
  return versionedWrite(ctx, waiverNumber, input.expectedVersion, async (row) => {
    const now = new Date().toISOString();
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
      result: waiverNumberOut,
    };
  });
}

export async function deleteWaiverNumber(ctx: Ctx, waiverNumber: string) {
  return versionedWrite(ctx, waiverNumber, undefined, async (row) => {
    if (row.status !== 'PENDING') throw new ApiError('not_pending', `The waiver number is ${row.status}; only a pending waiver number can be deleted`);
    const now = new Date().toISOString();
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
  const now = new Date().toISOString();
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
    out.push(
      ctx.db
        .update(renters)
        .set({
          waiversSignedUrls: sqlJsonAppendUnique(renters.waiversSignedUrls, [input.waiverUrl]),
          ...(row.phone ? { phone: sql`coalesce(${renters.phone}, ${row.phone})` } : {}),
          ...(row.dob ? { dob: sql`coalesce(${renters.dob}, ${row.dob})` } : {}),
          updatedAt: now,
        })
        .where(and(eq(renters.id, renterId), eq(renters.customerId, row.customerId))),
    );
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
    expectedVersion?: number;
    updateRenter?: boolean;
  },
) {
  await checkRefs(ctx, tenantOf(ctx), { renterId: input.renterId });
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
    result: waiverNumberOut,
  }));
}
