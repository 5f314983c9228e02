/**
 * `POST /ai/extract-license`: name, number, expiry and date of birth of a driving licence or ID.
 * Read offline: the data a scanner reads from the licence's barcode (the AAMVA PDF417 payload of
 * North American licences, sent as text) and machine-readable zones of passports and ID cards (MRZ,
 * with their check digits verified). Photos of a licence are read by the AI port's vision model
 * when one is configured; without it the answer is `not_analysed`, with nothing guessed.
 */
import { ai } from '../../adapters/ai';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { todayIn } from '../../lib/clock';
import { listLocations } from '../locations/service';
import { readMedia } from './media';

export interface LicenseFields {
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  number: string | null;
  expiry: string | null;
  dateOfBirth: string | null;
  issuer: string | null;
  documentType: string | null;
}

const empty = (): LicenseFields => ({
  firstName: null,
  middleName: null,
  lastName: null,
  number: null,
  expiry: null,
  dateOfBirth: null,
  issuer: null,
  documentType: null,
});

const valid = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? t.toISOString().slice(0, 10) : null;
};
const title = (s: string | undefined | null) =>
  s
    ? s
        .trim()
        .toLowerCase()
        .replace(/(^|[\s'-])\p{L}/gu, (c) => c.toUpperCase()) || null
    : null;

/** AAMVA dates: MMDDCCYY (United States) or CCYYMMDD (Canada). */
function aamvaDate(v: string | undefined, canada: boolean): string | null {
  if (!v || !/^\d{8}$/.test(v)) return null;
  const ymd = canada || Number(v.slice(0, 4)) > 1900;
  return ymd ? valid(+v.slice(0, 4), +v.slice(4, 6), +v.slice(6, 8)) : valid(+v.slice(4, 8), +v.slice(0, 2), +v.slice(2, 4));
}

/** The elements of an AAMVA barcode payload (`@` ... `ANSI ` ... `DL` subfile: `DAQ` number, `DCS` family name, ...). */
export function parseAamva(text: string): LicenseFields | null {
  if (!/^\s*@/.test(text) || !/ANSI |AAMVA/.test(text)) return null;
  const el: Record<string, string> = {};
  // The record, group and file separators (RS, GS, FS) end elements too.
  // eslint-disable-next-line no-control-regex
  for (const raw of text.split(/[\n\r\u001e\u001d\u001c]+/)) {
    let line = raw.trim();
    // The first element follows the subfile designator (`DL` or `ID`), on the header line or its own.
    if (!/^D[A-Z]{2}/.test(line) || /^(DL|ID)D[A-Z]{2}/.test(line)) {
      const sub = /(?:DL|ID)(D[A-Z]{2}.*)$/.exec(line);
      if (!sub) continue;
      line = sub[1];
    }
    const m = /^(D[A-Z]{2})(.*)$/.exec(line);
    if (m && !(m[1] in el)) el[m[1]] = m[2].trim();
  }
  const canada = el.DCG === 'CAN';
  const f = empty();
  f.documentType = /IDD[A-Z]{2}/.test(text) && !/DLD[A-Z]{2}/.test(text) ? 'id_card' : 'driver_license';
  f.number = el.DAQ || null;
  f.lastName = title(el.DCS ?? el.DAB ?? el.DAA?.split(',')[0]);
  const given = el.DAC ?? el.DCT ?? el.DAA?.split(',')[1];
  f.firstName = title(given?.split(/[ ,]/)[0]);
  f.middleName = title(el.DAD ?? (el.DCT ? el.DCT.split(/[ ,]/).slice(1).join(' ') : el.DAA?.split(',')[2]));
  f.dateOfBirth = aamvaDate(el.DBB, canada);
  f.expiry = aamvaDate(el.DBA, canada);
  f.issuer = [el.DAJ, el.DCG].filter(Boolean).join(', ') || null;
  return f;
}

const MRZ_VALUES = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
/** ICAO 9303 check digit (weights 7, 3, 1). */
export const mrzCheck = (s: string) => String([...s].reduce((sum, c, i) => sum + MRZ_VALUES(c) * [7, 3, 1][i % 3], 0) % 10);

/** A YYMMDD date of a zone; a birth year after this year's two digits (of `today`, YYYY-MM-DD) is of the 1900s. */
function mrzDate(v: string, kind: 'birth' | 'expiry', today: string): string | null {
  if (!/^\d{6}$/.test(v)) return null;
  const yy = Number(v.slice(0, 2));
  const now = Number(today.slice(2, 4));
  const year = kind === 'birth' ? (yy > now ? 1900 + yy : 2000 + yy) : 2000 + yy;
  return valid(year, +v.slice(2, 4), +v.slice(4, 6));
}

const mrzName = (s: string) => {
  const [last, given = ''] = s.split('<<');
  const names = given.split('<').filter(Boolean);
  return { lastName: title(last.replace(/</g, ' ')), firstName: title(names[0]), middleName: title(names.slice(1).join(' ')) };
};

/**
 * Machine-readable zones: TD3 (passports, 2 x 44) and TD1 (ID cards, 3 x 30); a zone whose check digits fail is not read.
 * `today` (YYYY-MM-DD) decides the century of two-digit birth years.
 */
export function parseMrz(text: string, today: string): LicenseFields | null {
  const lines = text
    .toUpperCase()
    .split(/\r?\n/)
    .map((l) => l.replace(/\s/g, ''))
    .filter((l) => /^[A-Z0-9<]{30,44}$/.test(l));
  const f = empty();
  for (let i = 0; i + 1 < lines.length; i++) {
    const [a, b] = [lines[i], lines[i + 1]];
    if (a.length === 44 && b.length === 44 && a[0] === 'P') {
      const ok = mrzCheck(b.slice(0, 9)) === b[9] && mrzCheck(b.slice(13, 19)) === b[19] && mrzCheck(b.slice(21, 27)) === b[27];
      if (!ok) return null;
      Object.assign(f, mrzName(a.slice(5)));
      f.documentType = 'passport';
      f.number = b.slice(0, 9).replace(/</g, '');
      f.dateOfBirth = mrzDate(b.slice(13, 19), 'birth', today);
      f.expiry = mrzDate(b.slice(21, 27), 'expiry', today);
      f.issuer = a.slice(2, 5).replace(/</g, '');
      return f;
    }
    const c = lines[i + 2];
    if (a.length === 30 && b.length === 30 && c?.length === 30) {
      const ok = mrzCheck(a.slice(5, 14)) === a[14] && mrzCheck(b.slice(0, 6)) === b[6] && mrzCheck(b.slice(8, 14)) === b[14];
      if (!ok) return null;
      Object.assign(f, mrzName(c));
      f.documentType = 'id_card';
      f.number = a.slice(5, 14).replace(/</g, '');
      f.dateOfBirth = mrzDate(b.slice(0, 6), 'birth', today);
      f.expiry = mrzDate(b.slice(8, 14), 'expiry', today);
      f.issuer = a.slice(2, 5).replace(/</g, '');
      return f;
    }
  }
  return null;
}

const VISION_PROMPT = `Read this driving licence or ID card. Answer as JSON: {"firstName": string|null, "middleName": string|null,
"lastName": string|null, "number": string|null, "expiry": "YYYY-MM-DD"|null, "dateOfBirth": "YYYY-MM-DD"|null, "issuer": string|null}.`;

const isoOrNull = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? valid(+v.slice(0, 4), +v.slice(5, 7), +v.slice(8, 10)) : null);
const strOrNull = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 100) : null);

