import { expect } from 'vitest';
import { post, type Operator } from '../../harness';

export function rentalData(op: Operator, over: Record<string, unknown> = {}) {
  return {
    name: 'Center Console 24',
    type: 'rental',
    locationId: op.locationId,
    capacity: 8,
    assets: [{ name: 'Boat 1' }, { name: 'Boat 2' }],
    seasons: [
      {
        name: 'Summer',
        startDate: '05-01',
        endDate: '10-31',
        dailyPrices: { Monday: 600, Saturday: 750 },
        hourlyPrices: { Monday: { basePrice: 120, minimumHours: 2, maximumHours: 8, multiHourDiscounts: [{ hours: 4, discountPercentage: 10 }] } },
      },
    ],
    addons: [{ addonId: 'cooler', name: 'Cooler with ice', price: 15 }],
    taxes: [{ name: 'Sales tax', rate: 7 }],
    ...over,
  };
}

export function tourData(op: Operator, over: Record<string, unknown> = {}) {
  return {
    name: 'Sunset Tour',
    type: 'tour',
    locationId: op.locationId,
    capacity: 12,
    timeSlots: [
      { time: '10:00', durationMinutes: 120 },
      { time: '18:00', durationMinutes: 120 },
    ],
    tourPricing: {
      priceTiers: [
        { name: 'Adult', price: 65 },
        { name: 'Child', price: 45 },
      ],
      minParticipants: 2,
    },
    ...over,
  };
}

/** Creates an item through the API and returns the response body. */
export async function createItem(op: Operator, data: Record<string, unknown> = rentalData(op)) {
  const r = await post('/inventory/setup', { data }, { key: op.adminKey });
  expect(r.status, r.text).toBe(200);
  expect(r.body.created).toBe(true);
  return r.body;
}

/** A minimal valid PNG (1x1) with its real signature and IHDR. */
export function pngBytes(width = 1, height = 1, padTo = 0): Uint8Array {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
  const dims = [
    (width >>> 24) & 255,
    (width >>> 16) & 255,
    (width >>> 8) & 255,
    width & 255,
    (height >>> 24) & 255,
    (height >>> 16) & 255,
    (height >>> 8) & 255,
    height & 255,
  ];
  const rest = [8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89, 0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82];
  const bytes = new Uint8Array(Math.max(padTo, head.length + dims.length + rest.length));
  bytes.set([...head, ...dims, ...rest]);
  return bytes;
}

export function mp4Bytes(brand = 'isom'): Uint8Array {
  const b = new Uint8Array(64);
  b.set([0, 0, 0, 0x20]);
  b.set(
    [...'ftyp'].map((c) => c.charCodeAt(0)),
    4,
  );
  b.set(
    [...brand].map((c) => c.charCodeAt(0)),
    8,
  );
  return b;
}

export function form(bytes: Uint8Array | string, name = 'photo.png', type = 'image/png', field = 'file'): FormData {
  const fd = new FormData();
  fd.append(field, new File([bytes], name, { type }));
  return fd;
}
