/**
 * Factories for the booking and availability tests: inventory items (with a `data` object valid
 * under InventoryData) and their assets inserted straight into D1, so these tests do not depend
 * on the inventory endpoints. Plus helpers to build booking bodies and count rows.
 */
import { env } from 'cloudflare:test';
import { db, post, type Operator } from '../../harness';
import { newId } from '../../../src/lib/ids';
import { addDays, localDate, wallTimeToUtc } from '../../../src/lib/time';
import { inventoryAssets, inventoryItems } from '../../../src/db/schema/inventory';
import { locations } from '../../../src/db/schema/locations';
import { InventoryData, type InventoryDataInput } from '../../../src/modules/inventory/model';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface TestItem {
  id: string;
  locationId: string;
  assetIds: string[];
  timezone: string;
}

/** A rental pool item: `assets` identical boats, open 08:00-18:00 every day, simple hourly and daily prices. */
export async function rentalItem(
  op: Operator,
  o: { assets?: number; data?: Partial<InventoryDataInput>; locationId?: string; timezone?: string; isPublic?: boolean } = {},
): Promise<TestItem> {
  const n = o.assets ?? 1;
  return insertItem(op, {
    locationId: o.locationId,
    timezone: o.timezone,
    isPublic: o.isPublic,
    assets: n,
    data: {
      name: 'Pontoon 22',
      type: 'rental',
      capacity: 8,
      slotIntervalMinutes: 60,
      seasons: [{ name: 'Default', dailyPrices: everyDay(400), hourlyPrices: everyDay({ basePrice: 100 }) }],
      ...(o.data ?? {}),
    },
  });
}

/** A tour with departures at 10:00 and 14:00 (2 hours), `capacity` seats, Adult 50 / Child 25. */
export async function tourItem(
  op: Operator,
  o: { capacity?: number; data?: Partial<InventoryDataInput>; locationId?: string; timezone?: string } = {},
): Promise<TestItem> {
  return insertItem(op, {
    locationId: o.locationId,
    timezone: o.timezone,
    assets: 0,
    data: {
      name: 'Dolphin tour',
      type: 'tour',
      capacity: o.capacity ?? 3,
      timeSlots: [
        { time: '10:00', durationMinutes: 120 },
        { time: '14:00', durationMinutes: 120 },
      ],
      tourPricing: {
        priceTiers: [
          { name: 'Adult', price: 50 },
          { name: 'Child', price: 25 },
        ],
        minParticipants: 1,
        isPrivate: false,
      },
      ...(o.data ?? {}),
    },
  });
}

export function everyDay<T>(v: T): Record<'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday', T> {
  return { Monday: v, Tuesday: v, Wednesday: v, Thursday: v, Friday: v, Saturday: v, Sunday: v };
}

async function insertItem(
  op: Operator,
  o: { assets: number; data: Partial<InventoryDataInput>; locationId?: string; timezone?: string; isPublic?: boolean },
): Promise<TestItem> {
  const d = db();
  let locationId = o.locationId ?? op.locationId;
  let timezone = op.timezone;
  if (o.timezone && !o.locationId) {
    locationId = newId('loc');
    timezone = o.timezone;
    await d
      .insert(locations)
      .values({ id: locationId, customerId: op.customerId, name: `Dock ${o.timezone}`, address: '1 Quay', phoneNumber: '+15555550100', timezone: o.timezone });
  } else if (o.locationId) {
    const loc = await d.select().from(locations).all();
    timezone = loc.find((l) => l.id === o.locationId)?.timezone ?? timezone;
  }
  const id = newId('inv');
  const assetIds = Array.from({ length: o.assets }, () => newId('ast'));
  const raw = { ...o.data, locationId, assets: assetIds.map((a, i) => ({ assetId: a, name: `Boat ${i + 1}` })) } as InventoryDataInput;
  const data = InventoryData.parse(raw); // the contract: what B's endpoints would store
  await d.batch([
    d.insert(inventoryItems).values({
      id,
      customerId: op.customerId,
      locationId,
      name: data.name,
      kind: data.type,
      data: data as Record<string, unknown>,
      isPublic: o.isPublic ?? true,
    }),
    ...assetIds.map((a, i) => d.insert(inventoryAssets).values({ id: a, customerId: op.customerId, itemId: id, name: `Boat ${i + 1}`, displayOrder: i })),
  ] as any);
  return { id, locationId, assetIds, timezone };
}

