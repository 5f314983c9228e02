/**
 * Documents sent to the AI helpers (receipts, licences): base64 (optionally a `data:` URL) or an
 * http(s) URL fetched through the safe public fetch. The type is sniffed from the bytes (never
 * trusted from the caller): images (PNG, JPEG, GIF, WebP, HEIC), PDF, or UTF-8 text (plain, HTML,
 * JSON, a scanned barcode's payload).
 */
import { ApiError } from '../../lib/errors';
import { fetchPublic } from '../../adapters/http';
import type { Env } from '../../env';

export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

export interface Media {
  bytes: Uint8Array;
  kind: 'image' | 'pdf' | 'text';
  mime: string;
  /** The text, for `text` documents. */
  text: string | null;
  from: 'base64' | 'url';
}

const bad = (field: string, code: string, message: string) =>
  new ApiError('validation_failed', `Invalid request: ${field} ${message}`, { details: [{ field, location: 'body', code, message }] });

function sniff(b: Uint8Array): { kind: 'image' | 'pdf'; mime: string } | null {
  const at = (i: number, ...xs: number[]) => xs.every((x, j) => b[i + j] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47)) return { kind: 'image', mime: 'image/png' };
  if (at(0, 0xff, 0xd8, 0xff)) return { kind: 'image', mime: 'image/jpeg' };
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return { kind: 'image', mime: 'image/gif' };
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return { kind: 'image', mime: 'image/webp' };
  if (at(4, 0x66, 0x74, 0x79, 0x70) && /^(heic|heix|mif1|msf1|avif)$/.test(String.fromCharCode(...b.slice(8, 12))))
    return { kind: 'image', mime: 'image/heic' };
  if (at(0, 0x25, 0x50, 0x44, 0x46)) return { kind: 'pdf', mime: 'application/pdf' };
  return null;
}

function asText(b: Uint8Array): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(b);
    // Text has no control characters other than tab, line breaks and the barcode separators (RS, GS, FS).
    // eslint-disable-next-line no-control-regex
    return /[\u0000-\u0008\u000e-\u001b\u007f]/.test(text) ? null : text;
  } catch {
    return null;
  }
}

function decodeBase64(raw: string, field: string): Uint8Array {
  const clean = raw.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw bad(field, 'invalid_base64', 'must be base64, a data: URL or an http(s) URL');
  let bin: string;
  try {
    bin = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='));
  } catch {
    throw bad(field, 'invalid_base64', 'must be base64, a data: URL or an http(s) URL');
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Reads a document given as base64, a data: URL or an http(s) URL. With `rawText`, a value that is
 * none of these is taken as the document's text itself (a receipt's text, a scanned barcode payload).
 */
export async function readMedia(env: Env, input: string, field: string, opts: { rawText?: boolean } = {}): Promise<Media> {
  const value = input.trim();
  let bytes: Uint8Array;
  let from: Media['from'] = 'base64';
  if (/^https?:\/\//i.test(value)) {
    from = 'url';
    const res = await fetchPublic(env, value, {
      field,
      accept: ['image/', 'application/pdf', 'text/plain', 'text/html', 'application/json', 'application/octet-stream'],
      maxBytes: MAX_DOCUMENT_BYTES,
    });
    bytes = res.body;
  } else {
    const data = /^data:([^,;]*)((?:;[^,;]*)*),(.*)$/s.exec(value);
    if (data && !/;base64/i.test(data[2])) bytes = new TextEncoder().encode(decodeURIComponent(data[3]));
    else if (!data && opts.rawText && !/^[A-Za-z0-9+/=\s_-]+$/.test(value)) bytes = new TextEncoder().encode(input);
    else bytes = decodeBase64(data ? data[3] : value, field);
  }
  if (!bytes.length) throw bad(field, 'empty', 'is empty');
  if (bytes.length > MAX_DOCUMENT_BYTES) throw bad(field, 'too_large', `is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
  const sniffed = sniff(bytes);
  if (sniffed) return { bytes, ...sniffed, text: null, from };
  const text = asText(bytes);
  if (text === null) throw bad(field, 'unsupported_document', 'is not an image (PNG, JPEG, GIF, WebP, HEIC), a PDF or text');
  return { bytes, kind: 'text', mime: 'text/plain', text, from };
}
