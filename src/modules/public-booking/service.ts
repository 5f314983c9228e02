/**
 * The public-booking module's face. No other module calls it today: the widget's public order,
 * booking and customer reads and the renter's booking edit, defined here, are reached through its router only.
 */
import { and, asc, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import { nowIso } from '../../lib/clock';
import type { Ctx } from '../../lib/context';
import { onOperatorClock } from '../../lib/operator-clock';
import { commit } from '../../lib/commit';
import { ApiError, notFound } from '../../lib/errors';
import { toDollars } from '../../lib/money';
import { aesGcmEncrypt } from '../../lib/crypto';
import { bookings, renters } from '../../db/schema/bookings';
import { allocations, inventoryAssets, inventoryItems } from '../../db/schema/inventory';
import { locations } from '../../db/schema/locations';
import { customers } from '../../db/schema/accounts';
import { readData, startingPrice } from '../inventory/service';
import type { InventoryModel } from '../inventory/types';
import { renterOf } from '../schedule/service';
import { activityStmt, bookingRenterEditStmt, isVersionRace, moneyOfRentals } from '../bookings/service';
import { moneyOut } from '../../lib/money-view';
import { EDITABLE_PATHS, checkPatch, setPath } from './paths';

type BookingRow = typeof bookings.$inferSelect;
type ItemRow = typeof inventoryItems.$inferSelect;
type LocationRow = typeof locations.$inferSelect;

const iso = (ms: number) => new Date(ms).toISOString();

function totalsOf(rows: Pick<BookingRow, 'subtotal' | 'discountTotal' | 'taxTotal' | 'tipTotal' | 'feeTotal' | 'total' | 'amountPaid'>[]) {
  const sum = (f: (b: (typeof rows)[number]) => number) => rows.reduce((s, b) => s + f(b), 0);
  const total = sum((b) => b.total);
  const paid = sum((b) => b.amountPaid);
  return {
    subtotal: toDollars(sum((b) => b.subtotal)),
    discountTotal: toDollars(sum((b) => b.discountTotal)),
    taxTotal: toDollars(sum((b) => b.taxTotal)),
    tipTotal: toDollars(sum((b) => b.tipTotal)),
    feeTotal: toDollars(sum((b) => b.feeTotal)),
    total: toDollars(total),
    amountPaid: toDollars(paid),
    balanceDue: toDollars(Math.max(0, total - paid)),
  };
}

const publicLocation = (l: LocationRow) => ({ locationId: l.id, name: l.name, address: l.address, phoneNumber: l.phoneNumber, timezone: l.timezone });

/** Bookings, items, assets and locations of one order, loaded with a handful of indexed reads. */
async function loadOrder(ctx: Ctx, rows: BookingRow[]) {
  const customerId = rows[0].customerId;
  const itemIds = [...new Set(rows.map((r) => r.itemId))];
  const assetIds = [...new Set(rows.flatMap((r) => r.assetIds ?? []))];
  const locationIds = [...new Set(rows.map((r) => r.locationId))];
  const [items, assets, locs, customer, money] = await Promise.all([
    ctx.db
      .select()
      .from(inventoryItems)
      .where(and(eq(inventoryItems.customerId, customerId), inArray(inventoryItems.id, itemIds)))
      .all(),
    assetIds.length
      ? ctx.db
          .select({ id: inventoryAssets.id, name: inventoryAssets.name })
          .from(inventoryAssets)
          .where(and(eq(inventoryAssets.customerId, customerId), inArray(inventoryAssets.id, assetIds)))
          .all()
      : [],
    ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.customerId, customerId), inArray(locations.id, locationIds)))
      .all(),
    ctx.db.select({ name: customers.name, businessName: customers.businessName }).from(customers).where(eq(customers.id, customerId)).get(),
    moneyOfRentals(
      ctx,
      customerId,
      rows.map((r) => r.id),
    ),
  ]);
  return {
    customerId,
    businessName: customer?.businessName ?? customer?.name ?? '',
    items: new Map(items.map((i) => [i.id, { row: i, model: readData(i) }])),
    assetNames: new Map(assets.map((a) => [a.id, a.name])),
    locations: new Map(locs.map((l) => [l.id, l])),
    money,
  };
}
type Loaded = Awaited<ReturnType<typeof loadOrder>>;

