import { nowIso } from '../../lib/clock';
import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { ownCustomer, requirePermission, requirePlatformStaff } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toCents, toDollars } from '../../lib/money';
import type { Stmt } from '../../db/client';
import { giftCardEntries, promoCodes } from '../../db/schema/promo-codes';
import { getLocationInTenant } from '../locations/service';
import { promoFail } from './errors';
import { affiliateOf, codeKey, findCode, getCode } from './queries';
import { isExpired, promoOut, type PromoRow } from './views';
import { currencyMismatch, holdsMoney, issueCurrency } from './currency';

const invalidDiscount = (message: string) => promoFail('invalid_discount', message, { details: [{ field: 'Details', message }] });

/** The discount of `Details`: exactly one of `$Discount` (dollars) and `%Discount` (0 < p <= 100). */
export function parseDiscount(details: Record<string, unknown>): { percentOff: number | null; amountOff: number | null } {
  const hasAmount = details.$Discount !== undefined && details.$Discount !== null;
  const hasPercent = details['%Discount'] !== undefined && details['%Discount'] !== null;
  if (hasAmount === hasPercent) throw invalidDiscount('Details must hold exactly one of $Discount or %Discount');
  if (hasPercent) {
    const p = Number(details['%Discount']);
    if (!Number.isFinite(p) || p <= 0 || p > 100) throw invalidDiscount('%Discount must be a number above 0 and at most 100');
    return { percentOff: p, amountOff: null };
  }
  const a = Number(details.$Discount);
  if (!Number.isFinite(a) || a <= 0 || a > 1_000_000 || Math.abs(toCents(a) - a * 100) > 1e-6)
    throw invalidDiscount('$Discount must be a positive amount of dollars with at most two decimals');
  return { percentOff: null, amountOff: toCents(a) };
}

function kindOf(details: Record<string, unknown>): 'promo' | 'gift_card' {
  const t = details.type ?? details.Type;
  if (t === undefined || t === 'promo') return 'promo';
  if (t === 'gift_card' || t === 'giftCard' || t === 'gift') return 'gift_card';
  throw invalidDiscount('Details.type must be "promo" or "gift_card"');
}

function usageLimitOf(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v) || (v as number) < 1)
    throw new ApiError('validation_failed', 'usageLimit must be a whole number of uses, at least 1', {
      details: [{ field: 'usageLimit', message: 'must be an integer >= 1' }],
    });
  return v as number;
}

/** A date is valid through the end of that day (UTC); an instant as given. */
export const expiryOf = (v: string | null | undefined): string | null =>
  v == null ? null : /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : new Date(v).toISOString();

const isUnique = (err: unknown, name: string) => isUniqueViolation(err) && String(err).includes(name);
const isCheck = (err: unknown) => /CHECK constraint failed/i.test(String(err));

export async function listCodes(ctx: Ctx, q: { customerId: string; promoCode?: string; limit: number; offset: number }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const where = and(eq(promoCodes.customerId, customerId), q.promoCode ? eq(promoCodes.codeKey, codeKey(q.promoCode)) : undefined);
  const [rows, total] = await Promise.all([
    ctx.db.select().from(promoCodes).where(where).orderBy(asc(promoCodes.codeKey)).limit(q.limit).offset(q.offset).all(),
    ctx.db.select({ n: count() }).from(promoCodes).where(where).get(),
  ]);
  return { data: rows.map((r) => promoOut(r, ctx.clock.now())), total: total?.n ?? 0, limit: q.limit, offset: q.offset };
}

export interface CreateCodeInput {
  promoCode: string;
  customerId: string;
  currency?: string;
  ExpiryDate: string;
  Details: Record<string, unknown>;
  inventoryIds?: string[];
  locationId?: string;
  affiliateId?: string;
  usageLimit?: number;
}