/** Today in the operator's zone (its first location's; UTC when it has none). */
async function operatorToday(ctx: Ctx): Promise<string> {
  const locs = await listLocations(ctx, {});
  const tz = 'data' in locs ? (locs.data[0]?.timezone ?? 'UTC') : locs.timezone;
  return todayIn(ctx, tz);
}

export async function extractLicense(ctx: Ctx, input: { image: string }) {
  tenantOf(ctx);
  const [media, today] = await Promise.all([readMedia(ctx.env, input.image, 'image', { rawText: true }), operatorToday(ctx)]);
  let fields: LicenseFields | null = null;
  let method: 'barcode_aamva' | 'mrz' | 'vision_model' | 'none' = 'none';
  let source: 'rules' | 'model' = 'rules';
  let reason: string | null = null;
  if (media.kind === 'text') {
    fields = parseAamva(media.text ?? '');
    method = fields ? 'barcode_aamva' : 'none';
    if (!fields) {
      fields = parseMrz(media.text ?? '', today);
      method = fields ? 'mrz' : 'none';
    }
    if (!fields) reason = 'The text is neither a licence barcode payload (AAMVA) nor a machine-readable zone with valid check digits.';
  } else if (media.kind === 'image') {
    const seen = await ai(ctx.env).see({ prompt: VISION_PROMPT, image: media.bytes });
    source = seen.source;
    if (seen.status === 'analysed') {
      const o = (seen.json ?? {}) as Record<string, unknown>;
      fields = {
        firstName: strOrNull(o.firstName),
        middleName: strOrNull(o.middleName),
        lastName: strOrNull(o.lastName),
        number: strOrNull(o.number),
        expiry: isoOrNull(o.expiry),
        dateOfBirth: isoOrNull(o.dateOfBirth),
        issuer: strOrNull(o.issuer),
        documentType: null,
      };
      method = 'vision_model';
    } else reason = seen.message;
  } else reason = 'A PDF is not read as a licence; send a photo of the licence or its barcode payload.';
  const f = fields ?? empty();
  const missing = (['firstName', 'lastName', 'number', 'expiry', 'dateOfBirth'] as const).filter((k) => !f[k]);
  return {
    status: !fields
      ? media.kind === 'image'
        ? ('not_analysed' as const)
        : ('not_found' as const)
      : missing.length
        ? ('partial' as const)
        : ('extracted' as const),
    method,
    source,
    name: {
      first: f.firstName,
      middle: f.middleName,
      last: f.lastName,
      full: [f.firstName, f.middleName, f.lastName].filter(Boolean).join(' ') || null,
    },
    number: f.number,
    expiry: f.expiry,
    dateOfBirth: f.dateOfBirth,
    issuer: f.issuer,
    documentType: f.documentType,
    expired: f.expiry ? f.expiry < today : null,
    missing,
    reason,
  };
}
