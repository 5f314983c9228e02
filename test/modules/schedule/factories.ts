/**
 * Direct-insert factories for the read side (schedule, deposits, events, public booking tests):
 * inventory items with assets, renters and booking rows (one rental line each), written straight
 * to D1 so these tests do not depend on the booking commit.
 */
import { db, type Operator } from '../../harness';
import { newId } from '../../../src/lib/ids';
import { localDate } from '../../../src/lib/time';
import { inventoryAssets, inventoryItems, allocations } from '../../../src/db/schema/inventory';
import { bookings, renters } from '../../../src/db/schema/bookings';
import { locations } from '../../../src/db/schema/locations';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface ItemOpts {
  name?: string;
  locationId?: string;
  type?: 'rental' | 'tour';
  assets?: number;
  isPublic?: boolean;
  data?: Record<string, unknown>;
}

export async function makeItem(op: Operator, o: ItemOpts = {}) {
  const d = db();
  const id = newId('inv');
  const locationId = o.locationId ?? op.locationId;
  const type = o.type ?? 'rental';
  const assetIds = Array.from({ length: type === 'tour' ? 0 : (o.assets ?? 2) }, () => newId('ast'));
  const data = {
    name: o.name ?? 'Pontoon 22',
    type,
    locationId,
    category: 'Pontoon',
    description: 'A comfortable pontoon boat',
    images: ['https://img.example.test/pontoon.jpg'],
    capacity: 8,
    seasons: [{ name: 'Default', dailyPrices: { Saturday: 450, Sunday: 420 }, hourlyPrices: { Monday: { basePrice: 95 }, Saturday: 120 } }],
    assets: assetIds.map((a, i) => ({ assetId: a, name: `Boat ${i + 1}` })),
    ...(o.data ?? {}),
  };
  await d.batch([
    d.insert(inventoryItems).values({ id, customerId: op.customerId, locationId, name: data.name as string, kind: type, data, isPublic: o.isPublic ?? true }),
    ...assetIds.map((a, i) => d.insert(inventoryAssets).values({ id: a, customerId: op.customerId, itemId: id, name: `Boat ${i + 1}`, displayOrder: i })),
  ] as any);
  return { id, locationId, assetIds, data };
}

export async function makeLocation(op: Operator, o: { name?: string; timezone?: string } = {}) {
  const id = newId('loc');
  await db()
    .insert(locations)
    .values({
      id,
      customerId: op.customerId,
      name: o.name ?? 'Second dock',
      address: '2 Harbour Way',
      phoneNumber: '+15555550101',
      timezone: o.timezone ?? 'America/New_York',
    });
  return id;
}

export async function makeRenter(op: Operator, o: { firstName?: string; lastName?: string; email?: string; phone?: string } = {}) {
  const id = newId('rnt');
  const email = (o.email ?? `${id.slice(-8).toLowerCase()}@renter.test`).toLowerCase();
  await db()
    .insert(renters)
    .values({ id, customerId: op.customerId, firstName: o.firstName ?? 'Rita', lastName: o.lastName ?? 'Renter', email, phone: o.phone ?? '+15555550199' });
  return { id, email, firstName: o.firstName ?? 'Rita', lastName: o.lastName ?? 'Renter' };
}

export interface BookingOpts {
  item: { id: string; locationId: string; assetIds: string[] };
  start: number;
  hours?: number;
  status?: string;
  transactionId?: string;
  bundleGroupId?: string | null;
  renterId?: string | null;
  customerInfo?: Record<string, unknown> | null;
  extendedData?: Record<string, unknown> | null;
  assetIds?: string[];
  total?: number; // cents
  amountPaid?: number;
  source?: 'operator' | 'widget' | 'channel' | 'marketplace' | 'import';
  timezone?: string;
  /** Also write the active allocation (busy interval) rows. */
  allocate?: boolean;
  paymentIntentId?: string | null;
  id?: string;
}

export async function makeBooking(op: Operator, o: BookingOpts) {
  const id = o.id ?? newId('bk');
  const end = o.start + (o.hours ?? 2) * HOUR;
  const assetIds = o.assetIds ?? (o.item.assetIds.length ? [o.item.assetIds[0]] : []);
  const row: typeof bookings.$inferInsert = {
    id,
    customerId: op.customerId,
    transactionId: o.transactionId ?? newId('txn'),
    bundleGroupId: o.bundleGroupId ?? null,
    locationId: o.item.locationId,
    itemId: o.item.id,
    renterId: o.renterId ?? null,
    status: o.status ?? 'confirmed',
    source: o.source ?? 'operator',
    start: o.start,
    end,
    localDate: localDate(o.start, o.timezone ?? op.timezone),
    assetIds,
    subtotal: o.total ?? 20000,
    total: o.total ?? 20000,
    amountPaid: o.amountPaid ?? o.total ?? 20000,
    pricing: { basePrice: 200, internalCost: 55 },
    customerInfo: o.customerInfo === undefined ? { firstName: 'Rita', lastName: 'Renter', email: 'rita@renter.test', phone: '+15555550199' } : o.customerInfo,
    extendedData: o.extendedData === undefined ? { notes: 'Birthday trip', internalNotes: 'VIP - comp drinks' } : o.extendedData,
    paymentIntentId: o.paymentIntentId ?? null,
  };
  const d = db();
  const stmts: any[] = [d.insert(bookings).values(row)];
  if (o.allocate) {
    for (const a of assetIds) {
      stmts.push(
        d.insert(allocations).values({
          id: newId('alc'),
          customerId: op.customerId,
          itemId: o.item.id,
          assetId: a,
          kind: 'booking',
          sourceId: id,
          start: o.start,
          end,
          blockedStart: o.start,
          blockedEnd: end,
        }),
      );
    }
  }
  await d.batch(stmts as any);
  return { ...row, id, end, assetIds };
}

/** Noon UTC `days` from today, as epoch ms. */
export const dayAt = (days: number, hourUtc = 14) => {
  const t = new Date();
  t.setUTCHours(hourUtc, 0, 0, 0);
  return t.getTime() + days * DAY;
};