function lineItem(b: BookingRow, o: Loaded) {
  const item = o.items.get(b.itemId);
  const m = item?.model as InventoryModel | undefined;
  const dep = b.depositInformation as { amount?: unknown; status?: unknown } | null;
  return {
    rentalId: b.id,
    status: b.status,
    inventoryId: b.itemId,
    name: item?.row.name ?? null,
    image: m?.images?.[0] ?? null,
    category: m?.category ?? null,
    locationId: b.locationId,
    startTime: iso(b.start),
    endTime: iso(b.end),
    localDate: b.localDate,
    timezone: o.locations.get(b.locationId)?.timezone ?? 'UTC',
    quantity: b.quantity,
    participants: b.participants ?? null,
    assets: (b.assetIds ?? []).map((a) => ({ assetId: a, name: o.assetNames.get(a) ?? 'Unit' })),
    addons: b.addons ?? [],
    pricing: totalsOf([b]),
    money: moneyOut(o.money.get(b.id)!, b.currency),
    deposit: dep ? { amount: typeof dep.amount === 'number' ? dep.amount : null, status: typeof dep.status === 'string' ? dep.status : null } : null,
    checkedInAt: b.checkedInAt ?? null,
    checkedOutAt: b.checkedOutAt ?? null,
    cancelledAt: b.cancelledAt ?? null,
  };
}

const commonStatus = (rows: BookingRow[]) => (rows.every((r) => r.status === rows[0].status) ? rows[0].status : 'mixed');
const byStart = (a: BookingRow, b: BookingRow) => a.start - b.start || (a.id < b.id ? -1 : 1);

async function transactionRows(ctx: Ctx, customerId: string, transactionId: string) {
  return (
    await ctx.db
      .select()
      .from(bookings)
      .where(and(eq(bookings.customerId, customerId), eq(bookings.transactionId, transactionId)))
      .all()
  ).sort(byStart);
}

/** GET /public/order/{orderId}: the whole order a transaction, bundle group or rental id belongs to. */
export async function getOrder(ctx: Ctx, orderId: string) {
  let matchedAs: 'transaction' | 'bundle' | 'rental' = 'transaction';
  let rows = (await ctx.db.select().from(bookings).where(eq(bookings.transactionId, orderId)).all()).sort(byStart);
  if (!rows.length) {
    const hit = await ctx.db
      .select({ customerId: bookings.customerId, transactionId: bookings.transactionId, id: bookings.id })
      .from(bookings)
      .where(or(eq(bookings.bundleGroupId, orderId), eq(bookings.id, orderId)))
      .limit(1)
      .get();
    if (!hit) throw notFound('Order');
    matchedAs = hit.id === orderId ? 'rental' : 'bundle';
    rows = await transactionRows(ctx, hit.customerId, hit.transactionId);
  }
  // A transaction id belongs to one operator; never mix rows of two (ids are random, this is a guard).
  rows = rows.filter((r) => r.customerId === rows[0].customerId);
  const o = await loadOrder(ctx, rows);
  const groups = new Map<string, { groupId: string; type: 'bundle' | 'single'; rows: BookingRow[] }>();
  for (const r of rows) {
    const key = r.bundleGroupId ?? r.id;
    const g = groups.get(key) ?? { groupId: key, type: r.bundleGroupId ? ('bundle' as const) : ('single' as const), rows: [] };
    g.rows.push(r);
    groups.set(key, g);
  }
  const who = renterOf(rows[0], null);
  return {
    orderId,
    matchedAs,
    transactionId: rows[0].transactionId,
    customerId: o.customerId,
    businessName: o.businessName,
    locations: [...o.locations.values()].map(publicLocation),
    status: commonStatus(rows),
    currency: rows[0].currency,
    renter: { firstName: who.firstName, lastName: who.lastName },
    totals: totalsOf(rows),
    groups: [...groups.values()].map((g) => ({
      groupId: g.groupId,
      type: g.type,
      lineItems: g.rows.map((r) => lineItem(r, o)),
      total: toDollars(g.rows.reduce((s, r) => s + r.total, 0)),
    })),
    createdAt: rows.reduce((m, r) => (r.createdAt < m ? r.createdAt : m), rows[0].createdAt),
  };
}

