import { and, asc, desc, eq, isNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import Papa from 'papaparse';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toDollars } from '../../lib/money';
import { addDays, isoDate } from '../../lib/time';
import { ledgerEntries, renters } from '../../db/schema/bookings';
import { payments, PaymentError } from '../../adapters/payments';
import {
  isRenterEmailConflict,
  normalizeEmail,
  renterBalanceCents,
  renterUpsert,
  sqlJsonAppend,
  sqlJsonMerge,
  type RenterRow,
} from './upsert';

export { renterUpsert, renterBalanceCents } from './upsert';

type Status = 'active' | 'inactive' | 'blocked';
type SortField = 'firstName' | 'lastName' | 'email' | 'createdAt' | 'updatedAt' | 'riskScore' | 'balance';

export interface Accounting {
  balanceCents: number;
  balance: number;
  chargesCents: number;
  creditsCents: number;
  entryCount: number;
  lastEntryAt: string | null;
}

export function renterOut(r: RenterRow, accounting?: Accounting) {
  return {
    id: r.id,
    customerId: r.customerId,
    firstName: r.firstName,
    lastName: r.lastName,
    email: r.email,
    phone: r.phone,
    address: r.address ?? null,
    dob: r.dob,
    licenseNumber: r.licenseNumber,
    waivers_signed_urls: r.waiversSignedUrls ?? [],
    id_verifications: r.idVerifications ?? {},
    transactions: r.transactions ?? [],
    additional_info: r.additionalInfo ?? {},
    payment_customer_id: r.paymentCustomerId,
    status: r.status,
    riskScore: r.riskScore,
    notes: r.notes ?? [],
    loyaltyPoints: r.loyaltyPoints,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(accounting ? { accounting } : {}),
  };
}

/**
 * One correlated subquery per renter row: the ledger totals as a JSON object. (A list of ids in
 * `IN (...)` would hit D1's limit of 100 bound parameters on a page of 100 renters.)
 */
const accountingSql = sql<string>`(SELECT json_object(
    'b', coalesce(sum(CASE WHEN l.affects_balance = 1 THEN l.amount END), 0),
    'c', coalesce(sum(CASE WHEN l.affects_balance = 1 AND l.amount > 0 THEN l.amount END), 0),
    'k', coalesce(-sum(CASE WHEN l.affects_balance = 1 AND l.amount < 0 THEN l.amount END), 0),
    'n', count(*),
    'l', max(l.occurred_at))
  FROM ledger_entries l WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL)`;

const balanceSql = sql<number>`(SELECT coalesce(sum(l.amount), 0) FROM ledger_entries l
  WHERE l.customer_id = renters.customer_id AND l.renter_id = renters.id AND l.deleted_at IS NULL AND l.affects_balance = 1)`;

