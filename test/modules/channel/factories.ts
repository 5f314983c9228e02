import { db, post, patch, expectError, type Operator } from '../../harness';
import { inventoryAssets, inventoryItems } from '../../../src/db/schema/inventory';
import { newId } from '../../../src/lib/ids';
import { addDays, wallTimeToUtc } from '../../../src/lib/time';
import { expect } from 'vitest';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const every = <T>(v: T) => Object.fromEntries(DAYS.map((d) => [d, v]));

/** A rental pool of `assets` identical boats, open 08:00-20:00, hourly pricing. */
export async function rentalItem(
  op: { customerId: string; locationId: string },
  opts: {
    assets?: number;
    hourly?: number | { basePrice: number; minimumHours?: number };
    daily?: number;
    taxes?: { name: string; rate: number; appliesTo?: 'all' | 'rental' | 'addons' }[];
    name?: string;
    buffer?: number;
  } = {},
) {
  const id = newId('inv');
  const n = opts.assets ?? 1;
  const data = {
    name: opts.name ?? 'Test Boat',
    type: 'rental',
    locationId: op.locationId,
    capacity: 6,
    assets: Array.from({ length: n }, (_, i) => ({ assetId: `${id}_a${i + 1}`, name: `Boat ${i + 1}` })),
    operatingHours: every({ open: '08:00', close: '20:00' }),
    slotIntervalMinutes: 60,
    turnaroundBufferMinutes: opts.buffer ?? 0,
    seasons:
      opts.hourly === undefined && opts.daily === undefined
        ? []
        : [
            {
              name: 'All year',
              ...(opts.hourly !== undefined ? { hourlyPrices: every(opts.hourly) } : {}),
              ...(opts.daily !== undefined ? { dailyPrices: every(opts.daily) } : {}),
            },
          ],
    taxes: opts.taxes ?? [],
  };
  await db().batch([
    db().insert(inventoryItems).values({ id, customerId: op.customerId, locationId: op.locationId, name: data.name, kind: 'rental', data }),
    ...data.assets.map((a, i) => db().insert(inventoryAssets).values({ id: a.assetId, customerId: op.customerId, itemId: id, name: a.name, displayOrder: i })),
  ] as any);
  return { id, assetIds: data.assets.map((a) => a.assetId) };
}

/** A tour with `capacity` seats departing at the given times. */
export async function tourItem(
  op: { customerId: string; locationId: string },
  opts: { capacity?: number; slots?: string[]; tourPricing?: Record<string, unknown> | null } = {},
) {
  const id = newId('inv');
  const data = {
    name: 'Test Tour',
    type: 'tour',
    locationId: op.locationId,
    capacity: opts.capacity ?? 3,
    timeSlots: (opts.slots ?? ['10:00']).map((t) => ({ time: t, durationMinutes: 120 })),
    ...(opts.tourPricing === null
      ? {}
      : {
          tourPricing: opts.tourPricing ?? {
            priceTiers: [
              { name: 'Child', price: 20 },
              { name: 'Adult', price: 45 },
            ],
            minParticipants: 1,
          },
        }),
  };
  await db().insert(inventoryItems).values({ id, customerId: op.customerId, locationId: op.locationId, name: data.name, kind: 'tour', data });
  return { id };
}

/** An instant `days` days from now at local `time` in `tz`, as ISO. */
export function at(tz: string, days: number, time: string) {
  const date = addDays(new Date().toISOString().slice(0, 10), days);
  return new Date(wallTimeToUtc(date, time, tz)).toISOString();
}

export async function partnerKey(op: Operator, opts: { mode?: 'live' | 'test'; commissionRate?: number; name?: string } = {}) {
  const r = await post(
    '/channel-connections/partner-keys',
    { name: opts.name ?? 'Concierge desk', commissionRate: opts.commissionRate ?? 15, mode: opts.mode ?? 'live' },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body as { connectionId: string; key: string };
}

/** A registered platform channel (OTA) and its portal token and keys. */
export async function platform(slug = `ota-${crypto.randomUUID().slice(0, 8)}`) {
  const r = await post('/channel/v1/portal/register', { name: `OTA ${slug}`, slug, contactEmail: `${slug}@ota.example` });
  expect(r.status, r.text).toBe(201);
  return r.body as { channelId: string; portalToken: string; keys: { live: string; test: string } };
}

export async function connect(op: Operator, channelId: string, commissionRate = 20, extra: Record<string, unknown> = {}) {
  const r = await post('/channel-connections', { channelId, commissionRate, ...extra }, { key: op.adminKey });
  expect(r.status, r.text).toBe(201);
  return r.body as { connectionId: string };
}

export const ch = (key: string, extra: Record<string, string> = {}) => ({ headers: { authorization: `Bearer ${key}`, ...extra } });
export const idem = (key: string, idk: string) => ch(key, { 'idempotency-key': idk });
export { patch, expectError };
