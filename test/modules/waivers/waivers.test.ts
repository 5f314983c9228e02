import { describe, it, expect } from 'vitest';
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { PDFDocument, PDFArray, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { textOfGlyphHex } from '../../../src/lib/pdf-unicode';
import { api, createOperator, db, del, expectError, get, post, put, type Operator } from '../../harness';
import { checkSecurity } from '../../security';
import { bookings } from '../../../src/db/schema/bookings';
import { locations } from '../../../src/db/schema/locations';
import { waiverLinkVisits, waiverSignatures } from '../../../src/db/schema/waivers';
import { webhookEvents } from '../../../src/db/schema/events';
import { base64Encode, sha256Hex } from '../../../src/lib/crypto';
import { newId } from '../../../src/lib/ids';

// ---- images ---------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
async function deflate(data: Uint8Array) {
  const s = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(s).arrayBuffer());
}
function chunk(type: string, data: Uint8Array) {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
/** A real grayscale PNG: white with a dark wavy stroke, like a drawn signature. */
async function signaturePng(width = 240, height = 80) {
  const raw = new Uint8Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const curve = height / 2 + Math.sin(x / 12) * (height / 4);
      raw[y * (width + 1) + 1 + x] = Math.abs(y - curve) < 2 ? 20 : 255;
    }
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', await deflate(raw)),
    chunk('IEND', new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    png.set(p, o);
    o += p.length;
  }
  return `data:image/png;base64,${base64Encode(png)}`;
}
/** The smallest baseline JPEG (1x1). */
const TINY_JPEG =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////' +
  'wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';

// ---- helpers --------------------------------------------------------------------------------

const SECTIONS = [
  { type: 'text', title: 'Assumption of risk', content: 'Boating involves risks including capsizing and injury.\nI accept them.' },
  { type: 'checkbox', id: 'ack_risk', label: 'I have read and accept the risks' },
  { type: 'checkbox', id: 'ack_photos', label: 'Photos may be taken', required: false },
  { type: 'field', id: 'emergency', label: 'Emergency contact', required: true },
  { type: 'field', id: 'swim', label: 'Can you swim?', fieldType: 'select', options: ['yes', 'no'] },
  { type: 'signature', id: 'sig', label: 'Participant signature' },
];

async function newTemplate(op: Operator, extra: Record<string, unknown> = {}) {
  const r = await post(
    '/inHouseWaiver/waiver/template',
    {
      customerId: op.customerId,
      locationId: op.locationId,
      title: 'Pontoon rental waiver',
      description: 'Read carefully.',
      sections: SECTIONS,
      assignTo: ['itm_pontoon'],
      ...extra,
    },
    { key: op.adminKey },
  );
  expect(r.status, r.text).toBe(201);
  return r.body;
}

async function signBody(templateId: string, extra: Record<string, unknown> = {}) {
  return {
    templateId,
    firstName: 'Jane',
    lastName: 'Doe',
    formData: { ack_risk: true, ack_photos: false, emergency: 'John Doe +1 555 0111', swim: 'yes', sig: await signaturePng() },
    dob: '1988-07-14',
    userEmail: 'jane.doe@example.test',
    phoneNumber: '+1 555 0199',
    addressLine: '7 Marina Blvd, Miami',
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (Test)',
    ...extra,
  };
}

async function pdfText(bytes: Uint8Array): Promise<{ doc: PDFDocument; text: string }> {
  const doc = await PDFDocument.load(bytes);
  let text = '';
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    for (const s of streams) if (s instanceof PDFRawStream) text += new TextDecoder('latin1').decode(decodePDFRawStream(s).decode());
  }
  // Text is written as hex strings: glyph ids of the embedded DejaVu fonts, or WinAnsi bytes of a standard font.
  let font = '';
  const decoded = text.replace(/\/(\S+) [\d.]+ Tf|<([0-9A-Fa-f]+)>/g, (m, name: string | undefined, hex: string | undefined) => {
    if (name) return ((font = name), m);
    if (font.startsWith('DejaVuSans')) return textOfGlyphHex(hex!, font.startsWith('DejaVuSans-Bold') ? 'bold' : 'regular');
    return hex!
      .match(/../g)!
      .map((h) => String.fromCharCode(parseInt(h, 16)))
      .join('');
  });
  return { doc, text: decoded };
}