function parseAccounting(json: string | null | undefined): Accounting {
  const o = json ? (JSON.parse(json) as { b: number; c: number; k: number; n: number; l: string | null }) : { b: 0, c: 0, k: 0, n: 0, l: null };
  return { balanceCents: o.b, balance: toDollars(o.b), chargesCents: o.c, creditsCents: o.k, entryCount: o.n, lastEntryAt: o.l };
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function searchCondition(search: string): SQL {
  const like = `%${escapeLike(search.toLowerCase())}%`;
  const parts: SQL[] = [
    sql`lower(${renters.firstName}) LIKE ${like} ESCAPE '\\'`,
    sql`lower(${renters.lastName}) LIKE ${like} ESCAPE '\\'`,
    sql`lower(${renters.firstName} || ' ' || ${renters.lastName}) LIKE ${like} ESCAPE '\\'`,
    sql`${renters.email} LIKE ${like} ESCAPE '\\'`,
    sql`lower(coalesce(${renters.licenseNumber}, '')) LIKE ${like} ESCAPE '\\'`,
    sql`coalesce(${renters.phone}, '') LIKE ${like} ESCAPE '\\'`,
  ];
  const digits = search.replace(/\D/g, '');
  if (digits.length >= 3) {
    parts.push(sql`replace(replace(replace(replace(replace(replace(coalesce(${renters.phone}, ''), ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '+', '') LIKE ${`%${digits}%`}`);
  }
  return sql`(${sql.join(parts, sql` OR `)})`;
}

interface ListFilters {
  customerId: string;
  includeAccounting?: boolean;
  search?: string;
  status?: Status;
  sortField: SortField;
  sortDirection: 'asc' | 'desc';
}

function listWhere(ctx: Ctx, f: ListFilters): SQL {
  const customerId = ownCustomer(ctx, f.customerId);
  const conds: SQL[] = [eq(renters.customerId, customerId), isNull(renters.deletedAt)];
  if (f.status) conds.push(eq(renters.status, f.status));
  if (f.search) conds.push(searchCondition(f.search));
  return and(...conds)!;
}

function listOrder(f: ListFilters): SQL[] {
  const dir = f.sortDirection === 'asc' ? asc : desc;
  const col =
    f.sortField === 'balance'
      ? balanceSql
      : f.sortField === 'email'
        ? renters.email
        : f.sortField === 'firstName'
          ? sql`lower(${renters.firstName})`
          : f.sortField === 'lastName'
            ? sql`lower(${renters.lastName})`
            : f.sortField === 'riskScore'
              ? renters.riskScore
              : f.sortField === 'updatedAt'
                ? renters.updatedAt
                : renters.createdAt;
  return [dir(col), dir(renters.id)];
}

async function selectPage(ctx: Ctx, f: ListFilters, limit: number, offset: number) {
  const rows = await ctx.db
    .select({ r: renters, acct: f.includeAccounting ? accountingSql : sql<null>`NULL` })
    .from(renters)
    .where(listWhere(ctx, f))
    .orderBy(...listOrder(f))
    .limit(limit)
    .offset(offset)
    .all();
  return rows.map((x) => renterOut(x.r, f.includeAccounting ? parseAccounting(x.acct) : undefined));
}

export async function listRenters(ctx: Ctx, q: ListFilters & { page: number; limit: number }) {
  const where = listWhere(ctx, q);
  const [{ n }] = await ctx.db.select({ n: sql<number>`count(*)` }).from(renters).where(where).all();
  const data = await selectPage(ctx, q, q.limit, (q.page - 1) * q.limit);
  return { data, pagination: { page: q.page, limit: q.limit, total: Number(n), totalPages: Math.ceil(Number(n) / q.limit) } };
}

export const EXPORT_PAGE_SIZE = 200;
export const CSV_COLUMNS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'dob',
  'status',
  'riskScore',
  'licenseNumber',
  'loyaltyPoints',
  'payment_customer_id',
  'waivers_signed_urls',
  'createdAt',
  'updatedAt',
] as const;

/** Formula-looking cells are prefixed with `'` (CSV injection); phone numbers and negative numbers are left alone. */
const FORMULA = /^(?:[=@\t\r]|[+-](?![0-9 ().-]*$))/;

function csvRow(r: ReturnType<typeof renterOut>, includeAccounting: boolean): Record<string, string | number> {
  const row: Record<string, string | number> = {};
  for (const c of CSV_COLUMNS) {
    const v = (r as Record<string, unknown>)[c];
    row[c] = v == null ? '' : Array.isArray(v) || typeof v === 'object' ? JSON.stringify(v) : (v as string | number);
  }
  if (includeAccounting) {
    row.balance = r.accounting?.balance ?? 0;
    row.balanceCents = r.accounting?.balanceCents ?? 0;
  }
  return row;
}

/**
 * The renters matching the filters as CSV (one header row, the columns of CSV_COLUMNS plus
 * `balance` and `balanceCents` with accounting) or as a JSON array. The body is a stream that
 * reads D1 one page at a time, so exports of any size use constant memory.
 */
