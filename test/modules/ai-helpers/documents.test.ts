/** Receipts and licences through HTTP: what is read offline (text, JSON, HTML, PDF, barcode payloads, MRZ) and the honest refusals. */
import { afterEach, beforeAll, describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createOperator, expectError, post, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { b64, fakeWeb } from './web';
import { mrzCheck } from '../../../src/modules/ai-helpers/license';
import { workersAiFor } from '../../../src/adapters/ai';
import { loadPdfFonts } from '../../../src/lib/pdf-fonts';

let op: Operator;
let web: ReturnType<typeof fakeWeb> | null = null;
beforeAll(async () => {
  op = await createOperator();
});
afterEach(() => {
  web?.restore();
  web = null;
});
const k = () => ({ key: op.adminKey });

const RECEIPT = `HARBOR FUEL DOCK
123 Marina Blvd, Miami FL
Tel (305) 555-0100
Date: 05/14/2026  10:42
2 x Ice bag              $7.98
Marine fuel 20 gal      $89.90
Sunscreen                $12.50
Subtotal               $110.38
Tax 7%                   $7.73
Tip                      $5.00
TOTAL                  $123.11
VISA ****4242          $123.11
Thank you!`;

/** A 1x1 PNG. */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

async function receiptPdf(): Promise<Uint8Array> {
  // pdf-lib's standard-font metrics are a static asset of the deployment (wrangler.toml [alias], src/lib/pdf-fonts.ts).
  await loadPdfFonts(env.ASSETS);
  const doc = await PDFDocument.create();
  const page = doc.addPage([300, 400]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  RECEIPT.split('\n').forEach((line, i) => page.drawText(line, { x: 10, y: 380 - i * 14, size: 9, font }));
  return doc.save();
}

describe('POST /ai/extract-receipt-data', () => {
  const expected = {
    status: 'extracted',
    merchant: 'HARBOR FUEL DOCK',
    date: '2026-05-14',
    currency: 'usd',
    total: 123.11,
    totalCents: 12311,
    subtotalCents: 11038,
    taxCents: 773,
    tipCents: 500,
    lines: [
      { description: 'Ice bag', quantity: 2, amountCents: 798, amount: 7.98 },
      { description: 'Marine fuel 20 gal', quantity: null, amountCents: 8990, amount: 89.9 },
      { description: 'Sunscreen', quantity: null, amountCents: 1250, amount: 12.5 },
    ],
    missing: [],
    reason: null,
  };

  it('reads a text receipt given as base64, as a data: URL, as plain text and by URL', async () => {
    web = fakeWeb({ 'https://receipts.example.test/r/1.txt': { headers: { 'content-type': 'text/plain' }, body: RECEIPT } });
    for (const receiptImage of [b64(RECEIPT), `data:text/plain;base64,${b64(RECEIPT)}`, RECEIPT, 'https://receipts.example.test/r/1.txt']) {
      const r = await post('/ai/extract-receipt-data', { receiptImage }, k());
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ...expected, method: 'text_rules', source: 'rules' });
    }
  });

  it('reads the text of a PDF receipt, an HTML e-receipt and structured data', async () => {
    const pdf = await post('/ai/extract-receipt-data', { receiptImage: b64(await receiptPdf()) }, k());
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.body).toEqual({ ...expected, method: 'pdf_text', source: 'rules' });
    const html = `<html><body><h2>Harbor Fuel Dock</h2><table><tr><td>Date</td><td>May 14, 2026</td></tr>
      <tr><td>Kayak rental</td><td>$40.00</td></tr><tr><td>Total</td><td>$40.00</td></tr></table></body></html>`;
    const h = await post('/ai/extract-receipt-data', { receiptImage: b64(html) }, k());
    expect(h.body).toMatchObject({ status: 'extracted', method: 'text_rules', merchant: 'Harbor Fuel Dock', date: '2026-05-14', totalCents: 4000 });
    const json = {
      '@type': 'Invoice',
      provider: { name: 'Dockside Bait' },
      paymentDueDate: '2026-05-01',
      totalPaymentDue: { price: 18.5, priceCurrency: 'USD' },
    };
    const j = await post('/ai/extract-receipt-data', { receiptImage: b64(JSON.stringify(json)) }, k());
    expect(j.body).toMatchObject({
      status: 'extracted',
      method: 'structured_data',
      merchant: 'Dockside Bait',
      date: '2026-05-01',
      totalCents: 1850,
      currency: 'usd',
    });
  });

  it('reads a PDF whose other stream inflates without end up to a budget, and skips that stream', async () => {
    const deflate = async (text: string) =>
      new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'))).arrayBuffer());
    // 9 MiB of drawn text in 20-odd KiB: more than a receipt can hold (the budget is 8 MiB).
    const bomb = await deflate('(Free fuel $0.01) Tj T* '.repeat(400_000));
    expect(bomb.byteLength).toBeLessThan(200_000);
    const te = new TextEncoder();
    const text = 'BT /F1 9 Tf 10 380 Td (HARBOR FUEL DOCK) Tj T* (Date: 05/14/2026) Tj T* (Ice bag $12.00) Tj T* (TOTAL $12.00) Tj ET';
    const parts = [
      te.encode(`%PDF-1.4\n1 0 obj\n<< /Length ${bomb.byteLength} /Filter /FlateDecode >>\nstream\n`),
      bomb,
      te.encode(`\nendstream\nendobj\n2 0 obj\n<< /Length ${text.length} >>\nstream\n${text}\nendstream\nendobj\n%%EOF\n`),
    ];
    const pdf = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    parts.reduce((at, p) => (pdf.set(p, at), at + p.byteLength), 0);
    const r = await post('/ai/extract-receipt-data', { receiptImage: b64(pdf) }, k());
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ status: 'extracted', method: 'pdf_text', merchant: 'HARBOR FUEL DOCK', date: '2026-05-14', totalCents: 1200 });
    expect(r.body.lines).toEqual([{ description: 'Ice bag', quantity: null, amountCents: 1200, amount: 12 }]);
  });

  it('says an image was not analysed offline, reads nothing into it, and refuses what is not a document', async () => {
    const r = await post('/ai/extract-receipt-data', { receiptImage: `data:image/png;base64,${b64(PNG)}` }, k());
    expect(r.status, r.text).toBe(200);
    expect(r).toMatchObject({ body: { status: 'not_analysed', method: 'none', source: 'rules', merchant: null, totalCents: null, lines: [] } });
    expect(r.body.reason).toMatch(/vision/i);
    expect(r.body.missing).toEqual(['merchant', 'date', 'total', 'currency']);
    const partial = await post('/ai/extract-receipt-data', { receiptImage: 'Thanks for visiting Pelican Pier!\nSee you soon' }, k());
    expect(partial.body).toMatchObject({
      status: 'partial',
      merchant: 'Thanks for visiting Pelican Pier!',
      totalCents: null,
      missing: ['date', 'total', 'currency'],
    });
    expectError(await post('/ai/extract-receipt-data', { receiptImage: b64(new Uint8Array([0, 1, 2, 3, 255, 254])) }, k()), 400, 'validation_failed');
    expectError(await post('/ai/extract-receipt-data', {}, k()), 400, 'validation_failed');
  });
});

