import { and, eq, gte, lt, ne, sql } from 'drizzle-orm';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { addDays, dayBounds } from '../../lib/time';
import { nowIso, nowMs, todayIn } from '../../lib/clock';
import { onOperatorClock } from '../../lib/operator-clock';
import { toDollars } from '../../lib/money';
import { cartRecoveryItems } from '../../db/schema/cart-recovery';
import { bookings } from '../../db/schema/bookings';
import { getLocationInTenant } from '../locations/service';
import { throttlePublicSend } from '../communications/service';
import { cartCounts, getCartAnyTenant, getCartInTenant, needingContact, pageOf, publicLocation, rate } from './queries';
import { cartOut, publicCartOut, type CartRow } from './views';

const t = cartRecoveryItems;
/** Default wait before the recovery e-mail (a location may set `details.cartRecoveryDelayMinutes`, 5 to 10080). */
export const DEFAULT_CONTACT_DELAY_MINUTES = 60;
const THROTTLED = 'throttled: too many carts for this address this hour; no recovery e-mail';

function contactDelayMs(details: Record<string, unknown> | null | undefined): number {
  const v = details?.cartRecoveryDelayMinutes;
  const m = typeof v === 'number' && Number.isInteger(v) && v >= 5 && v <= 10_080 ? v : DEFAULT_CONTACT_DELAY_MINUTES;
  return m * 60_000;
}

export interface PublicCreateInput {
  id: string;
  email: string;
  locationId: string;
  firstName?: string;
  lastName?: string;
  bookingInfo?: Record<string, unknown>;
  cartData?: Record<string, unknown>;
  customerId?: string;
}

/**
 * Records (or updates) an abandoned cart from the widget. The recovery e-mail is due after the
 * location's delay and each update pushes it back while nobody was contacted yet. Throttled per
 * IP (429) and per address (silently: the cart is kept but no e-mail goes out), so the answer is
 * the same for every address.
 */
export async function upsertCart(ctx0: Ctx, input: PublicCreateInput, ip: string | null) {
  const caller = ctx0.principal.customerId;
  if (caller && input.customerId && input.customerId !== caller) throw new ApiError('forbidden', 'customerId does not belong to the authenticated operator');
  const location = await publicLocation(ctx0, input.locationId, input.customerId);
  if (!location) throw notFound('Location');
  // The operator is known now: its clock dates the cart and its contact time.
  const ctx = await onOperatorClock(ctx0, location.customerId);
  const existing = await getCartAnyTenant(ctx, input.id);
  // The address budget counts new addresses only: the widget re-posting the same cart costs nothing.
  const sameAddress = existing?.email === input.email;
  const { addressAllowed } = await throttlePublicSend(ctx, { kind: 'cart-recovery', ip, address: sameAddress ? null : input.email });
  const allowed = addressAllowed && !(sameAddress && existing?.statusReason?.startsWith('throttled'));
  const now = nowMs(ctx);
  const stamp = new Date(now).toISOString();
  const contactOn = allowed ? new Date(now + contactDelayMs(location.details)).toISOString() : null;
  if (!existing) {
    const row: CartRow = {
      id: input.id,
      customerId: location.customerId,
      locationId: location.id,
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      bookingInfo: input.bookingInfo ?? null,
      cartData: input.cartData ?? null,
      status: 'active',
      contactOn,
      contactedAt: null,
      contactMessageId: null,
      shortCode: null,
      completedAt: null,
      transactionId: null,
      revenue: null,
      statusReason: allowed ? null : THROTTLED,
      createdAt: stamp,
      updatedAt: stamp,
    };
    const inserted = await ctx.db.insert(t).values(row).onConflictDoNothing().returning({ id: t.id }).get();
    if (inserted) return publicCartOut(row);
  }
  // An update of the same cart (or a concurrent create that won).
  const current = existing ?? (await getCartAnyTenant(ctx, input.id));
  if (!current) throw new ApiError('internal', 'Cart vanished while being saved');
  if (current.customerId !== location.customerId || current.locationId !== location.id) {
    throw new ApiError('already_exists', 'This cart id is used by another location; generate a new random id', {
      details: [{ field: 'id', message: 'in use' }],
    });
  }
  if (current.status !== 'active') return publicCartOut(current);
  const set: Partial<CartRow> = { email: input.email, updatedAt: stamp };
  if (input.firstName !== undefined) set.firstName = input.firstName;
  if (input.lastName !== undefined) set.lastName = input.lastName;
  if (input.bookingInfo !== undefined) set.bookingInfo = input.bookingInfo;
  if (input.cartData !== undefined) set.cartData = input.cartData;
  if (!current.contactedAt) {
    set.contactOn = contactOn;
    set.statusReason = allowed ? null : THROTTLED;
  }
  const row = await ctx.db
    .update(t)
    .set(set)
    .where(and(eq(t.id, current.id), eq(t.status, 'active')))
    .returning()
    .get();
  return publicCartOut(row ?? (await getCartAnyTenant(ctx, input.id))!);
}