export async function exportRenters(ctx: Ctx, q: ListFilters & { format: 'csv' | 'json' }): Promise<{ stream: ReadableStream<Uint8Array>; contentType: string; filename: string }> {
  requirePermission(ctx, 'renters');
  listWhere(ctx, q); // checks customerId before the stream starts
  const enc = new TextEncoder();
  const includeAccounting = !!q.includeAccounting;
  const fields = [...CSV_COLUMNS, ...(includeAccounting ? ['balance', 'balanceCents'] : [])];
  let offset = 0;
  let started = false;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const page = await selectPage(ctx, q, EXPORT_PAGE_SIZE, offset);
        offset += page.length;
        const last = page.length < EXPORT_PAGE_SIZE;
        let chunk = '';
        if (q.format === 'csv') {
          if (!started) chunk += Papa.unparse({ fields, data: [] }, { newline: '\r\n' }) + '\r\n';
          if (page.length) {
            chunk += Papa.unparse({ fields, data: page.map((r) => fields.map((f) => csvRow(r, includeAccounting)[f])) }, { header: false, newline: '\r\n', escapeFormulae: FORMULA }) + '\r\n';
          }
        } else {
          const body = page.map((r) => JSON.stringify(r)).join(',');
          chunk += (started ? (body ? ',' : '') : '[') + body + (last ? ']' : '');
        }
        started = true;
        if (chunk) controller.enqueue(enc.encode(chunk));
        if (last) {
          done = true;
          controller.close();
        }
      } catch (err) {
        controller.error(err);
      }
    },
  });
  const date = new Date().toISOString().slice(0, 10);
  return {
    stream,
    contentType: q.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
    filename: `renters-${date}.${q.format}`,
  };
}

export async function searchSuggestions(ctx: Ctx, q: { customerId: string; query: string; limit: number }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const rows = await ctx.db
    .select()
    .from(renters)
    .where(and(eq(renters.customerId, customerId), isNull(renters.deletedAt), searchCondition(q.query)))
    .orderBy(asc(sql`lower(${renters.lastName})`), asc(sql`lower(${renters.firstName})`), asc(renters.id))
    .limit(q.limit)
    .all();
  return {
    query: q.query,
    data: rows.map((r) => ({ id: r.id, firstName: r.firstName, lastName: r.lastName, email: r.email, phone: r.phone, label: `${r.firstName} ${r.lastName} <${r.email}>` })),
  };
}

/** Tenant-scoped read of a renter; deleted renters and other operators' renters answer 404. */
export async function getRenterInTenant(ctx: Ctx, id: string, opts: { includeDeleted?: boolean } = {}): Promise<RenterRow> {
  const conds = [eq(renters.id, id), eq(renters.customerId, tenantOf(ctx))];
  if (!opts.includeDeleted) conds.push(isNull(renters.deletedAt));
  const row = await ctx.db.select().from(renters).where(and(...conds)).get();
  if (!row) throw notFound('Renter');
  return row;
}

async function accountingOf(ctx: Ctx, r: RenterRow): Promise<Accounting> {
  const row = await ctx.db.select({ acct: accountingSql }).from(renters).where(and(eq(renters.id, r.id), eq(renters.customerId, r.customerId))).get();
  return parseAccounting(row?.acct);
}

export async function getRenter(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id);
  return renterOut(r, await accountingOf(ctx, r));
}