/** Contact fields of customerInfo the renter sees (and partly edits). */
const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'address', 'emergencyContact', 'preferredLanguage', 'marketingOptIn'];
const RENTER_EXTENDED_FIELDS = ['notes', 'specialRequests', 'arrivalTime', 'dietaryRestrictions', 'accessibilityNeeds', 'preferences'];
const pick = (o: Record<string, unknown> | null | undefined, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o && o[k] !== undefined).map((k) => [k, o![k]]));

const CLOSED = new Set(['cancelled', 'completed', 'no_show']);

async function publicBookingView(ctx: Ctx, rows: BookingRow[]) {
  const o = await loadOrder(ctx, rows);
  const first = rows[0];
  let contact = pick(first.customerInfo, CONTACT_FIELDS);
  if (!contact.email && first.renterId) {
    const r = await ctx.db
      .select()
      .from(renters)
      .where(and(eq(renters.id, first.renterId), eq(renters.customerId, first.customerId)))
      .get();
    if (r) contact = { firstName: r.firstName, lastName: r.lastName, email: r.email, ...(r.phone ? { phone: r.phone } : {}), ...contact };
  }
  return {
    transactionId: first.transactionId,
    customerId: o.customerId,
    businessName: o.businessName,
    locations: [...o.locations.values()].map(publicLocation),
    status: commonStatus(rows),
    currency: first.currency,
    customerInfo: contact,
    totals: totalsOf(rows),
    bookings: rows.map((b) => ({ ...lineItem(b, o), extendedData: pick(b.extendedData, RENTER_EXTENDED_FIELDS), editable: !CLOSED.has(b.status) })),
    editablePaths: EDITABLE_PATHS,
  };
}

/** GET /public/booking?TransactionId=: the order as its renter sees it (no internal fields). */
export async function getPublicBooking(ctx: Ctx, transactionId: string) {
  const rows = (await ctx.db.select().from(bookings).where(eq(bookings.transactionId, transactionId)).all()).sort(byStart);
  if (!rows.length) throw notFound('Booking');
  return publicBookingView(
    ctx,
    rows.filter((r) => r.customerId === rows[0].customerId),
  );
}

/**
 * PATCH /public/booking: applies renter-editable dot-notation paths to one rental, as a
 * compare-and-swap on the booking version like every booking change (activityStmt): a concurrent
 * change fails with 409 and nothing of it lands.
 */
export async function patchPublicBooking(ctx: Ctx, input: { rentalId: string; data: Record<string, unknown> }) {
  const changes = checkPatch(input.data);
  const b = await ctx.db.select().from(bookings).where(eq(bookings.id, input.rentalId)).get();
  if (!b) throw notFound('Booking');
  ctx = await onOperatorClock(ctx, b.customerId);
  if (CLOSED.has(b.status)) throw new ApiError('invalid_state', `The booking is ${b.status}; its details can no longer be changed`);
  const customerInfo = structuredClone(b.customerInfo ?? {}) as Record<string, unknown>;
  const extendedData = structuredClone(b.extendedData ?? {}) as Record<string, unknown>;
  for (const c of changes) setPath(c.root === 'customerInfo' ? customerInfo : extendedData, c.segments, c.value);
  const next = b.version + 1;
  const now = nowIso(ctx);
  const paths = changes.map((c) => c.path);
  try {
    await commit(
      ctx,
      [
        bookingRenterEditStmt(ctx, { customerId: b.customerId, rentalId: b.id, version: b.version, customerInfo, extendedData, updatedAt: now }),
        activityStmt(ctx, b, next, {
          type: 'booking.updated',
          change: paths.join(', '),
          label: 'Details updated by the renter',
          details: { paths, source: 'public' },
        }),
      ],
      {
        audit: { action: 'booking.public_update', targetType: 'booking', targetId: b.id, customerId: b.customerId, details: { paths } },
        events: [
          { type: 'booking.updated', customerId: b.customerId, data: { rentalId: b.id, transactionId: b.transactionId, changed: paths, source: 'renter' } },
        ],
      },
    );
  } catch (err) {
    if (isVersionRace(err)) {
      throw new ApiError('version_conflict', 'The booking was changed at the same moment; reload it and retry');
    }
    throw err;
  }
  return publicBookingView(ctx, await transactionRows(ctx, b.customerId, b.transactionId));
}

