/**
 * `POST /ai/extract-receipt-data` and `POST /ai/validate-receipt`. What can be read offline is read:
 * structured data (a JSON receipt or a schema.org Invoice/Order), the text of a text receipt, an
 * HTML e-receipt or a PDF (its text streams), line by line (merchant, date, line items, subtotal,
 * tax, tip, total). Images are read by the AI port's vision model when one is configured; without
 * it the answer says `not_analysed` and reads nothing from the image. No value is ever invented:
 * what was not found is null and listed in `missing`.
 */
import { ai } from '../../adapters/ai';
import type { Ctx } from '../../lib/context';
import { tenantOf } from '../../lib/context';
import { toDollars } from '../../lib/money';
import { readMedia, type Media } from './media';
import { pageText } from './html';

export interface ReceiptLine {
  description: string;
  quantity: number | null;
  amountCents: number;
}

export interface ReceiptFields {
  merchant: string | null;
  date: string | null;
  currency: string | null;
  totalCents: number | null;
  subtotalCents: number | null;
  taxCents: number | null;
  tipCents: number | null;
  lines: ReceiptLine[];
}

export type ReceiptMethod = 'structured_data' | 'text_rules' | 'pdf_text' | 'vision_model' | 'none';

export interface ReceiptReading {
  status: 'extracted' | 'partial' | 'not_found' | 'not_analysed';
  method: ReceiptMethod;
  source: 'rules' | 'model';
  fields: ReceiptFields;
  reason: string | null;
}

const empty = (): ReceiptFields => ({
  merchant: null,
  date: null,
  currency: null,
  totalCents: null,
  subtotalCents: null,
  taxCents: null,
  tipCents: null,
  lines: [],
});

// ---- amounts, dates, currencies ----