async function addBooking(op: Operator, transactionId: string) {
  const id = newId('bk');
  await db()
    .insert(bookings)
    .values({
      id,
      customerId: op.customerId,
      transactionId,
      locationId: op.locationId,
      itemId: 'itm_x',
      status: 'confirmed',
      start: Date.now(),
      end: Date.now() + 3_600_000,
      localDate: '2026-06-01',
      extendedData: { note: 'keep me' },
    });
  return id;
}

// ---- tests ----------------------------------------------------------------------------------

describe('waiver templates (operators)', () => {
  it('creates with normalized sections, reads publicly, updates, lists by location, deletes', async () => {
    const op = await createOperator();
    const t = await newTemplate(op, {
      sections: [
        { type: 'text', content: 'Hello' },
        { type: 'signature' },
        { type: 'signature', id: 'guardian', signer: 'guardian' },
        { type: 'checkbox', label: 'OK' },
      ],
    });
    expect(t.templateId).toMatch(/^wvt_/);
    expect(t.sections.map((s: any) => s.id)).toEqual(['text_1', 'signature_1', 'guardian', 'checkbox_1']);
    expect(t.sections[1]).toMatchObject({ label: 'Signature', required: true, signer: 'participant' });
    expect(t.sections[3]).toMatchObject({ required: true });

    const pub = await get(`/inHouseWaiver/waiver/template/${t.templateId}`);
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ templateId: t.templateId, title: 'Pontoon rental waiver' });

    const up = await put(
      `/inHouseWaiver/waiver/template/${t.templateId}`,
      { customerId: op.customerId, title: 'Renamed', sections: SECTIONS },
      { key: op.adminKey },
    );
    expect(up.status, up.text).toBe(200);
    expect(up.body.title).toBe('Renamed');
    expect(up.body.sections).toHaveLength(SECTIONS.length);
    expectError(await put(`/inHouseWaiver/waiver/template/${t.templateId}`, { customerId: op.customerId }, { key: op.adminKey }), 400, 'no_changes');

    const second = await newTemplate(op, { title: 'Second' });
    const list = await get(`/inHouseWaiver/waiver/templates?locationId=${op.locationId}`, { key: op.adminKey });
    expect(list.body.data.map((x: any) => x.templateId)).toEqual([t.templateId, second.templateId]);

    const gone = await del(`/inHouseWaiver/waiver/template/${t.templateId}`, undefined, { key: op.adminKey });
    expect(gone.status).toBe(200);
    expectError(await get(`/inHouseWaiver/waiver/template/${t.templateId}`), 404);
    expectError(await del(`/inHouseWaiver/waiver/template/${t.templateId}`, undefined, { key: op.adminKey }), 404);
    expect((await get(`/inHouseWaiver/waiver/templates?locationId=${op.locationId}`, { key: op.adminKey })).body.data).toHaveLength(1);
  });

  it('refuses unknown section kinds, missing signature blocks, bad fields, duplicate ids', async () => {
    const op = await createOperator();
    const body = (sections: unknown) => ({ customerId: op.customerId, locationId: op.locationId, title: 'T', sections });
    const r = await post('/inHouseWaiver/waiver/template', body([{ type: 'video', url: 'x' }, { type: 'signature' }]), { key: op.adminKey });
    expectError(r, 400, 'validation_failed');
    expect(r.body.details[0].field).toMatch(/^sections\.0/);
    expectError(
      await post('/inHouseWaiver/waiver/template', body([{ type: 'text', content: 'no signature' }]), { key: op.adminKey }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/inHouseWaiver/waiver/template', body([{ type: 'field', label: 'Pick', fieldType: 'select' }, { type: 'signature' }]), { key: op.adminKey }),
      400,
      'validation_failed',
    );
    expectError(
      await post('/inHouseWaiver/waiver/template', body([{ type: 'field', label: 'X', fieldType: 'colour' }, { type: 'signature' }]), { key: op.adminKey }),
      400,
      'validation_failed',
    );
    expectError(
      await post(
        '/inHouseWaiver/waiver/template',
        body([
          { type: 'signature', id: 'a' },
          { type: 'checkbox', id: 'a', label: 'x' },
        ]),
        { key: op.adminKey },
      ),
      400,
      'validation_failed',
    );
    expectError(await post('/inHouseWaiver/waiver/template', body('nope'), { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/inHouseWaiver/waiver/template', body([]), { key: op.adminKey }), 400, 'validation_failed');
    expectError(await post('/inHouseWaiver/waiver/template', {}, { key: op.adminKey }), 400, 'validation_failed');
  });

  it("another operator's template answers 403; another operator's location 404; foreign customerId 403; staff without permission 403", async () => {
    const op = await createOperator();
    const other = await createOperator();
    const t = await newTemplate(op);
    expectError(
      await put(`/inHouseWaiver/waiver/template/${t.templateId}`, { customerId: other.customerId, title: 'Hijack' }, { key: other.adminKey }),
      403,
      'forbidden',
    );
    expectError(await del(`/inHouseWaiver/waiver/template/${t.templateId}`, undefined, { key: other.adminKey }), 403, 'forbidden');
    expectError(
      await put(`/inHouseWaiver/waiver/template/${t.templateId}`, { customerId: other.customerId, title: 'x' }, { key: op.adminKey }),
      403,
      'forbidden',
    );
    expectError(await put('/inHouseWaiver/waiver/template/wvt_nope', { customerId: op.customerId, title: 'x' }, { key: op.adminKey }), 404);
    expectError(
      await post(
        '/inHouseWaiver/waiver/template',
        { customerId: op.customerId, locationId: other.locationId, title: 'T', sections: SECTIONS },
        { key: op.adminKey },
      ),
      404,
    );
    expectError(
      await post(
        '/inHouseWaiver/waiver/template',
        { customerId: other.customerId, locationId: op.locationId, title: 'T', sections: SECTIONS },
        { key: op.adminKey },
      ),
      403,
      'forbidden',
    );
    expectError(await get(`/inHouseWaiver/waiver/templates?locationId=${other.locationId}`, { key: op.adminKey }), 404);
    expectError(await get('/inHouseWaiver/waiver/templates', { key: op.adminKey }), 400, 'validation_failed');
    const staff = await op.addUser({ role: 'staff' });
    expectError(
      await post(
        '/inHouseWaiver/waiver/template',
        { customerId: op.customerId, locationId: op.locationId, title: 'T', sections: SECTIONS },
        { key: staff.key },
      ),
      403,
      'forbidden',
    );
    const editor = await op.addUser({ role: 'staff', permissions: ['waivers'] });
    expect(
      (
        await post(
          '/inHouseWaiver/waiver/template',
          { customerId: op.customerId, locationId: op.locationId, title: 'T', sections: SECTIONS },
          { key: editor.key },
        )
      ).status,
    ).toBe(201);
    expect((await get(`/inHouseWaiver/waiver/template/${t.templateId}`)).body.title).toBe('Pontoon rental waiver');
  });

  it('security', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    await checkSecurity(op, {
      method: 'POST',
      path: '/inHouseWaiver/waiver/template',
      body: { customerId: op.customerId, locationId: op.locationId, title: 'T', sections: SECTIONS },
      otherStatus: 403,
    });
    await checkSecurity(op, {
      method: 'PUT',
      path: `/inHouseWaiver/waiver/template/${t.templateId}`,
      body: { customerId: op.customerId, title: 'x' },
      otherStatus: 403,
    });
    await checkSecurity(op, { method: 'DELETE', path: `/inHouseWaiver/waiver/template/${t.templateId}`, otherStatus: 403 });
    await checkSecurity(op, { method: 'GET', path: `/inHouseWaiver/waiver/templates?locationId=${op.locationId}`, otherStatus: 404 });
    expect((await get(`/inHouseWaiver/waiver/template/${t.templateId}`)).status).toBe(200);
  });
});

describe('public waiver pages', () => {
  it('waiverUrl and logo of a location; 404 unknown; 400 without locationId', async () => {
    const op = await createOperator();
    const r = await get(`/waiverUrl?locationId=${op.locationId}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.waiverUrl).toBe(`http://berth.test/inHouseWaiver/waiver/templates/location/${op.locationId}`);
    expect(r.body.logoUrl).toBeNull();
    await db()
      .update(locations)
      .set({ details: { logoUrl: 'https://cdn.test/logo.png', waiverUrl: 'https://waivers.example/dock' } })
      .where(eq(locations.id, op.locationId));
    const r2 = await get(`/waiverUrl?locationId=${op.locationId}`);
    expect(r2.body).toMatchObject({ waiverUrl: 'https://waivers.example/dock', logoUrl: 'https://cdn.test/logo.png' });
    const logo = await get(`/inHouseWaiver/logo/${op.locationId}`);
    expect(logo.body).toMatchObject({ locationId: op.locationId, logoUrl: 'https://cdn.test/logo.png', locationName: 'Main dock' });
    expectError(await get('/waiverUrl?locationId=loc_nope'), 404);
    expectError(await get('/waiverUrl'), 400, 'validation_failed');
    expectError(await get('/inHouseWaiver/logo/loc_nope'), 404);
  });

  it("templates of a location for renters, recording fn/ln/em tracking; never another location's templates", async () => {
    const op = await createOperator();
    const other = await createOperator();
    const t = await newTemplate(op);
    await newTemplate(other, { title: 'Other operator template' });
    const r = await get(`/inHouseWaiver/waiver/templates/location/${op.locationId}?fn=Jane&ln=Doe&em=Jane%40Example.test`, {
      headers: { 'user-agent': 'UA-test', 'cf-connecting-ip': '198.51.100.4' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((x: any) => x.templateId)).toEqual([t.templateId]);
    expect(r.body.prefill).toEqual({ firstName: 'Jane', lastName: 'Doe', email: 'Jane@Example.test' });
    const visits = await db().select().from(waiverLinkVisits).where(eq(waiverLinkVisits.locationId, op.locationId)).all();
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({
      customerId: op.customerId,
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.test',
      userAgent: 'UA-test',
      ipAddress: '198.51.100.4',
    });
    expectError(await get('/inHouseWaiver/waiver/templates/location/loc_nope'), 404);
  });

  it('waiverNumberValidation: pending PIN at its location only; 404 otherwise; 410 expired', async () => {
    const op = await createOperator();
    const wn = (await post('/pending-renters', { customerId: op.customerId, locationId: op.locationId, firstName: 'Val' }, { key: op.adminKey })).body;
    const ok = await get(`/waiverNumberValidation?waiverNumber=${wn.pin}&locationId=${op.locationId}`);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.valid).toBe(true);
    expect(ok.body.waiver).toMatchObject({ waiverNumber: wn.waiverNumber, firstName: 'Val' });
    expect(ok.body.waiver.pin).toBeUndefined();
    const other = await createOperator();
    expectError(await get(`/waiverNumberValidation?waiverNumber=${wn.pin}&locationId=${other.locationId}`), 404);
    expectError(await get(`/waiverNumberValidation?waiverNumber=AAAA2222&locationId=${op.locationId}`), 404);
    expectError(await get(`/waiverNumberValidation?locationId=${op.locationId}`), 400, 'validation_failed');
    const { waiverNumbers } = await import('../../../src/db/schema/waivers');
    await db().update(waiverNumbers).set({ pinExpiresAt: '2020-01-01T00:00:00.000Z' }).where(eq(waiverNumbers.pin, wn.pin));
    expectError(await get(`/waiverNumberValidation?waiverNumber=${wn.pin}&locationId=${op.locationId}`), 410, 'expired');
  });
});

describe('POST /inHouseWaiver/waiver/sign', () => {
  it('makes a real PDF with the signer, template text, fields, image, IP, user agent and content hash; stores it; records the signature', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const r = await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { bookingData: { boat: 'Pontoon 22' }, extraNote: 'ignored' }));
    expect(r.status, r.text).toBe(201);
    const s = r.body;
    expect(s.signatureId).toMatch(/^sig_/);
    expect(s.waiverUrl).toBe(`http://berth.test/inHouseWaiver/waiver/sign/${s.signatureId}`);
    expect(s.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.transactionUpdated).toBe(false);
    expect(s.waiverNumberCompleted).toBe(false);

    const pdf = await api('GET', `/inHouseWaiver/waiver/sign/${s.signatureId}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = pdf.body as Uint8Array;
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    expect(bytes.length).toBe(s.pdfSize);
    expect(await sha256Hex(bytes)).toBe(s.pdfSha256);

    const { doc, text } = await pdfText(bytes);
    expect(doc.getAuthor()).toBe('Jane Doe');
    expect(doc.getKeywords()).toContain(s.signatureId);
    expect(text).toContain('Jane Doe');
    expect(text).toContain('Pontoon rental waiver');
    expect(text).toContain('Boating involves risks including capsizing and injury.');
    expect(text).toContain('[X] I have read and accept the risks');
    expect(text).toContain('[ ] Photos may be taken');
    expect(text).toContain('Emergency contact: John Doe +1 555 0111');
    expect(text).toContain('203.0.113.7');
    expect(text).toContain('Mozilla/5.0 (Test)');
    expect(text).toContain(s.contentHash);
    expect(text).toContain('1988-07-14');
    expect(text).toContain('Pontoon 22');
    // The signature image is embedded.
    const images = [...doc.context.enumerateIndirectObjects()].filter(
      ([, o]) => o instanceof PDFRawStream && String(o.dict.get(doc.context.obj('Subtype') as any) ?? '').includes('Image'),
    );
    expect(images.length).toBeGreaterThanOrEqual(1);

    const row = await db().select().from(waiverSignatures).where(eq(waiverSignatures.id, s.signatureId)).get();
    expect(row).toMatchObject({
      customerId: op.customerId,
      templateId: t.templateId,
      firstName: 'Jane',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Test)',
    });
    expect(JSON.stringify(row!.formData)).not.toContain('base64');
    const stored = await env.FILES.head(row!.pdfKey);
    expect(stored?.size).toBe(s.pdfSize);
    expect(row!.pdfKey).toMatch(new RegExp(`^waivers/${op.customerId}/${s.signatureId}/[0-9A-Z]{26}\\.pdf$`));

    const info = await get(`/inHouseWaiver/waiver/sign/info/${s.signatureId}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      signatureId: s.signatureId,
      templateTitle: 'Pontoon rental waiver',
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.test',
      contentHash: s.contentHash,
    });
    expect(info.body.formData.sig).toMatchObject({ image: 'image/png' });
    expect(info.body.formData.ack_risk).toBe(true);

    // The signer became a renter of the operator, with the waiver URL.
    expect(s.renterId).toMatch(/^rnt_/);
    const renter = await get(`/renters/${s.renterId}`, { key: op.adminKey });
    expect(renter.body).toMatchObject({ firstName: 'Jane', email: 'jane.doe@example.test', waivers_signed_urls: [s.waiverUrl] });
    const created = await db()
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.customerId, op.customerId), eq(webhookEvents.type, 'customer.created')))
      .all();
    expect(created).toHaveLength(1);
  });

  it('accepts a JPEG signature', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const body = await signBody(t.templateId);
    body.formData.sig = TINY_JPEG;
    const r = await post('/inHouseWaiver/waiver/sign', body);
    expect(r.status, r.text).toBe(201);
  });

  it('completes the waiver number and records the waiver on the bookings of the transaction; verify reports it', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const bk1 = await addBooking(op, 'txn_sign_1');
    await addBooking(op, 'txn_sign_1');
    const renter = (
      await post(
        '/renters',
        { customerId: op.customerId, firstName: 'Jane', lastName: 'Doe', email: 'jane.operator@example.test', address: 'x' },
        { key: op.adminKey },
      )
    ).body;
    const wn = (
      await post(
        '/pending-renters',
        { customerId: op.customerId, locationId: op.locationId, transactionId: 'txn_sign_1', renterId: renter.id, templateId: t.templateId },
        { key: op.adminKey },
      )
    ).body;

    const r = await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: wn.pin }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      waiverNumber: wn.waiverNumber,
      waiverNumberCompleted: true,
      transactionId: 'txn_sign_1',
      transactionUpdated: true,
      bookingsUpdated: 2,
      renterId: renter.id,
    });

    const after = (await get(`/pending-renters?transactionId=txn_sign_1`, { key: op.adminKey })).body.data[0];
    expect(after).toMatchObject({
      status: 'COMPLETED',
      pin: null,
      signatureId: r.body.signatureId,
      waiverUrl: r.body.waiverUrl,
      renterId: renter.id,
      version: '2',
    });
    const b = await db().select().from(bookings).where(eq(bookings.id, bk1)).get();
    expect((b!.extendedData as any).note).toBe('keep me');
    expect((b!.extendedData as any).signedWaivers).toEqual([
      expect.objectContaining({ signatureId: r.body.signatureId, url: r.body.waiverUrl, signerName: 'Jane Doe' }),
    ]);
    expect((await get(`/renters/${renter.id}`, { key: op.adminKey })).body.waivers_signed_urls).toEqual([r.body.waiverUrl]);

    const v = await get(`/inHouseWaiver/waiver/verify/${r.body.signatureId}`);
    expect(v.status, v.text).toBe(200);
    expect(v.body).toMatchObject({
      pdfExists: true,
      pdfIntact: true,
      transactionUpdated: true,
      bookingsWithWaiver: 2,
      waiverNumberCompleted: true,
      renterId: renter.id,
      renterUpdated: true,
    });

    // A second signer of the same transaction is appended, not replacing the first.
    const r2 = await post(
      '/inHouseWaiver/waiver/sign',
      await signBody(t.templateId, { transactionId: 'txn_sign_1', firstName: 'Max', userEmail: 'max@example.test' }),
    );
    expect(r2.status).toBe(201);
    const b2 = await db().select().from(bookings).where(eq(bookings.id, bk1)).get();
    expect((b2!.extendedData as any).signedWaivers.map((w: any) => w.signerName)).toEqual(['Jane Doe', 'Max Doe']);

    // The PIN is used up.
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: wn.waiverNumber })), 409, 'not_pending');
  });

  it('verify reports a missing PDF and an unrelated transaction', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const r = await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { tid: 'bk_not_there' }));
    expect(r.body.transactionUpdated).toBe(false);
    const row = await db().select().from(waiverSignatures).where(eq(waiverSignatures.id, r.body.signatureId)).get();
    await env.FILES.delete(row!.pdfKey);
    const v = await get(`/inHouseWaiver/waiver/verify/${r.body.signatureId}`);
    expect(v.body).toMatchObject({ pdfExists: false, pdfIntact: false, transactionId: 'bk_not_there', transactionUpdated: false });
    expectError(await get(`/inHouseWaiver/waiver/sign/${r.body.signatureId}`), 404);
    expectError(await get('/inHouseWaiver/waiver/verify/sig_nope'), 404);
    expectError(await get('/inHouseWaiver/waiver/sign/info/sig_nope'), 404);
    expectError(await get('/inHouseWaiver/waiver/sign/sig_nope'), 404);
  });

  it('an e-mail of an existing renter only adds the waiver URL (a public form never overwrites the record)', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const renter = (
      await post(
        '/renters',
        { customerId: op.customerId, firstName: 'Real', lastName: 'Name', email: 'jane.doe@example.test', address: 'x' },
        { key: op.adminKey },
      )
    ).body;
    const r = await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { firstName: 'Mallory' }));
    expect(r.body.renterId).toBe(renter.id);
    const after = (await get(`/renters/${renter.id}`, { key: op.adminKey })).body;
    expect(after.firstName).toBe('Real');
    expect(after.waivers_signed_urls).toEqual([r.body.waiverUrl]);
  });

  it('answers 409 for a duplicate signature id and 404 for an unknown or deleted template', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const id = 'client-sig-0000000001';
    expect((await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { signatureId: id }))).status).toBe(201);
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { signatureId: id })), 409, 'already_exists');
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody('wvt_nope')), 404, 'not_found');
    await del(`/inHouseWaiver/waiver/template/${t.templateId}`, undefined, { key: op.adminKey });
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId)), 404, 'not_found');
    // The signed waiver survives the template.
    expect((await get(`/inHouseWaiver/waiver/sign/info/${id}`)).body.templateTitle).toBe('Pontoon rental waiver');
  });

  it('racing submissions with one signature id: one 201, the rest 409, one PDF', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const body = await signBody(t.templateId, { signatureId: 'race-signature-000000001' });
    const rs = await Promise.all(Array.from({ length: 4 }, () => post('/inHouseWaiver/waiver/sign', body)));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 201)) expectError(r, 409, 'already_exists');
    const listed = await env.FILES.list({ prefix: `waivers/${op.customerId}/` });
    expect(listed.objects).toHaveLength(1);
  });

  it('two signings racing for one waiver number: one completes it, the other gets 409 and leaves nothing behind', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const wn = (await post('/pending-renters', { customerId: op.customerId, locationId: op.locationId }, { key: op.adminKey })).body;
    const rs = await Promise.all(
      [0, 1, 2].map(async (i) =>
        post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: wn.pin, userEmail: `racer${i}@example.test` })),
      ),
    );
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 201)) expect([404, 409]).toContain(r.status);
    const sigs = await db().select().from(waiverSignatures).where(eq(waiverSignatures.customerId, op.customerId)).all();
    expect(sigs).toHaveLength(1);
    const listed = await env.FILES.list({ prefix: `waivers/${op.customerId}/` });
    expect(listed.objects.map((o) => o.key)).toEqual([sigs[0].pdfKey]);
  });

  it('refuses bad signatures, unticked acknowledgements, bad fields; nothing is written', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const send = async (formData: Record<string, unknown>) =>
      post('/inHouseWaiver/waiver/sign', {
        ...(await signBody(t.templateId)),
        formData: { ack_risk: true, emergency: 'x', sig: await signaturePng(), ...formData },
      });
    const gif = await send({ sig: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' });
    expectError(gif, 400, 'validation_failed');
    expect(gif.body.details[0]).toMatchObject({ field: 'formData.sig', code: 'invalid_signature' });
    expectError(await send({ sig: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }), 400, 'validation_failed');
    expectError(await send({ sig: 'just my name' }), 400, 'validation_failed');
    expectError(await send({ sig: 'data:image/png;base64,' + btoa('not really a png at all') }), 400, 'validation_failed');
    expectError(await send({ sig: TINY_JPEG.replace('image/jpeg', 'image/png') }), 400, 'validation_failed');
    // PNG magic but a broken image: pdf-lib cannot read it.
    expectError(
      await send({ sig: 'data:image/png;base64,' + base64Encode(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5, 6, 7, 8])) }),
      400,
      'validation_failed',
    );
    expectError(await send({ sig: undefined }), 400, 'validation_failed');
    expectError(await send({ extra: 'data:text/html;base64,PGgxPg==' }), 400, 'validation_failed');
    const unticked = await send({ ack_risk: false });
    expectError(unticked, 400, 'validation_failed');
    expect(unticked.body.details.map((d: any) => d.field)).toEqual(['formData.ack_risk']);
    expectError(await send({ emergency: '' }), 400, 'validation_failed');
    expectError(await send({ swim: 'maybe' }), 400, 'validation_failed');
    expectError(await post('/inHouseWaiver/waiver/sign', {}), 400, 'validation_failed');
    expectError(await post('/inHouseWaiver/waiver/sign', { templateId: t.templateId, firstName: 'a', lastName: 'b' }), 400, 'validation_failed');
    const sigs = await db().select().from(waiverSignatures).where(eq(waiverSignatures.customerId, op.customerId)).all();
    expect(sigs).toEqual([]);
    expect((await env.FILES.list({ prefix: `waivers/${op.customerId}/` })).objects).toEqual([]);
  });

  it('refuses oversized signature images and bodies with 413', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    const big = new Uint8Array(600 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const r = await post('/inHouseWaiver/waiver/sign', {
      ...(await signBody(t.templateId)),
      formData: { ack_risk: true, emergency: 'x', sig: `data:image/png;base64,${base64Encode(big)}` },
    });
    expectError(r, 413, 'payload_too_large');
    const huge = new Uint8Array(900 * 1024);
    const r2 = await post('/inHouseWaiver/waiver/sign', {
      ...(await signBody(t.templateId)),
      formData: { ack_risk: true, emergency: 'x', sig: `data:image/png;base64,${base64Encode(huge)}` },
    });
    expectError(r2, 413, 'payload_too_large');
    expect((await env.FILES.list({ prefix: `waivers/${op.customerId}/` })).objects).toEqual([]);
  });

  it('refuses a used, expired or unknown waiver number', async () => {
    const op = await createOperator();
    const t = await newTemplate(op);
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: 'NOPE2345' })), 404);
    const wn = (await post('/pending-renters', { customerId: op.customerId }, { key: op.adminKey })).body;
    const { waiverNumbers } = await import('../../../src/db/schema/waivers');
    await db().update(waiverNumbers).set({ pinExpiresAt: '2020-01-01T00:00:00.000Z' }).where(eq(waiverNumbers.pin, wn.pin));
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: wn.pin })), 410, 'expired');
    // Another operator's waiver number is unknown to this template.
    const other = await createOperator();
    const foreign = (await post('/pending-renters', { customerId: other.customerId }, { key: other.adminKey })).body;
    expectError(await post('/inHouseWaiver/waiver/sign', await signBody(t.templateId, { waiverNumber: foreign.pin })), 404);
    expect((await get(`/pending-renters/validate?pin=${foreign.pin}`)).status).toBe(200);
  });
});
