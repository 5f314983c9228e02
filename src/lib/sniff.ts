/**
 * The real type of an uploaded file from its first bytes (magic numbers), for uploads that accept
 * documents and photos (slip documents, haul service photos). The declared type and the file name
 * are never trusted.
 */
export type SniffedType = 'application/pdf' | 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic';

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const startsWith = (b: Uint8Array, sig: number[]) => b.length >= sig.length && sig.every((x, i) => b[i] === x);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'heim', 'heis']);

export function sniffFile(b: Uint8Array): SniffedType | null {
  if (b.length >= 5 && ascii(b, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  if (b.length >= 12 && ascii(b, 4, 4) === 'ftyp' && HEIC_BRANDS.has(ascii(b, 8, 4))) return 'image/heic';
  return null;
}

export const EXTENSIONS: Record<SniffedType, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
};

/** A file name safe to store and to put in a Content-Disposition header. */
export const safeFileName = (name: string | null | undefined, fallback: string) =>
  (name ?? '')
    .replace(/[^\w.\- ]+/g, '_')
    .trim()
    .slice(0, 120) || fallback;