export async function createCode(ctx: Ctx, input: CreateCodeInput) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'promotions');
  const kind = kindOf(input.Details);
  const { percentOff, amountOff } = parseDiscount(input.Details);
  if (kind === 'gift_card' && amountOff === null) throw invalidDiscount('A gift card has a value: give $Discount');
  const usageLimit = usageLimitOf(input.usageLimit ?? input.Details.usageLimit);
  if (input.locationId) await getLocationInTenant(ctx, input.locationId);
  // The code's money (a gift card's value, an amount off) is in its location's currency, else one the operator sells in.
  const currency = await issueCurrency(ctx, customerId, { locationId: input.locationId, requested: input.currency });
  if (input.affiliateId) await affiliateOf(ctx, customerId, input.affiliateId);
  if (await findCode(ctx, customerId, input.promoCode)) throw new ApiError('already_exists', `The code "${input.promoCode}" exists for this operator`);
  const now = nowIso(ctx);
  const row: PromoRow = {
    id: newId('promo'),
    customerId,
    code: input.promoCode.trim(),
    codeKey: codeKey(input.promoCode),
    kind,
    details: input.Details,
    percentOff,
    amountOff,
    expiryDate: expiryOf(input.ExpiryDate),
    inventoryIds: input.inventoryIds ?? [],
    locationId: input.locationId ?? null,
    affiliateId: input.affiliateId ?? null,
    usageLimit,
    timesUsed: 0,
    balance: kind === 'gift_card' ? amountOff! : 0,
    currency,
    active: input.Details.active === false ? false : true,
    recipientName: null,
    recipientEmail: null,
    message: null,
    paymentIntentId: null,
    createdAt: now,
    updatedAt: now,
  };
  const stmts: Stmt[] = [ctx.db.insert(promoCodes).values(row)];
  if (kind === 'gift_card')
    stmts.push(
      ctx.db
        .insert(giftCardEntries)
        .values({ id: newId('gce'), customerId, promoCodeId: row.id, kind: 'issue', amount: row.balance, reference: 'issued by the operator' }),
    );
  try {
    await commit(ctx, stmts, { audit: { action: 'promo_code.create', targetType: 'promo_code', targetId: row.id, details: { code: row.code, kind } } });
  } catch (err) {
    if (isUnique(err, 'promo_codes')) throw new ApiError('already_exists', `The code "${input.promoCode}" exists for this operator`);
    throw err;
  }
  return promoOut(row, ctx.clock.now());
}

export async function updateCode(
  ctx: Ctx,
  input: {
    promoCode: string;
    customerId: string;
    Updates: {
      ExpiryDate?: string | null;
      Details?: Record<string, unknown>;
      inventoryIds?: string[];
      locationId?: string | null;
      affiliateId?: string | null;
      usageLimit?: number | null;
      active?: boolean;
    };
  },
) {
  const customerId = ownCustomer(ctx, input.customerId);
  requirePermission(ctx, 'promotions');
  const u = input.Updates;
  if (!Object.keys(u).length) throw new ApiError('no_changes', 'Updates holds no field to change');
  const p = await getCode(ctx, customerId, input.promoCode);
  const patch: Partial<PromoRow> = {};
  if (u.Details !== undefined) {
    const d = parseDiscount(u.Details);
    if (p.kind === 'gift_card' && d.amountOff !== p.amountOff)
      throw invalidDiscount("A gift card's value is its balance ledger: its $Discount cannot be changed (issue a new card instead)");
    if (kindOf(u.Details) !== p.kind) throw invalidDiscount('Details.type cannot change');
    Object.assign(patch, d, { details: u.Details });
    if (u.Details.usageLimit !== undefined && u.usageLimit === undefined) patch.usageLimit = usageLimitOf(u.Details.usageLimit);
    if (typeof u.Details.active === 'boolean' && u.active === undefined) patch.active = u.Details.active;
  }
  if (u.ExpiryDate !== undefined) patch.expiryDate = expiryOf(u.ExpiryDate);
  if (u.inventoryIds !== undefined) patch.inventoryIds = u.inventoryIds;
  if (u.locationId !== undefined) {
    if (u.locationId) {
      const loc = await getLocationInTenant(ctx, u.locationId);
      // A code's money keeps its currency: it moves only to a location selling in it (a percentage takes the new one).
      const to = (loc.currency || 'usd').toLowerCase();
      if (holdsMoney({ ...p, ...patch }) && to !== p.currency.toLowerCase())
        throw currencyMismatch(`The code "${p.code}"`, p.currency, to, 'Updates.locationId');
      patch.currency = to;
    }
    patch.locationId = u.locationId;
  }
  if (u.affiliateId !== undefined) {
    if (u.affiliateId) await affiliateOf(ctx, customerId, u.affiliateId);
    patch.affiliateId = u.affiliateId;
  }
  if (u.usageLimit !== undefined) patch.usageLimit = usageLimitOf(u.usageLimit);
  if (u.active !== undefined) patch.active = u.active;
  try {
    await commit(
      ctx,
      [
        ctx.db
          .update(promoCodes)
          .set(patch)
          .where(and(eq(promoCodes.id, p.id), eq(promoCodes.customerId, customerId))),
      ],
      {
        audit: { action: 'promo_code.update', targetType: 'promo_code', targetId: p.id, details: { code: p.code, fields: Object.keys(u) } },
      },
    );
  } catch (err) {
    if (isCheck(err))
      throw new ApiError('bad_request', `usageLimit cannot be below the ${p.timesUsed} uses already made`, {
        details: [{ field: 'Updates.usageLimit', message: 'below the uses made' }],
      });
    throw err;
  }
  return promoOut(await getCode(ctx, customerId, input.promoCode), ctx.clock.now());
}

