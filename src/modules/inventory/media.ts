/**
 * Inventory media: file type sniffing from magic bytes, image dimensions from headers, and the R2
 * keys and public URLs of stored files. No decoding and no re-encoding: files are stored as sent.
 */
import { ApiError } from '../../lib/errors';
import { inventoryErrors } from './errors';

export type MediaKind = 'photo' | 'video';

export interface Sniffed {
  mime: string;
  ext: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
}

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 50 * 1024 * 1024;

const ascii = (b: Uint8Array, from: number, len: number) => String.fromCharCode(...b.subarray(from, from + len));
const startsWith = (b: Uint8Array, sig: number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const be16 = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const be32 = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
const le16 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const le24 = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);

/** ISO base-media brands we accept as MP4 video (`qt  ` is QuickTime; audio-only and HEIF brands are refused). */
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'M4V ',
  'M4VP',
  'M4VH',
  'dash',
  'mmp4',
  'MSNV',
  'XAVC',
  'f4v ',
]);
/** Top-level atoms an old QuickTime file may start with (no `ftyp`). */
const MOV_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = be16(b, i + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: be16(b, i + 5), width: be16(b, i + 7) };
    }
    if (len < 2) return null;
    i += 2 + len;
  }
  return null;
}

function webpSize(b: Uint8Array): { width: number; height: number } | null {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X' && b.length >= 30) return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  if (chunk === 'VP8 ' && b.length >= 30 && startsWith(b, [0x9d, 0x01, 0x2a], 23)) return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  if (chunk === 'VP8L' && b.length >= 25 && b[20] === 0x2f) {
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

/**
 * The real type of a file from its first bytes (at least 64 should be given), or null when it is
 * none of the supported photo and video formats. The declared type and the file name are ignored.
 */
export function sniff(b: Uint8Array): Sniffed | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    const ok = b.length >= 24 && ascii(b, 12, 4) === 'IHDR';
    return { mime: 'image/png', ext: 'png', kind: 'photo', width: ok ? be32(b, 16) : null, height: ok ? be32(b, 20) : null };
  }
  if (startsWith(b, [0xff, 0xd8, 0xff])) {
    const size = jpegSize(b);
    return { mime: 'image/jpeg', ext: 'jpg', kind: 'photo', width: size?.width ?? null, height: size?.height ?? null };
  }
  if (b.length >= 10 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) {
    return { mime: 'image/gif', ext: 'gif', kind: 'photo', width: le16(b, 6), height: le16(b, 8) };
  }
  if (b.length >= 16 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') {
    const size = webpSize(b);
    return { mime: 'image/webp', ext: 'webp', kind: 'photo', width: size?.width ?? null, height: size?.height ?? null };
  }
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp') {
    const brand = ascii(b, 8, 4);
    if (brand === 'qt  ') return { mime: 'video/quicktime', ext: 'mov', kind: 'video', width: null, height: null };
    if (MP4_BRANDS.has(brand)) return { mime: 'video/mp4', ext: 'mp4', kind: 'video', width: null, height: null };
    return null;
  }
  if (b.length >= 8 && MOV_ATOMS.has(ascii(b, 4, 4))) return { mime: 'video/quicktime', ext: 'mov', kind: 'video', width: null, height: null };
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3]) && ascii(b, 0, Math.min(b.length, 64)).includes('webm')) {
    return { mime: 'video/webm', ext: 'webm', kind: 'video', width: null, height: null };
  }
  return null;
}

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

/**
 * Checks a file for an upload of `kind`: not empty, within the size limit, and of a supported type
 * by its content. Every refusal is a 400 with a specific code.
 */
export function checkUpload(kind: MediaKind, bytes: Uint8Array, field = 'file'): Sniffed {
  const max = kind === 'photo' ? MAX_PHOTO_BYTES : MAX_VIDEO_BYTES;
  const allowed: readonly string[] = kind === 'photo' ? PHOTO_TYPES : VIDEO_TYPES;
  const names = kind === 'photo' ? 'JPEG, PNG, WebP or GIF' : 'MP4, QuickTime (.mov) or WebM';
  if (!bytes.length)
    throw new ApiError('validation_failed', `Invalid request: ${field} is empty`, {
      details: [{ field, location: 'body', code: 'empty_file', message: `${field} is empty` }],
    });
  if (bytes.length > max) {
    throw inventoryErrors.fail('file_too_large', `The ${kind} is ${(bytes.length / (1024 * 1024)).toFixed(1)} MB; the limit is ${mb(max)}`, {
      details: [{ field, location: 'body', code: 'file_too_large', message: `at most ${mb(max)}` }],
    });
  }
  const found = sniff(bytes.subarray(0, 64 * 1024));
  if (!found || !allowed.includes(found.mime)) {
    const what = found ? `a ${found.kind} (${found.mime})` : 'not a supported format';
    throw inventoryErrors.fail('unsupported_file_type', `Unsupported ${kind} format: the content is ${what}. Send ${names}.`, {
      details: [{ field, location: 'body', code: 'unsupported_file_type', message: `must be ${names}`, allowed: [...allowed] }],
    });
  }
  return found;
}

export type MediaFolder = 'photos' | 'videos' | 'asset-map';

/** R2 key of an item's media file. */
export const mediaKey = (customerId: string, itemId: string, folder: MediaFolder, file: string) => `${customerId}/inventory/${itemId}/${folder}/${file}`;

/** Public URL of a stored media file (served by GET /inventory/media/...). */
export const mediaUrl = (baseUrl: string, customerId: string, itemId: string, folder: MediaFolder, file: string) =>
  `${baseUrl.replace(/\/$/, '')}/inventory/media/${encodeURIComponent(customerId)}/${encodeURIComponent(itemId)}/${folder}/${encodeURIComponent(file)}`;

/** Decodes base64 or a `data:` URL; 400 when it is neither. */
export function decodeBase64(input: string, field: string): Uint8Array {
  const m = /^data:[^;,]*(;[^,]*)?,(.*)$/s.exec(input);
  const raw = (m ? m[2] : input).replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (m && !/;base64/i.test(m[1] ?? ''))
    throw new ApiError('validation_failed', `Invalid request: ${field} must be base64`, {
      details: [{ field, location: 'body', code: 'invalid_base64', message: 'the data URL must be base64-encoded' }],
    });
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(raw) || raw.length % 4 === 1) {
    throw new ApiError('validation_failed', `Invalid request: ${field} is not valid base64`, {
      details: [{ field, location: 'body', code: 'invalid_base64', message: 'not valid base64' }],
    });
  }
  const bin = atob(raw.padEnd(raw.length + ((4 - (raw.length % 4)) % 4), '='));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