// ---------------------------------------------------------------------------------------------
// Widget data

async function publicItems(ctx: Ctx, customerId: string): Promise<ItemRow[]> {
  return ctx.db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.customerId, customerId), isNull(inventoryItems.deletedAt), eq(inventoryItems.isPublic, true)))
    .orderBy(asc(inventoryItems.displayOrder), asc(inventoryItems.createdAt))
    .all();
}

export const BUSY_HORIZON_DAYS = 180;
export const BUSY_CAP = 5000;

/** The active assets of the widget's items. */
function widgetAssets(ctx: Ctx, customerId: string, itemIds: string[]) {
  return ctx.db
    .select({
      id: inventoryAssets.id,
      itemId: inventoryAssets.itemId,
      name: inventoryAssets.name,
      status: inventoryAssets.status,
      details: inventoryAssets.details,
    })
    .from(inventoryAssets)
    .where(and(eq(inventoryAssets.customerId, customerId), inArray(inventoryAssets.itemId, itemIds)))
    .orderBy(asc(inventoryAssets.displayOrder))
    .all();
}

/** The items' busy intervals from now to the horizon (at most BUSY_CAP + 1, to tell a truncated list). */
function widgetBusy(ctx: Ctx, customerId: string, itemIds: string[], now: number, horizon: number) {
  return ctx.db
    .select({
      itemId: allocations.itemId,
      assetId: allocations.assetId,
      kind: allocations.kind,
      start: allocations.blockedStart,
      end: allocations.blockedEnd,
      seats: allocations.seats,
      capacity: allocations.capacity,
      expiresAt: allocations.expiresAt,
    })
    .from(allocations)
    .where(
      and(
        eq(allocations.customerId, customerId),
        inArray(allocations.itemId, itemIds),
        eq(allocations.active, true),
        gt(allocations.blockedEnd, now),
        lt(allocations.blockedStart, horizon),
      ),
    )
    .orderBy(asc(allocations.blockedStart))
    .limit(BUSY_CAP + 1)
    .all();
}

/** One public item of the widget payload: its model's pricing, schedule and active assets. */
function widgetItem(i: ItemRow, assets: Awaited<ReturnType<typeof widgetAssets>>, locById: Map<string, { currency: string }>) {
  const m = readData(i);
  return {
    inventoryId: i.id,
    name: i.name,
    type: m.type ?? i.kind,
    locationId: i.locationId,
    description: m.description ?? null,
    category: m.category ?? null,
    images: m.images ?? [],
    capacity: m.capacity ?? 1,
    currency: (m.currency ?? locById.get(i.locationId)?.currency ?? 'usd').toLowerCase(),
    assets: assets
      .filter((a) => a.itemId === i.id && a.status === 'active' && !(a.details as Record<string, unknown> | null)?.removedAt)
      .map((a) => ({ assetId: a.id, name: a.name })),
    ...startingPrice(m),
    pricing: { seasons: m.seasons ?? [], tourPricing: m.tourPricing ?? null, taxes: m.taxes ?? [], addons: m.addons ?? [], deposit: m.deposit ?? null },
    schedule: {
      operatingHours: m.operatingHours ?? null,
      slotIntervalMinutes: m.slotIntervalMinutes ?? 60,
      durations: m.durations ?? null,
      fullDayOnly: m.fullDayOnly ?? false,
      timeSlots: m.timeSlots ?? [],
      scheduleExceptions: m.scheduleExceptions ?? [],
      turnaroundBufferMinutes: m.turnaroundBufferMinutes ?? 0,
      minimumNoticeHours: m.minimumNoticeHours ?? 0,
      maxAdvanceDays: m.maxAdvanceDays ?? 365,
    },
  };
}