export async function getPublicCart(ctx: Ctx, id: string) {
  const row = await getCartAnyTenant(ctx, id);
  if (!row) throw notFound('Cart recovery item');
  return publicCartOut(row);
}

/** Total (cents) of an order of the operator, or null when there is no such order. */
async function orderTotal(ctx: Ctx, customerId: string, transactionId: string): Promise<number | null> {
  const row = await ctx.db
    .select({ n: sql<number>`count(*)`, total: sql<number>`coalesce(sum(${bookings.total}), 0)` })
    .from(bookings)
    .where(and(eq(bookings.customerId, customerId), eq(bookings.transactionId, transactionId), ne(bookings.status, 'cancelled')))
    .get();
  return row && Number(row.n) > 0 ? Number(row.total) : null;
}

/** Marks a cart completed (the booking was made). Answers the same for any id, so it tells nothing about unknown ones. */
export async function completeCart(ctx: Ctx, id: string, q: { transactionId?: string }) {
  const row = await getCartAnyTenant(ctx, id);
  if (row && row.status !== 'completed')
    await markCompleted(await onOperatorClock(ctx, row.customerId), row, q.transactionId ?? null, 'completed by the widget');
  return { success: true as const, id, status: 'completed' as const };
}

export async function markCompleted(ctx: Ctx, row: CartRow, transactionId: string | null, reason: string) {
  const revenue = transactionId ? await orderTotal(ctx, row.customerId, transactionId) : null;
  const now = nowIso(ctx);
  await ctx.db
    .update(t)
    .set({ status: 'completed', completedAt: now, transactionId: revenue === null ? null : transactionId, revenue, statusReason: reason, updatedAt: now })
    .where(and(eq(t.id, row.id), ne(t.status, 'completed')));
}

/** Funnel of a location's carts created in a period of local days (public: counts only). */
export async function cartAnalytics(ctx0: Ctx, locationId: string, q: { startDate?: string; endDate?: string }) {
  const location = await publicLocation(ctx0, locationId);
  const ctx = location ? await onOperatorClock(ctx0, location.customerId) : ctx0;
  const timezone = location?.timezone ?? 'UTC';
  const endDate = q.endDate ?? todayIn(ctx, timezone);
  const startDate = q.startDate ?? addDays(endDate, -29);
  if (startDate > endDate)
    throw new ApiError('bad_request', 'startDate must not be after endDate', { details: [{ field: 'startDate', message: 'after endDate' }] });
  const from = new Date(dayBounds(startDate, timezone).start).toISOString();
  const to = new Date(dayBounds(endDate, timezone).end).toISOString();
  const c = location
    ? await cartCounts(ctx, and(eq(t.customerId, location.customerId), eq(t.locationId, location.id), gte(t.createdAt, from), lt(t.createdAt, to)), nowIso(ctx))
    : null;
  const contacted = c?.contacted ?? 0;
  const recovered = c?.recovered ?? 0;
  return {
    locationId,
    startDate,
    endDate,
    timezone,
    currency: location?.currency ?? 'usd',
    abandoned: c ? c.total - c.completedUncontacted : 0,
    contacted,
    recovered,
    recoveryRate: rate(recovered, contacted),
    recoveredRevenue: toDollars(c?.revenueCents ?? 0),
    recoveredRevenueCents: c?.revenueCents ?? 0,
  };
}

