import { ApiError, type ErrorDetail } from '../../lib/errors';
import { base64Decode, sha256Hex } from '../../lib/crypto';
import { isoDate } from '../../lib/time';
import { isTicked, type SignatureImage, type StoredSection } from './pdf';
import { MAX_SIGNATURE_BYTES } from './schemas';

// ---------------------------------------------------------------------------------------------
// Signing

const DATA_URL = /^data:(image\/(?:png|jpeg|jpg));base64,([A-Za-z0-9+/=\s]+)$/;

function isPng(b: Uint8Array) {
  return b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a;
}
const isJpeg = (b: Uint8Array) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** Decodes a signature data URL; 400 when it is not a PNG or JPEG data URL, 413 when too large. */
async function decodeSignature(field: string, value: unknown, details: ErrorDetail[]): Promise<SignatureImage | null> {
  const bad = (message: string) => {
    details.push({ field: `formData.${field}`, code: 'invalid_signature', message });
    return null;
  };
  if (typeof value !== 'string') return bad(`formData.${field} must be a PNG or JPEG data URL (data:image/png;base64,...)`);
  const m = DATA_URL.exec(value.trim());
  if (!m) return bad(`formData.${field} must be a PNG or JPEG data URL (data:image/png;base64,... or data:image/jpeg;base64,...)`);
  const b64 = m[2].replace(/\s+/g, '');
  if (Math.floor((b64.length * 3) / 4) > MAX_SIGNATURE_BYTES + 3) {
    throw new ApiError('payload_too_large', `formData.${field}: signature images are limited to ${MAX_SIGNATURE_BYTES / 1024} KiB`, {
      details: [{ field: `formData.${field}`, message: 'image too large', code: 'too_large' }],
    });
  }
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(b64);
  } catch {
    return bad(`formData.${field} is not valid base64`);
  }
  const mime = m[1] === 'image/png' ? 'image/png' : 'image/jpeg';
  if (mime === 'image/png' ? !isPng(bytes) : !isJpeg(bytes)) return bad(`formData.${field} does not contain a ${mime === 'image/png' ? 'PNG' : 'JPEG'} image`);
  return { field, mime, bytes, sha256: await sha256Hex(bytes) };
}

function fieldProblem(s: Extract<StoredSection, { type: 'field' }>, v: unknown): string | null {
  const empty = v === undefined || v === null || (typeof v === 'string' && !v.trim());
  if (empty) return s.required ? `${s.label} is required` : null;
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return `${s.label} must be text`;
  const t = String(v).trim();
  if (t.length > 5000) return `${s.label} is too long (5000 characters at most)`;
  if (s.fieldType === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t)) return `${s.label} must be an e-mail address`;
  if (s.fieldType === 'date' && !isoDate.test(t)) return `${s.label} must be a date YYYY-MM-DD`;
  if (s.fieldType === 'number' && !Number.isFinite(Number(t))) return `${s.label} must be a number`;
  if (s.fieldType === 'phone' && !/^\+?[0-9 ().-]{3,32}$/.test(t)) return `${s.label} must be a phone number`;
  if (s.fieldType === 'select' && s.options && !s.options.includes(t)) return `${s.label} must be one of: ${s.options.join(', ')}`;
  return null;
}

/** Checks formData against the template; returns the values (images taken out) and the decoded images. */
export async function checkForm(sections: StoredSection[], formData: Record<string, unknown>) {
  const details: ErrorDetail[] = [];
  const images: SignatureImage[] = [];
  const values: Record<string, unknown> = {};
  const byId = new Map(sections.map((s) => [s.id, s]));
  for (const s of sections) {
    const v = formData[s.id];
    if (s.type === 'checkbox') {
      if (s.required && !isTicked(v)) details.push({ field: `formData.${s.id}`, code: 'required', message: `"${s.label.slice(0, 80)}" must be accepted` });
      values[s.id] = isTicked(v);
    } else if (s.type === 'field') {
      const p = fieldProblem(s, v);
      if (p) details.push({ field: `formData.${s.id}`, code: 'invalid', message: p });
      if (v !== undefined && v !== null) values[s.id] = typeof v === 'string' ? v.trim() : v;
    } else if (s.type === 'signature') {
      if (v === undefined || v === null || v === '') {
        if (s.required) details.push({ field: `formData.${s.id}`, code: 'required', message: `${s.label} is required` });
        continue;
      }
      const img = await decodeSignature(s.id, v, details);
      if (img) images.push(img);
    }
  }
  for (const [k, v] of Object.entries(formData)) {
    if (byId.has(k)) continue;
    if (typeof v === 'string' && v.trim().toLowerCase().startsWith('data:')) {
      const img = await decodeSignature(k, v, details);
      if (img) images.push(img);
      continue;
    }
    if (typeof v === 'string' && v.length > 5000)
      details.push({ field: `formData.${k}`, code: 'too_long', message: `formData.${k} is too long (5000 characters at most)` });
    else if (v !== null && typeof v === 'object' && JSON.stringify(v).length > 5000)
      details.push({ field: `formData.${k}`, code: 'too_long', message: `formData.${k} is too large` });
    else values[k] = v;
  }
  if (images.length > 20) details.push({ field: 'formData', code: 'too_many', message: 'at most 20 signature images' });
  if (details.length)
    throw new ApiError(
      'validation_failed',
      `Invalid waiver: ${details
        .map((d) => d.message)
        .slice(0, 3)
        .join('; ')}`,
      { details },
    );
  return { values, images };
}

/** JSON with sorted keys, so the content hash does not depend on key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