/** The widget payload: public inventory with pricing, active locations, upcoming busy intervals. No renter data. */
export async function widgetPayload(ctx: Ctx, customerId: string) {
  const customer = await ctx.db
    .select({ id: customers.id, name: customers.name, businessName: customers.businessName })
    .from(customers)
    .where(eq(customers.id, customerId))
    .get();
  if (!customer) throw notFound('Customer');
  ctx = await onOperatorClock(ctx, customerId);
  const [items, locs] = await Promise.all([
    publicItems(ctx, customerId),
    ctx.db
      .select()
      .from(locations)
      .where(and(eq(locations.customerId, customerId), eq(locations.status, 'active')))
      .all(),
  ]);
  const itemIds = items.map((i) => i.id);
  const now = ctx.clock.now();
  const horizon = now + BUSY_HORIZON_DAYS * 86_400_000;
  const [assets, busy] = itemIds.length
    ? await Promise.all([widgetAssets(ctx, customerId, itemIds), widgetBusy(ctx, customerId, itemIds, now, horizon)])
    : [[], []];
  const liveBusy = busy.filter((a) => a.expiresAt == null || a.expiresAt > now);
  const locById = new Map(locs.map((l) => [l.id, l]));
  return {
    customerId: customer.id,
    businessName: customer.businessName ?? customer.name,
    generatedAt: new Date(now).toISOString(),
    locations: locs.map((l) => ({
      ...publicLocation(l),
      currency: l.currency,
      coordinates: l.latitude != null && l.longitude != null ? { latitude: l.latitude, longitude: l.longitude } : null,
    })),
    inventory: items.map((i) => widgetItem(i, assets, locById)),
    bookings: liveBusy.slice(0, BUSY_CAP).map((a) => ({
      inventoryId: a.itemId,
      assetId: a.assetId,
      kind: a.kind,
      startTime: iso(a.start),
      endTime: iso(a.end),
      seats: a.seats,
      capacity: a.capacity,
    })),
    bookingsTruncated: busy.length > BUSY_CAP,
  };
}

/** GET /public/customer: the widget payload, AES-256-GCM encrypted with WIDGET_ENCRYPTION_KEY. */
export async function encryptedCustomer(ctx: Ctx, customerId: string) {
  const key = ctx.env.WIDGET_ENCRYPTION_KEY;
  if (!key) throw new ApiError('service_unavailable', 'The widget encryption key is not configured on this deployment');
  const payload = await widgetPayload(ctx, customerId);
  const { iv, ciphertext } = await aesGcmEncrypt(key, JSON.stringify(payload));
  return { alg: 'AES-256-GCM' as const, iv, ciphertext, customerId, generatedAt: payload.generatedAt };
}

/** GET /public/widget-info: unencrypted card data of one public item. */
export async function widgetInfo(ctx: Ctx, q: { customer_id: string; inventory_id: string }) {
  const item = await ctx.db
    .select()
    .from(inventoryItems)
    .where(
      and(
        eq(inventoryItems.id, q.inventory_id),
        eq(inventoryItems.customerId, q.customer_id),
        isNull(inventoryItems.deletedAt),
        eq(inventoryItems.isPublic, true),
      ),
    )
    .get();
  if (!item) throw notFound('Inventory item');
  const m = readData(item);
  const loc = await ctx.db
    .select({ currency: locations.currency })
    .from(locations)
    .where(and(eq(locations.id, item.locationId), eq(locations.customerId, item.customerId)))
    .get();
  return {
    inventoryId: item.id,
    customerId: item.customerId,
    locationId: item.locationId,
    name: item.name,
    type: m.type ?? item.kind,
    category: m.category ?? null,
    image: m.images?.[0] ?? null,
    ...startingPrice(m),
    currency: (m.currency ?? loc?.currency ?? 'usd').toLowerCase(),
    capacity: m.capacity ?? 1,
  };
}