export async function upsertRenter(
  ctx: Ctx,
  input: {
    customerId: string;
    firstName: string;
    lastName: string;
    email: string;
    address: string | Record<string, unknown>;
    phone?: string;
    dob?: string;
    waivers_signed_urls?: string[];
    id_verifications?: Record<string, unknown>;
    transactions?: unknown[];
    additional_info?: Record<string, unknown>;
    stripe_customer_id?: string;
  },
): Promise<{ created: boolean; renter: ReturnType<typeof renterOut> }> {
  const customerId = ownCustomer(ctx, input.customerId);
  const args = {
    customerId,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    address: input.address,
    phone: input.phone,
    dob: input.dob,
    waivers_signed_urls: input.waivers_signed_urls,
    id_verifications: input.id_verifications,
    transactions: input.transactions,
    additional_info: input.additional_info,
    paymentCustomerId: input.stripe_customer_id,
  };
  for (let attempt = 0; ; attempt++) {
    const up = await renterUpsert(ctx, args);
    try {
      await commit(ctx, up.statements, {
        audit: { action: up.created ? 'renter.create' : 'renter.update', targetType: 'renter', targetId: up.renterId, details: { email: normalizeEmail(input.email), via: 'POST /renters' } },
        events: up.events,
      });
    } catch (err) {
      // Another request created this e-mail between our read and our insert: update it instead.
      if (attempt === 0 && up.created && isRenterEmailConflict(err)) continue;
      throw err;
    }
    const row = await getRenterInTenant(ctx, up.renterId);
    return { created: up.created, renter: renterOut(row) };
  }
}

export async function patchRenter(
  ctx: Ctx,
  id: string,
  input: {
    add_note?: boolean;
    note?: Record<string, unknown>;
    firstName?: string;
    lastName?: string;
    email?: string;
    phone?: string | null;
    dob?: string | null;
    address?: string | Record<string, unknown> | null;
    status?: Status;
    riskScore?: number | null;
    additional_info?: Record<string, unknown>;
    transactions?: unknown[];
  },
) {
  const existing = await getRenterInTenant(ctx, id);
  if (input.add_note === true && !input.note) throw new ApiError('bad_request', 'add_note needs a `note` object to append', { details: [{ field: 'note', message: 'note is required when add_note is true', code: 'required' }] });
  const set: Record<string, unknown> = {};
  const fields: string[] = [];
  for (const k of ['firstName', 'lastName', 'phone', 'dob', 'address', 'status', 'riskScore'] as const) {
    if (input[k] !== undefined) {
      set[k] = input[k];
      fields.push(k);
    }
  }
  if (input.email !== undefined && input.email !== existing.email) {
    const taken = await ctx.db
      .select({ id: renters.id })
      .from(renters)
      .where(and(eq(renters.customerId, existing.customerId), eq(renters.email, input.email), ne(renters.id, existing.id)))
      .get();
    if (taken) throw new ApiError('already_exists', 'Another renter of this operator already has this e-mail');
    set.email = input.email;
    fields.push('email');
  }
  if (input.additional_info && Object.keys(input.additional_info).length) {
    set.additionalInfo = sqlJsonMerge(renters.additionalInfo, input.additional_info);
    fields.push('additional_info');
  }
  if (input.transactions?.length) {
    set.transactions = sqlJsonAppend(renters.transactions, input.transactions);
    fields.push('transactions');
  }
  let noteId: string | undefined;
  if (input.note && input.add_note !== false) {
    noteId = newId('note');
    const note = { ...input.note, id: noteId, createdAt: new Date().toISOString(), createdBy: ctx.principal.userId ?? ctx.principal.credentialId, createdByName: ctx.principal.name ?? null };
    set.notes = sqlJsonAppend(renters.notes, [note]);
    fields.push('notes');
  }
  if (!fields.length) throw new ApiError('no_changes', 'Give at least one valid field to update (add_note with note, firstName, lastName, email, phone, dob, address, status, riskScore, additional_info, transactions)');
  set.updatedAt = new Date().toISOString();
  try {
    await commit(ctx, [ctx.db.update(renters).set(set).where(and(eq(renters.id, existing.id), eq(renters.customerId, existing.customerId)))], {
      audit: { action: 'renter.update', targetType: 'renter', targetId: existing.id, details: { fields, ...(noteId ? { noteId } : {}) } },
    });
  } catch (err) {
    if (isRenterEmailConflict(err)) throw new ApiError('already_exists', 'Another renter of this operator already has this e-mail');
    throw err;
  }
  return renterOut(await getRenterInTenant(ctx, existing.id), await accountingOf(ctx, existing));
}