/** A wall-clock time N days from today in a zone, as ISO with offset Z (UTC instant). */
export function at(tz: string, daysAhead: number, time: string): string {
  const date = addDays(localDate(Date.now(), tz), daysAhead);
  return new Date(wallTimeToUtc(date, time, tz)).toISOString();
}

export const dateAhead = (tz: string, daysAhead: number) => addDays(localDate(Date.now(), tz), daysAhead);

let emailSeq = 0;
export const email = (tag = 'renter') => `${tag}-${Date.now().toString(36)}-${++emailSeq}@renter.test`;

/** A body for POST /coreBooking/book. */
export function bookBody(o: {
  inventoryId?: string;
  startTime?: string;
  endTime?: string;
  quantity?: number;
  tickets?: Record<string, number>;
  assetIds?: string[];
  email?: string;
  paymentMethodId?: string | null;
  total?: number;
  extra?: Record<string, unknown>;
  rentalDetails?: Record<string, unknown>;
}) {
  return {
    rentalDetails: {
      ...(o.inventoryId ? { inventoryId: o.inventoryId } : {}),
      ...(o.startTime ? { startTime: o.startTime } : {}),
      ...(o.endTime ? { endTime: o.endTime } : {}),
      ...(o.quantity != null ? { quantity: o.quantity } : {}),
      ...(o.tickets ? { tickets: o.tickets } : {}),
      ...(o.assetIds ? { assetIds: o.assetIds } : {}),
      ...(o.rentalDetails ?? {}),
    },
    rentalPricing: o.total != null ? { total: o.total } : {},
    customerInfo: { firstName: 'Rita', lastName: 'Renter', email: o.email ?? email() },
    ...(o.paymentMethodId === null ? {} : { paymentMethodId: o.paymentMethodId ?? 'pm_card_visa' }),
    extendedData: { channel: 'test' },
    ...(o.extra ?? {}),
  };
}

export const book = (op: Operator, body: unknown) => post('/coreBooking/book', body, { key: op.adminKey });

/** Row counts of the tables a booking writes, for one operator. */
export async function counts(customerId: string) {
  const q = async (table: string) =>
    Number((await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE customer_id = ?`).bind(customerId).first<{ n: number }>())?.n ?? 0);
  return {
    bookings: await q('bookings'),
    allocations: await q('allocations'),
    ledger: await q('ledger_entries'),
    renters: await q('renters'),
    events: await q('webhook_events'),
    deposits: await q('deposits'),
    messages: await q('message_outbox'),
  };
}

/** Active allocations of an item that overlap on the same asset (must always be empty). */
export async function assetOverlaps(itemId: string) {
  const r = await env.DB.prepare(
    `SELECT a.id AS a, b.id AS b FROM allocations a JOIN allocations b ON a.asset_id = b.asset_id AND a.id < b.id
     WHERE a.item_id = ? AND a.active = 1 AND b.active = 1 AND a.asset_id IS NOT NULL
       AND a.blocked_start < b.blocked_end AND b.blocked_start < a.blocked_end`,
  )
    .bind(itemId)
    .all();
  return r.results;
}

/** Seats taken per departure of a tour (active allocations). */
export async function seatsByDeparture(itemId: string) {
  const r = await env.DB.prepare(
    `SELECT start, SUM(seats) AS seats, MAX(capacity) AS capacity FROM allocations WHERE item_id = ? AND asset_id IS NULL AND active = 1 AND kind IN ('booking','hold') GROUP BY start`,
  )
    .bind(itemId)
    .all<{ start: number; seats: number; capacity: number }>();
  return r.results;
}

/** A rental's balance as its ledger says it (cents): the sum of the entries that affect the balance. */
export const ledgerBalance = async (rentalId: string) =>
  Number(
    (
      await env.DB.prepare('SELECT COALESCE(SUM(amount),0) AS s FROM ledger_entries WHERE rental_id = ? AND affects_balance = 1 AND deleted_at IS NULL')
        .bind(rentalId)
        .first<{ s: number }>()
    )?.s ?? 0,
  );

export async function eventsOf(customerId: string, type?: string) {
  const r = type
    ? await env.DB.prepare(`SELECT type, payload FROM webhook_events WHERE customer_id = ? AND type = ? ORDER BY created_at`)
        .bind(customerId, type)
        .all<{ type: string; payload: string }>()
    : await env.DB.prepare(`SELECT type, payload FROM webhook_events WHERE customer_id = ? ORDER BY created_at`)
        .bind(customerId)
        .all<{ type: string; payload: string }>();
  return r.results.map((e) => ({ type: e.type, payload: JSON.parse(e.payload) }));
}