describe('POST /ai/validate-receipt', () => {
  it('compares the receipt with inputData: valid, invalid (naming the fields) or unverifiable', async () => {
    const v = (inputData?: Record<string, unknown>, receiptImage = RECEIPT) => post('/ai/validate-receipt', { receiptImage, inputData }, k());
    const ok = await v({ total: 123.11, date: '2026-05-14', merchant: 'Harbor Fuel', currency: 'USD' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, status: 'valid' });
    expect(ok.body.checks.every((c: any) => c.match === true)).toBe(true);
    const bad = await v({ amount: 125, date: '2026-05-15', merchant: 'Harbor Fuel Dock' });
    expect(bad.body).toMatchObject({ valid: false, status: 'invalid', message: 'The receipt differs in: total, date.' });
    expect(bad.body.checks.find((c: any) => c.field === 'total')).toEqual({ field: 'total', expected: 125, found: 123.11, match: false });
    const none = await v({ total: 10 }, `data:image/png;base64,${b64(PNG)}`);
    expect(none.body).toMatchObject({ valid: null, status: 'unverifiable', receipt: { status: 'not_analysed' } });
    expect((await v()).body).toMatchObject({ valid: null, status: 'unverifiable', checks: [] });
  });
});

/** An AAMVA PDF417 payload as a scanner reads it (sample values). */
const AAMVA = [
  '@',
  '\u001e\rANSI 636014040002DL00410278ZC03190024DLDAQD1234562',
  'DCSSAMPLE',
  'DDEN',
  'DACJANE',
  'DDFN',
  'DADMARIE',
  'DDGN',
  'DCAC',
  'DBD01152024',
  'DBB06301985',
  'DBA06302029',
  'DBC2',
  'DAG123 HARBOR WAY',
  'DAISACRAMENTO',
  'DAJCA',
  'DAK958220000',
  'DCGUSA',
].join('\n');