const AMOUNT = /(-)?\s?(?:[$€£¥]|USD|EUR|GBP|CAD|AUD)?\s?(\d{1,3}(?:[,.' ]\d{3})+|\d+)([.,]\d{2})(?!\d)/gi;

/** Amounts in a line, as cents (the decimal separator is the one followed by exactly two digits). */
export function amountsIn(line: string): number[] {
  const out: number[] = [];
  for (const m of line.matchAll(AMOUNT)) {
    const whole = Number(m[2].replace(/[,.' ]/g, ''));
    const cents = whole * 100 + Number(m[3].slice(1));
    out.push(m[1] ? -cents : cents);
  }
  return out;
}

const CURRENCIES: [RegExp, string][] = [
  [/\$|\bUSD\b/i, 'usd'],
  [/€|\bEUR\b/i, 'eur'],
  [/£|\bGBP\b/i, 'gbp'],
  [/\bCAD\b|C\$/i, 'cad'],
  [/\bAUD\b|A\$/i, 'aud'],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const iso = (y: number, m: number, d: number) => {
  if (y < 100) y += 2000;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? t.toISOString().slice(0, 10) : null;
};

/** The first date in a text: ISO, month names, `MM/DD/YYYY` (US order when both could be the month), `DD.MM.YYYY`. */
export function dateIn(text: string): string | null {
  let m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(text);
  if (m) return iso(+m[1], +m[2], +m[3]);
  m = /\b([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b/.exec(text);
  if (m && MONTHS.includes(m[1].slice(0, 3).toLowerCase())) return iso(+m[3], MONTHS.indexOf(m[1].slice(0, 3).toLowerCase()) + 1, +m[2]);
  m = /\b(\d{1,2})\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b/.exec(text);
  if (m && MONTHS.includes(m[2].slice(0, 3).toLowerCase())) return iso(+m[3], MONTHS.indexOf(m[2].slice(0, 3).toLowerCase()) + 1, +m[1]);
  m = /\b(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})\b/.exec(text);
  if (m) return iso(+m[3], +m[2], +m[1]);
  m = /\b(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/.exec(text);
  if (m) return +m[1] <= 12 ? iso(+m[3], +m[1], +m[2]) : iso(+m[3], +m[2], +m[1]);
  return null;
}

// ---- text receipts ----

const TOTAL = /\b(grand\s*total|total\s*due|amount\s*due|balance\s*due|total)\b/i;
const SUBTOTAL = /\bsub\s*-?\s*total\b/i;
const TAX = /\b(tax|vat|gst|hst|pst)\b/i;
const TIP = /\b(tip|gratuity)\b/i;
const NOT_AN_ITEM =
  /\b(cash|change|visa|master\s*card|amex|discover|card|credit|debit|paid|payment|auth\w*|approv\w*|balance|tendered|rounding|savings|you saved)\b/i;
const NOT_A_MERCHANT = /\b(receipt|invoice|order|tel|phone|fax|www\.|http|date|time|cashier|server|table|guest|store\s*#|transaction)\b/i;

export function parseReceiptText(text: string): ReceiptFields {
  const f = empty();
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  f.date = dateIn(text);
  f.currency = CURRENCIES.find(([re]) => re.test(text))?.[1] ?? null;
  f.merchant =
    lines
      .slice(0, 8)
      .find((l) => /[A-Za-z]{2}/.test(l) && !amountsIn(l).length && !dateIn(l) && !NOT_A_MERCHANT.test(l) && !/^\W+$/.test(l))
      ?.slice(0, 120) ?? null;
  let total: number | null = null;
  let strongTotal = false;
  for (const l of lines) {
    const amounts = amountsIn(l);
    if (!amounts.length) continue;
    const last = amounts[amounts.length - 1];
    if (SUBTOTAL.test(l)) f.subtotalCents = last;
    else if (TOTAL.test(l)) {
      const strong = /grand|due/i.test(l);
      if (strong || !strongTotal) total = last;
      strongTotal ||= strong;
    } else if (TIP.test(l)) f.tipCents = last;
    else if (TAX.test(l)) f.taxCents = (f.taxCents ?? 0) + last;
    else if (!NOT_AN_ITEM.test(l) && /[A-Za-z]{2}/.test(l)) {
      const qty = /^(\d{1,3})\s*[x@]\s+/i.exec(l) ?? /\s(\d{1,3})\s*[x@]\s/i.exec(l);
      const description = l
        .replace(AMOUNT, '')
        .replace(/^(\d{1,3})\s*[x@]\s+/i, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (description) f.lines.push({ description: description.slice(0, 200), quantity: qty ? Number(qty[1]) : null, amountCents: last });
    }
  }
  f.totalCents = total;
  return f;
}

// ---- structured data ----

const cents = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v.replace(/[^\d.-]/g, '')) : v;
  return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 100) : null;
};
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null);

/** A receipt object: `{merchant, date, total, subtotal, tax, tip, currency, lines|items}` or a schema.org Invoice / Order. */
export function parseReceiptJson(data: unknown): ReceiptFields | null {
  const o = (Array.isArray(data) ? data[0] : data) as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') return null;
  const f = empty();
  const pick = (...keys: string[]) => keys.map((k) => o[k]).find((v) => v != null);
  const seller = pick('merchant', 'vendor', 'store', 'seller', 'provider', 'merchantName');
  f.merchant = str(seller) ?? str((seller as Record<string, unknown> | undefined)?.name);
  const date = pick('date', 'orderDate', 'paymentDueDate', 'dateCreated', 'purchaseDate', 'transactionDate');
  f.date = typeof date === 'string' ? (dateIn(date) ?? null) : null;
  const totalRaw = pick('total', 'totalAmount', 'amount', 'totalPaymentDue', 'price');
  f.totalCents = cents((totalRaw as Record<string, unknown> | undefined)?.value ?? (totalRaw as Record<string, unknown> | undefined)?.price ?? totalRaw);
  f.currency =
    str(pick('currency', 'priceCurrency'))?.toLowerCase() ??
    str((totalRaw as Record<string, unknown> | undefined)?.currency ?? (totalRaw as Record<string, unknown> | undefined)?.priceCurrency)?.toLowerCase() ??
    null;
  f.subtotalCents = cents(pick('subtotal', 'subTotal'));
  f.taxCents = cents(pick('tax', 'taxAmount', 'totalTax'));
  f.tipCents = cents(pick('tip', 'gratuity'));
  const items = pick('lines', 'items', 'lineItems', 'acceptedOffer', 'orderedItem', 'referencesOrder');
  for (const it of Array.isArray(items) ? items : []) {
    const x = it as Record<string, unknown>;
    const description = str(x.description) ?? str(x.name) ?? str((x.itemOffered as Record<string, unknown> | undefined)?.name);
    const amount = cents(x.amount ?? x.total ?? x.price ?? (x.priceSpecification as Record<string, unknown> | undefined)?.price);
    if (description && amount != null) f.lines.push({ description, quantity: typeof x.quantity === 'number' ? x.quantity : null, amountCents: amount });
  }
  return f.totalCents != null || f.merchant || f.lines.length ? f : null;
}

// ---- PDF text ----

/** Bytes as a one-byte-per-character string (PDF syntax is bytes). */
function latin1(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 8192) out += String.fromCharCode(...b.subarray(i, i + 8192));
  return out;
}

/** A PDF string operand: `(literal)` with its escapes, or `<hex>`. */
function pdfString(token: string): string {
  if (token.startsWith('<')) {
    const hex = token.slice(1, -1).replace(/\s/g, '');
    let out = '';
    for (let i = 0; i + 1 < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
    return out;
  }
  return token.slice(1, -1).replace(/\\([nrt()\\])/g, (_, c: string) => ({ n: '\n', r: '', t: '\t' })[c] ?? c);
}

// Strings are literal `(...)` or hex `<...>`; shown by Tj, ' and " or inside a TJ array; T*, Td, TD and ET end a line.
const PDF_STRING = String.raw`\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>`;
const PDF_TEXT_OPS = new RegExp(String.raw`\[((?:${PDF_STRING}|[^\]])*)\]\s*TJ|(${PDF_STRING})\s*(?:Tj|'|")|(T\*|Td|TD|ET)`, 'g');

/** Inflated bytes a PDF may yield in all (a small file that inflates without end is read up to here). */
const PDF_INFLATE_BUDGET = 8 * 1024 * 1024;

/**
 * Inflates a zlib (`/FlateDecode`) stream with the runtime's DecompressionStream, taking at most
 * `budget.left` bytes; what inflated before a damaged end is kept. null when nothing inflated or the
 * budget ran out.
 */
async function inflate(data: Uint8Array, budget: { left: number }): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = new Response(data).body!.pipeThrough(new DecompressionStream('deflate')).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > budget.left) {
        budget.left = 0;
        await reader.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(value);
    }
  } catch {
    // A stream cut short or without its checksum: keep what inflated.
  }
  if (!size) return null;
  budget.left -= size;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The text drawn by a PDF's content streams (raw or Flate-compressed), in stream order; null when there is none. */
export async function pdfText(bytes: Uint8Array): Promise<string | null> {
  const raw = latin1(bytes);
  const out: string[] = [];
  const budget = { left: PDF_INFLATE_BUDGET };
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) continue;
    // The end-of-line before `endstream` is not part of the data.
    let data = bytes.slice(start, raw[end - 2] === '\r' ? end - 2 : raw[end - 1] === '\n' ? end - 1 : end);
    if (/\/FlateDecode/.test(m[1])) {
      const inflated = await inflate(data, budget);
      if (!inflated) continue;
      data = inflated;
    } else if (/\/Filter/.test(m[1])) continue;
    const content = latin1(data);
    if (!/\b(Tj|TJ)\b|'|"/.test(content)) continue;
    for (const op of content.matchAll(PDF_TEXT_OPS)) {
      if (op[3]) {
        out.push('\n');
        continue;
      }
      const parts = op[1] !== undefined ? [...op[1].matchAll(new RegExp(PDF_STRING, 'g'))].map((p) => p[0]) : [op[2]];
      out.push(parts.map(pdfString).join(''));
    }
  }
  const text = out
    .join('')
    .replace(/\n{2,}/g, '\n')
    .trim();
  return text || null;
}

// ---- reading ----

function statusOf(f: ReceiptFields): ReceiptReading['status'] {
  if (f.totalCents != null) return 'extracted';
  return f.merchant || f.date || f.lines.length ? 'partial' : 'not_found';
}

const VISION_PROMPT = `Read this receipt. Answer as JSON: {"merchant": string|null, "date": "YYYY-MM-DD"|null, "currency": ISO code|null,
"total": number|null, "subtotal": number|null, "tax": number|null, "tip": number|null,
"lines": [{"description": string, "quantity": number|null, "amount": number}]}. Amounts in the receipt's currency units (e.g. 12.50).`;

export async function readReceipt(ctx: Ctx, media: Media): Promise<ReceiptReading> {
  if (media.kind === 'image') {
    const seen = await ai(ctx.env).see({ prompt: VISION_PROMPT, image: media.bytes });
    if (seen.status !== 'analysed') return { status: 'not_analysed', method: 'none', source: seen.source, fields: empty(), reason: seen.message };
    const f = parseReceiptJson(seen.json) ?? empty();
    return { status: statusOf(f), method: 'vision_model', source: 'model', fields: f, reason: null };
  }
  if (media.kind === 'pdf') {
    const text = await pdfText(media.bytes);
    if (!text)
      return {
        status: 'not_found',
        method: 'pdf_text',
        source: 'rules',
        fields: empty(),
        reason: 'The PDF has no readable text (a scanned image?); send the receipt as an image to have it read by the vision model.',
      };
    const f = parseReceiptText(text);
    return { status: statusOf(f), method: 'pdf_text', source: 'rules', fields: f, reason: null };
  }
  const text = media.text ?? '';
  if (/^\s*[[{]/.test(text)) {
    try {
      const f = parseReceiptJson(JSON.parse(text));
      if (f) return { status: statusOf(f), method: 'structured_data', source: 'rules', fields: f, reason: null };
    } catch {
      // not JSON after all: read it as text
    }
  }
  const plain = /<\s*(html|body|table|div|p)\b/i.test(text) ? await pageText(text) : text;
  const f = parseReceiptText(plain);
  return {
    status: statusOf(f),
    method: 'text_rules',
    source: 'rules',
    fields: f,
    reason: statusOf(f) === 'not_found' ? 'No merchant, date, amounts or lines could be read from the text.' : null,
  };
}

const MISSING_KEYS = ['merchant', 'date', 'totalCents', 'currency'] as const;

export function receiptOut(r: ReceiptReading) {
  const f = r.fields;
  const money = (c: number | null) => (c == null ? null : toDollars(c));
  return {
    status: r.status,
    method: r.method,
    source: r.source,
    merchant: f.merchant,
    date: f.date,
    currency: f.currency,
    total: money(f.totalCents),
    totalCents: f.totalCents,
    subtotalCents: f.subtotalCents,
    taxCents: f.taxCents,
    tipCents: f.tipCents,
    lines: f.lines.map((l) => ({ description: l.description, quantity: l.quantity, amountCents: l.amountCents, amount: toDollars(l.amountCents) })),
    missing: MISSING_KEYS.filter((k) => f[k] == null).map((k) => (k === 'totalCents' ? 'total' : k)),
    reason: r.reason,
  };
}

export async function extractReceiptData(ctx: Ctx, input: { receiptImage: string }) {
  tenantOf(ctx);
  const media = await readMedia(ctx.env, input.receiptImage, 'receiptImage', { rawText: true });
  return receiptOut(await readReceipt(ctx, media));
}

// ---- validation against what the caller expects ----

const norm = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

export async function validateReceipt(ctx: Ctx, input: { receiptImage: string; inputData?: Record<string, unknown> }) {
  tenantOf(ctx);
  const media = await readMedia(ctx.env, input.receiptImage, 'receiptImage', { rawText: true });
  const reading = await readReceipt(ctx, media);
  const f = reading.fields;
  const want = input.inputData ?? {};
  const checks: { field: string; expected: unknown; found: unknown; match: boolean | null }[] = [];
  const expectedTotal = cents(want.total ?? want.amount ?? want.totalAmount);
  if (expectedTotal != null)
    checks.push({
      field: 'total',
      expected: toDollars(expectedTotal),
      found: f.totalCents == null ? null : toDollars(f.totalCents),
      match: f.totalCents == null ? null : Math.abs(f.totalCents - expectedTotal) <= 1,
    });
  const expectedDate = typeof want.date === 'string' ? dateIn(want.date) : null;
  if (expectedDate) checks.push({ field: 'date', expected: expectedDate, found: f.date, match: f.date == null ? null : f.date === expectedDate });
  const expectedMerchant = str(want.merchant ?? want.vendor ?? want.store);
  if (expectedMerchant)
    checks.push({
      field: 'merchant',
      expected: expectedMerchant,
      found: f.merchant,
      match: f.merchant == null ? null : norm(f.merchant).includes(norm(expectedMerchant)) || norm(expectedMerchant).includes(norm(f.merchant)),
    });
  const expectedCurrency = str(want.currency)?.toLowerCase() ?? null;
  if (expectedCurrency)
    checks.push({ field: 'currency', expected: expectedCurrency, found: f.currency, match: f.currency == null ? null : f.currency === expectedCurrency });
  const compared = checks.filter((c) => c.match !== null);
  const valid = compared.length ? compared.every((c) => c.match) : null;
  return {
    valid,
    status: valid === null ? ('unverifiable' as const) : valid ? ('valid' as const) : ('invalid' as const),
    checks,
    message:
      valid === null
        ? checks.length
          ? 'Nothing given in inputData could be compared: the receipt did not show those values.'
          : 'Give inputData (total, date, merchant, currency) to compare with the receipt.'
        : valid
          ? 'The receipt matches every value that could be compared.'
          : `The receipt differs in: ${compared
              .filter((c) => !c.match)
              .map((c) => c.field)
              .join(', ')}.`,
    receipt: receiptOut(reading),
  };
}
