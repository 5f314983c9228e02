import { expect } from 'vitest';
import { post, type Operator } from '../../harness';
import { encodeJpeg } from '../../../src/lib/image/jpeg-encode';
import { encodePng } from '../../../src/lib/image/png';
import type { Pixels } from '../../../src/lib/image/raster';

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

/** A real 1x1 RGBA PNG (decodable), for uploads that only need a valid photo. */
const ONE_PIXEL_PNG = [
  137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 8, 153,
  99, 208, 168, 56, 241, 31, 0, 4, 156, 2, 104, 76, 76, 238, 94, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];

/**
 * A PNG: with the defaults a real 1x1 image; with a size, only a signature and an IHDR claiming it (for the
 * checks that read headers: type, size limits, asset map dimensions), padded with zeros to `padTo` bytes.
 */
export function pngBytes(width = 1, height = 1, padTo = 0): Uint8Array {
  if (width === 1 && height === 1) {
    const bytes = new Uint8Array(Math.max(padTo, ONE_PIXEL_PNG.length));
    bytes.set(ONE_PIXEL_PNG);
    return bytes;
  }
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

/** RGBA pixels of a test picture: four coloured quadrants (red, green, blue, yellow from the top left) over a soft gradient. */
export function quadrants(width: number, height: number, alpha = 255): Pixels {
  const data = new Uint8Array(width * height * 4);
  const colours = [
    [220, 40, 40],
    [40, 200, 60],
    [40, 60, 220],
    [230, 210, 40],
  ];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)];
      const i = (y * width + x) * 4;
      data.set([c[0], c[1], c[2], alpha], i);
    }
  }
  return { width, height, data };
}

/** A real JPEG photo (quadrants), optionally with an EXIF orientation (APP1 after SOI). */
export function photoJpeg(width: number, height: number, orientation = 1): Uint8Array {
  const jpeg = encodeJpeg(quadrants(width, height), 85);
  if (orientation === 1) return jpeg;
  // APP1: "Exif\0\0", big-endian TIFF header, IFD0 with one entry: 0x0112 SHORT 1 = orientation.
  const tiff = [0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 255, ...payload];
  const out = new Uint8Array(jpeg.length + app1.length);
  out.set(jpeg.subarray(0, 2));
  out.set(app1, 2);
  out.set(jpeg.subarray(2), 2 + app1.length);
  return out;
}

/** A real PNG photo (quadrants), half transparent when `alpha` < 255. */
export const photoPng = (width: number, height: number, alpha = 255) => encodePng(quadrants(width, height, alpha), alpha === 255);

/** Width and height from a JPEG's frame header or a PNG's IHDR (what a browser reads first). */
export function imageSize(b: Uint8Array): { width: number; height: number } {
  if (b[0] === 0x89) return { width: (b[18] << 8) | b[19], height: (b[22] << 8) | b[23] };
  for (let i = 2; i + 9 < b.length;) {
    const marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xc2) return { height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
    i += 2 + ((b[i + 2] << 8) | b[i + 3]);
  }
  throw new Error('no frame header');
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