function passportMrz(number: string, dob: string, expiry: string) {
  const l1 = 'P<UTOERIKSSON<<ANNA<MARIA'.padEnd(44, '<');
  const doc = number.padEnd(9, '<');
  const l2 = `${doc}${mrzCheck(doc)}UTO${dob}${mrzCheck(dob)}F${expiry}${mrzCheck(expiry)}`.padEnd(42, '<') + '0' + '0';
  return `${l1}\n${l2}`;
}

describe('POST /ai/extract-license', () => {
  it("reads a North American licence's barcode payload", async () => {
    const r = await post('/ai/extract-license', { image: b64(AAMVA) }, k());
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({
      status: 'extracted',
      method: 'barcode_aamva',
      source: 'rules',
      name: { first: 'Jane', middle: 'Marie', last: 'Sample', full: 'Jane Marie Sample' },
      number: 'D1234562',
      expiry: '2029-06-30',
      dateOfBirth: '1985-06-30',
      issuer: 'CA, USA',
      documentType: 'driver_license',
      expired: false,
      missing: [],
      reason: null,
    });
    // The payload sent as text works as well.
    expect((await post('/ai/extract-license', { image: AAMVA }, k())).body.number).toBe('D1234562');
  });

  it('reads a passport machine-readable zone with valid check digits, and refuses one whose digits fail', async () => {
    const good = passportMrz('L898902C3', '740812', '120415');
    const r = await post('/ai/extract-license', { image: good }, k());
    expect(r.body).toMatchObject({
      status: 'extracted',
      method: 'mrz',
      name: { first: 'Anna', middle: 'Maria', last: 'Eriksson' },
      number: 'L898902C3',
      dateOfBirth: '1974-08-12',
      expiry: '2012-04-15',
      issuer: 'UTO',
      documentType: 'passport',
      expired: true,
    });
    const tampered = good.replace('740812', '740813');
    const t = await post('/ai/extract-license', { image: tampered }, k());
    expect(t.body).toMatchObject({ status: 'not_found', method: 'none', number: null });
  });

  it('does not guess at photos offline', async () => {
    const r = await post('/ai/extract-license', { image: b64(PNG) }, k());
    expect(r.body).toMatchObject({ status: 'not_analysed', method: 'none', number: null, expiry: null, dateOfBirth: null, expired: null });
    expect(r.body.reason).toMatch(/vision/i);
    expectError(await post('/ai/extract-license', {}, k()), 400, 'validation_failed');
  });

  it('security of the document routes', async () => {
    await checkSecurity(op, { method: 'POST', path: '/ai/extract-license', body: { image: AAMVA } });
    await checkSecurity(op, { method: 'POST', path: '/ai/extract-receipt-data', body: { receiptImage: RECEIPT } });
    await checkSecurity(op, { method: 'POST', path: '/ai/validate-receipt', body: { receiptImage: RECEIPT, inputData: { total: 1 } } });
  });
});

describe('AI port: image reading with Workers AI', () => {
  it('answers the JSON the vision model read, and not_analysed when it answers nothing readable', async () => {
    const port = workersAiFor({ run: async () => ({ response: 'Here it is: {"merchant":"Harbor Fuel Dock","total":123.11}' }) } as never);
    expect(await port.see({ prompt: 'read', image: PNG })).toMatchObject({
      status: 'analysed',
      json: { merchant: 'Harbor Fuel Dock', total: 123.11 },
      source: 'model',
    });
    const mute = workersAiFor({ run: async () => ({ response: 'I cannot see anything.' }) } as never);
    expect(await mute.see({ prompt: 'read', image: PNG })).toMatchObject({ status: 'not_analysed', reason: 'unreadable_answer' });
    const broken = workersAiFor({
      run: async () => {
        throw new Error('down');
      },
    } as never);
    expect(await broken.see({ prompt: 'read', image: PNG })).toMatchObject({ status: 'not_analysed', reason: 'model_error' });
  });
});