// ------------------------------------------------------------------------------------------------
// Operator

/** The location's abandoned carts (active, contacted or not), newest first. */
export async function listLocationCarts(ctx: Ctx, locationId: string, page: { limit: number; offset: number }) {
  const l = await getLocationInTenant(ctx, locationId);
  return pageOf(ctx, and(eq(t.customerId, l.customerId), eq(t.locationId, l.id), eq(t.status, 'active')), page);
}

/** Active carts of a location (contacted ones with `includeContacted`), with the location's all-time statistics. */
export async function listCartsWithStats(ctx: Ctx, locationId: string, q: { includeContacted?: boolean; limit: number; offset: number }) {
  const l = await getLocationInTenant(ctx, locationId);
  const mine = and(eq(t.customerId, l.customerId), eq(t.locationId, l.id));
  const where = q.includeContacted ? and(mine, eq(t.status, 'active')) : and(mine, eq(t.status, 'active'), sql`${t.contactedAt} IS NULL`);
  const [page, c] = await Promise.all([pageOf(ctx, where, q), cartCounts(ctx, mine, nowIso(ctx))]);
  return {
    ...page,
    statistics: {
      total: c.total,
      active: c.active,
      needingContact: c.needingContact,
      contacted: c.contacted,
      completed: c.completed,
      expired: c.expired,
      recovered: c.recovered,
      recoveryRate: rate(c.recovered, c.contacted),
      recoveredRevenue: toDollars(c.revenueCents),
    },
  };
}

export async function itemsNeedingContact(ctx: Ctx, page: { limit: number; offset: number }) {
  return pageOf(ctx, and(eq(t.customerId, tenantOf(ctx)), needingContact(nowIso(ctx))), page);
}

/** Staff contacted the person: the contacted marker is set to now. */
export async function markContacted(ctx: Ctx, id: string) {
  const row = await getCartInTenant(ctx, id);
  const now = nowIso(ctx);
  const updated = await ctx.db
    .update(t)
    .set({ contactedAt: now, updatedAt: now })
    .where(and(eq(t.id, row.id), eq(t.customerId, row.customerId)))
    .returning()
    .get();
  await commit(ctx, [], { audit: { action: 'cart_recovery.contact', targetType: 'cart_recovery', targetId: row.id } });
  return cartOut(updated ?? row);
}

async function deleteRow(ctx: Ctx, row: CartRow) {
  await commit(ctx, [ctx.db.delete(t).where(and(eq(t.id, row.id), eq(t.customerId, row.customerId)))], {
    audit: { action: 'cart_recovery.delete', targetType: 'cart_recovery', targetId: row.id, details: { locationId: row.locationId } },
  });
  return { success: true as const, id: row.id };
}

/** `DELETE /cartRecovery/{id}`: owner only (another operator's cart is 403, an unknown id 404). */
export async function deleteOwnedCart(ctx: Ctx, id: string) {
  const row = await getCartAnyTenant(ctx, id);
  if (!row) throw notFound('Cart recovery item');
  if (row.customerId !== tenantOf(ctx)) throw new ApiError('forbidden', 'This cart belongs to another operator');
  return deleteRow(ctx, row);
}

/** `DELETE /communication/cartRecovery/{id}`: another operator's cart answers 404. */
export async function deleteCart(ctx: Ctx, id: string) {
  return deleteRow(ctx, await getCartInTenant(ctx, id));
}