function paymentFailure(err: unknown): never {
  if (err instanceof PaymentError) throw new ApiError(err.code === 'provider_error' ? 'payment_provider_error' : 'invalid_payment_method', err.message, { status: 400 });
  throw err;
}

/**
 * Soft-deletes the renter (hidden from lists and reads; ledger history kept; a later upsert with
 * the same e-mail revives it) and deletes its customer at the payment provider.
 */
export async function deleteRenter(ctx: Ctx, id: string) {
  requirePermission(ctx, 'renters');
  const existing = await getRenterInTenant(ctx, id);
  let paymentCustomerDeleted = false;
  if (existing.paymentCustomerId) {
    try {
      await payments(ctx.env).deleteCustomer(existing.paymentCustomerId);
      paymentCustomerDeleted = true;
    } catch (err) {
      // Already gone at the provider: nothing left to delete.
      if (!(err instanceof Error && /no such customer|resource_missing/i.test(err.message))) paymentFailure(err);
      paymentCustomerDeleted = true;
    }
  }
  const now = new Date().toISOString();
  await commit(ctx, [ctx.db.update(renters).set({ deletedAt: now, paymentCustomerId: null, updatedAt: now }).where(and(eq(renters.id, existing.id), eq(renters.customerId, existing.customerId)))], {
    audit: { action: 'renter.delete', targetType: 'renter', targetId: existing.id, details: { email: existing.email, paymentCustomerId: existing.paymentCustomerId } },
  });
  return { success: true, id: existing.id, deletedAt: now, paymentCustomerDeleted };
}

/** The renter's customer at the payment provider, created on first use (a racing creation keeps the first one). */
async function ensurePaymentCustomer(ctx: Ctx, r: RenterRow): Promise<string> {
  if (r.paymentCustomerId) return r.paymentCustomerId;
  const pay = payments(ctx.env);
  let created: string;
  try {
    created = (await pay.createCustomer({ email: r.email, name: `${r.firstName} ${r.lastName}`, metadata: { berthRenterId: r.id, berthCustomerId: r.customerId } })).id;
  } catch (err) {
    paymentFailure(err);
  }
  await commit(ctx, [ctx.db.update(renters).set({ paymentCustomerId: created }).where(and(eq(renters.id, r.id), eq(renters.customerId, r.customerId), isNull(renters.paymentCustomerId)))], {
    audit: { action: 'renter.payment_customer_create', targetType: 'renter', targetId: r.id, details: { paymentCustomerId: created } },
  });
  const after = await getRenterInTenant(ctx, r.id);
  if (after.paymentCustomerId !== created) {
    await pay.deleteCustomer(created).catch(() => undefined);
    return after.paymentCustomerId!;
  }
  return created;
}

export async function attachPaymentMethod(ctx: Ctx, id: string, input: { payment_method_id: string }) {
  const r = await getRenterInTenant(ctx, id);
  const paymentCustomerId = await ensurePaymentCustomer(ctx, r);
  let pm;
  try {
    pm = await payments(ctx.env).attachPaymentMethod(paymentCustomerId, input.payment_method_id, { makeDefault: true });
  } catch (err) {
    paymentFailure(err);
  }
  await commit(ctx, [], { audit: { action: 'renter.payment_method_attach', targetType: 'renter', targetId: r.id, details: { paymentMethodId: pm.id, brand: pm.brand, last4: pm.last4 } } });
  return { renterId: r.id, payment_customer_id: paymentCustomerId, paymentMethod: { ...pm, isDefault: true } };
}