export async function deleteCode(ctx: Ctx, q: { promoCode: string; customerId: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  requirePermission(ctx, 'promotions');
  const p = await getCode(ctx, customerId, q.promoCode);
  if (p.kind === 'gift_card' && p.balance > 0)
    throw new ApiError(
      'bad_request',
      `The gift card still holds ${toDollars(p.balance).toFixed(2)}; deactivate it (Updates.active false) instead of deleting it`,
    );
  await commit(ctx, [ctx.db.delete(promoCodes).where(and(eq(promoCodes.id, p.id), eq(promoCodes.customerId, customerId)))], {
    audit: { action: 'promo_code.delete', targetType: 'promo_code', targetId: p.id, details: { code: p.code } },
  });
  return { success: true, promoCode: p.code };
}

/** GET /promoGiftCards/search: Berth's platform staff only, across every operator. */
export async function searchCodes(ctx: Ctx, q: { promoCode: string }) {
  requirePlatformStaff(ctx);
  const rows = await ctx.db
    .select()
    .from(promoCodes)
    .where(eq(promoCodes.codeKey, codeKey(q.promoCode)))
    .orderBy(asc(promoCodes.customerId))
    .limit(100)
    .all();
  return { data: rows.map((r) => promoOut(r, ctx.clock.now())) };
}

export async function balanceOf(ctx: Ctx, q: { promoCode: string; customerId?: string }) {
  const customerId = ownCustomer(ctx, q.customerId);
  const p = await getCode(ctx, customerId, q.promoCode);
  const entries =
    p.kind === 'gift_card'
      ? await ctx.db.select().from(giftCardEntries).where(eq(giftCardEntries.promoCodeId, p.id)).orderBy(desc(giftCardEntries.createdAt)).limit(100).all()
      : [];
  return {
    promoCode: p.code,
    kind: p.kind,
    balance: p.kind === 'gift_card' ? toDollars(p.balance) : null,
    initialValue: p.kind === 'gift_card' ? toDollars(p.amountOff ?? 0) : null,
    currency: p.currency,
    remainingUses: p.usageLimit === null ? null : Math.max(0, p.usageLimit - p.timesUsed),
    expired: isExpired(p, ctx.clock.now()),
    active: p.active,
    ExpiryDate: p.expiryDate,
    entries: entries.map((e) => ({ kind: e.kind, amount: toDollars(e.amount), reference: e.reference, createdAt: e.createdAt })),
  };
}
