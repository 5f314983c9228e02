import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import type { DomainEvent } from '../../lib/commit';
import { insertRows, type Stmt } from '../../db/client';
import { newId } from '../../lib/ids';
import { renters } from '../../db/schema/bookings';
import { sqlJsonAppend, sqlJsonAppendUnique, sqlJsonMerge } from '../../db/json';
import { findRenterByEmail, normalizeEmail } from './queries';
import type { RenterRow } from './views';
import { nowIso } from '../../lib/clock';

/** What the renter upsert takes (POST /renters, the booking commit, memberships, waivers). */
export interface RenterUpsertInput {
  /** The operator the renter belongs to. The caller has already checked it (ownCustomer or a resolved location). */
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null;
  address?: unknown;
  dob?: string | null;
  additional_info?: Record<string, unknown>;
  /** Appended to the renter's `transactions`. */
  transactions?: unknown[];
  /** Appended (without duplicates) to the renter's `waivers_signed_urls`. */
  waivers_signed_urls?: string[];
  /** Merged into the renter's `id_verifications` (JSON merge patch: nested objects merge, null removes). */
  id_verifications?: Record<string, unknown>;
  paymentCustomerId?: string | null;
}

export interface RenterUpsert {
  renterId: string;
  created: boolean;
  statements: Stmt[];
  events: DomainEvent[];
}

/** The fields sent with `customer.created` webhooks. */
export function renterEventData(r: Pick<RenterRow, 'id' | 'customerId' | 'firstName' | 'lastName' | 'email' | 'phone'>) {
  return { id: r.id, renterId: r.id, customerId: r.customerId, firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone };
}

/**
 * Finds the renter by (customerId, lowercased e-mail) and returns the INSERT or UPDATE that
 * creates or refreshes it, without running it, so the caller can put it in its own `commit()`
 * batch. A creation carries a `customer.created` event. On update the names are replaced, phone,
 * address, dob and payment customer are replaced when given, `additional_info` and
 * `id_verifications` are merged, `transactions` and `waivers_signed_urls` are appended in SQL
 * (concurrent appends are never lost), and a deleted renter is revived.
 *
 * Two first-time upserts of one e-mail racing each other: the second batch fails on the unique
 * index (customer_id, email); `isRenterEmailConflict(err)` recognises it and a retry of the
 * upsert then finds the renter and updates it.
 */
export async function renterUpsert(ctx: Ctx, input: RenterUpsertInput, read?: { existing: RenterRow | undefined }): Promise<RenterUpsert> {
  const email = normalizeEmail(input.email);
  // `read`: the caller read the renter in one of its batches (`renterByEmailStatement`).
  const existing = read ? read.existing : await findRenterByEmail(ctx, input.customerId, email);
  if (!existing) {
    const id = newId('rnt');
    const now = nowIso(ctx);
    const row: RenterRow = {
      id,
      customerId: input.customerId,
      firstName: input.firstName.trim(),
      lastName: input.lastName.trim(),
      email,
      phone: input.phone ?? null,
      address: (input.address ?? null) as RenterRow['address'],
      dob: input.dob ?? null,
      licenseNumber: licenseOf(input.id_verifications, input.additional_info),
      waiversSignedUrls: [...new Set(input.waivers_signed_urls ?? [])],
      idVerifications: input.id_verifications ?? {},
      transactions: input.transactions ?? [],
      additionalInfo: input.additional_info ?? {},
      paymentCustomerId: input.paymentCustomerId ?? null,
      status: 'active',
      riskScore: null,
      notes: [],
      loyaltyPoints: 0,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    return {
      renterId: id,
      created: true,
      statements: [insertRows(ctx.db, renters, row)],
      events: [{ type: 'customer.created', customerId: input.customerId, data: renterEventData(row) }],
    };
  }
  const set: Record<string, unknown> = { firstName: input.firstName.trim(), lastName: input.lastName.trim(), updatedAt: nowIso(ctx) };
  if (input.phone !== undefined) set.phone = input.phone;
  if (input.address !== undefined) set.address = input.address;
  if (input.dob !== undefined) set.dob = input.dob;
  if (input.paymentCustomerId !== undefined && input.paymentCustomerId !== null) set.paymentCustomerId = input.paymentCustomerId;
  if (input.additional_info && Object.keys(input.additional_info).length) set.additionalInfo = sqlJsonMerge(renters.additionalInfo, input.additional_info);
  if (input.id_verifications && Object.keys(input.id_verifications).length) set.idVerifications = sqlJsonMerge(renters.idVerifications, input.id_verifications);
  if (input.transactions?.length) set.transactions = sqlJsonAppend(renters.transactions, input.transactions);
  if (input.waivers_signed_urls?.length) set.waiversSignedUrls = sqlJsonAppendUnique(renters.waiversSignedUrls, input.waivers_signed_urls);
  const license = licenseOf(input.id_verifications, input.additional_info);
  if (license) set.licenseNumber = license;
  if (existing.deletedAt) {
    set.deletedAt = null;
    set.status = 'active';
  }
  return {
    renterId: existing.id,
    created: false,
    statements: [
      ctx.db
        .update(renters)
        .set(set)
        .where(and(eq(renters.id, existing.id), eq(renters.customerId, existing.customerId))),
    ],
    events: [],
  };
}

/** A licence number given in the id verifications or additional info (searchable in GET /renters). */
function licenseOf(...sources: (Record<string, unknown> | undefined)[]): string | null {
  for (const s of sources) {
    if (!s) continue;
    for (const k of ['licenseNumber', 'license_number', 'driversLicense', 'boatingLicense', 'license']) {
      const v = s[k];
      if (typeof v === 'string' && v.trim()) return v.trim().slice(0, 64);
      if (typeof v === 'number') return String(v);
    }
  }
  return null;
}

/** A D1 batch failed because another request created the same renter e-mail first. */
export function isRenterEmailConflict(err: unknown): boolean {
  const msg = String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '');
  return /UNIQUE constraint failed: renters\.customer_id, renters\.email/i.test(msg);
}

/**
 * The UPDATE that records a signed waiver on a renter: the waiver URL appended to
 * `waivers_signed_urls` (once), and the phone and date of birth filled in where the renter has none.
 */
export function waiverSignedStmt(
  ctx: Ctx,
  r: { renterId: string; customerId: string; waiverUrl: string; phone?: string | null; dob?: string | null; at?: string },
): Stmt {
  return ctx.db
    .update(renters)
    .set({
      waiversSignedUrls: sqlJsonAppendUnique(renters.waiversSignedUrls, [r.waiverUrl]),
      ...(r.phone ? { phone: sql`coalesce(${renters.phone}, ${r.phone})` } : {}),
      ...(r.dob ? { dob: sql`coalesce(${renters.dob}, ${r.dob})` } : {}),
      updatedAt: r.at ?? nowIso(ctx),
    })
    .where(and(eq(renters.id, r.renterId), eq(renters.customerId, r.customerId)));
}