export async function listPaymentMethods(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id);
  if (!r.paymentCustomerId) return { renterId: r.id, payment_customer_id: null, data: [] };
  try {
    return { renterId: r.id, payment_customer_id: r.paymentCustomerId, data: await payments(ctx.env).listPaymentMethods(r.paymentCustomerId) };
  } catch (err) {
    paymentFailure(err);
  }
}

export const OWING_THRESHOLD_CENTS = 100;

/**
 * Renters whose balance (non-deleted ledger entries that affect the balance) is at least one
 * dollar, counting the entries that occurred up to the end of `asOfDate` (UTC) or up to the given
 * instant; the largest balances first.
 */
export async function owingRenters(ctx: Ctx, q: { asOfDate?: string; customerId?: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  let bound: SQL;
  let asOf: string;
  if (!q.asOfDate) {
    asOf = new Date().toISOString();
    bound = lte(ledgerEntries.occurredAt, asOf);
  } else if (isoDate.test(q.asOfDate)) {
    asOf = q.asOfDate;
    bound = lt(ledgerEntries.occurredAt, `${addDays(q.asOfDate, 1)}T00:00:00.000Z`);
  } else {
    asOf = new Date(q.asOfDate).toISOString();
    bound = lte(ledgerEntries.occurredAt, asOf);
  }
  const owed = ctx.db
    .select({ renterId: ledgerEntries.renterId, balance: sql<number>`sum(${ledgerEntries.amount})`.as('balance') })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, customerId), eq(ledgerEntries.affectsBalance, true), isNull(ledgerEntries.deletedAt), sql`${ledgerEntries.renterId} IS NOT NULL`, bound))
    .groupBy(ledgerEntries.renterId)
    .having(sql`sum(${ledgerEntries.amount}) >= ${OWING_THRESHOLD_CENTS}`)
    .as('owed');
  const rows = await ctx.db
    .select({ r: renters, balance: owed.balance })
    .from(renters)
    .innerJoin(owed, eq(owed.renterId, renters.id))
    .where(eq(renters.customerId, customerId))
    .orderBy(desc(owed.balance), asc(renters.id))
    .all();
  const data = rows.map((x) => ({
    renterId: x.r.id,
    firstName: x.r.firstName,
    lastName: x.r.lastName,
    email: x.r.email,
    phone: x.r.phone,
    status: x.r.status,
    deleted: x.r.deletedAt != null,
    balanceCents: Number(x.balance),
    balance: toDollars(Number(x.balance)),
  }));
  const totalCents = data.reduce((s, d) => s + d.balanceCents, 0);
  return { asOfDate: asOf, thresholdCents: OWING_THRESHOLD_CENTS, total: data.length, totalOwedCents: totalCents, totalOwed: toDollars(totalCents), data };
}

export async function journalEntries(ctx: Ctx, id: string) {
  const r = await getRenterInTenant(ctx, id, { includeDeleted: true });
  const rows = await ctx.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.customerId, r.customerId), eq(ledgerEntries.renterId, r.id), isNull(ledgerEntries.deletedAt)))
    .orderBy(asc(ledgerEntries.occurredAt), asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
    .limit(10_000)
    .all();
  const balanceCents = await renterBalanceCents(ctx, r.id);
  return {
    renterId: r.id,
    balanceCents,
    balance: toDollars(balanceCents),
    data: rows.map((e) => ({
      id: e.id,
      entryType: e.entryType,
      amountCents: e.amount,
      amount: toDollars(e.amount),
      currency: e.currency,
      affectsBalance: e.affectsBalance,
      occurredAt: e.occurredAt,
      description: e.description,
      transactionId: e.transactionId,
      rentalId: e.rentalId,
      locationId: e.locationId,
      itemId: e.itemId,
      source: e.source,
      reference: e.reference,
      metadata: e.metadata ?? null,
      createdAt: e.createdAt,
    })),
  };
}
